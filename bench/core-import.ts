/**
 * The cost of loading core/ before any work: `import("./core/index.ts")` in a fresh `bun`, median
 * of RUNS child processes (each prints its own import time, so process start is not in the figure).
 * Nothing in core should do work at import time; the offline engine loads only when it runs.
 */
import { join } from "node:path";
import { median, ms } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const root = join(import.meta.dir, "..");

function importTime(entry: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(join(root, entry))}); console.log(performance.now() - t);`;
  const proc = Bun.spawnSync([process.execPath, "-e", script], { cwd: root, stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error(`importing ${entry} exited ${proc.exitCode}`);
  return Number(proc.stdout.toString().trim());
}

console.log(`core import (${RUNS} fresh processes, medians)`);
for (const entry of ["core/index.ts", "core/handoff/pipeline.ts"]) {
  const times = Array.from({ length: RUNS }, () => importTime(entry));
  console.log(`  import ${entry.padEnd(28)} ${ms(median(times)).padStart(10)}`);
}
