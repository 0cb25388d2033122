/**
 * The cost of loading core/ before any work, in fresh processes (median of RUNS each):
 * - `import` of the source (`core/index.ts`, the pipeline): parsing and transpiling included,
 *   as `bun cli/index.ts` pays it;
 * - the work done at import time: core bundled into one file (as in `dist/agent`), timed from its
 *   first line to its last, so parsing is left out and only what runs at the top level counts.
 * CPU time, not wall time: on a shared machine the wall clock mostly measures the neighbours.
 * Nothing in core should do work at import time; the offline engine loads only when it runs.
 * `bun bench/core-import.ts [checkout]` measures another checkout (main, for a before figure).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, ms } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const root = process.argv[2] ?? join(import.meta.dir, "..");
const CPU_MS = "((u) => (u.user + u.system) / 1000)";

function sample(script: string): number {
  const proc = Bun.spawnSync([process.execPath, "-e", script], { cwd: root, stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error(`bun -e ${script} exited ${proc.exitCode}`);
  return Number(proc.stdout.toString().trim());
}

function medianOf(script: string): number {
  return median(Array.from({ length: RUNS }, () => sample(script)));
}

console.log(`core import (${root}, ${RUNS} fresh processes, median CPU time)`);
for (const entry of ["core/index.ts", "core/handoff/pipeline.ts"]) {
  const script = `const t = process.cpuUsage(); await import(${JSON.stringify(join(root, entry))}); console.log(${CPU_MS}(process.cpuUsage(t)));`;
  console.log(`  import ${entry.padEnd(34)} ${ms(medianOf(script)).padStart(10)}`);
}

const dir = mkdtempSync(join(tmpdir(), "core-import-"));
try {
  const built = await Bun.build({ entrypoints: [join(root, "core/index.ts")], target: "bun", minify: true });
  const code = await built.outputs[0]?.text();
  if (!built.success || code === undefined) throw new Error("bundling core/index.ts failed");
  const bundle = join(dir, "core.js");
  // The clock starts on the bundle's first line and stops on its last: only top-level work is between.
  writeFileSync(
    bundle,
    `globalThis.__coreStart = process.cpuUsage();\n${code}\nglobalThis.__coreTook = process.cpuUsage(globalThis.__coreStart);\n`,
  );
  const script = `await import(${JSON.stringify(bundle)}); console.log(${CPU_MS}(globalThis.__coreTook));`;
  console.log(`  top-level work of core, bundled${" ".repeat(10)} ${ms(medianOf(script)).padStart(10)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
