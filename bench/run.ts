/**
 * `bun run bench`: every benchmark, one after another, each in its own process so that none
 * inherits another's memory. A benchmark is a script in this folder that prints its own figures;
 * add yours to the list. `bun run bench load` runs only the ones whose name contains "load".
 */
import { join } from "node:path";

const BENCHMARKS = [
  // First: the headline figures (the 1 MB handoff with dist/agent, its --no-redact twin, the dry runs, bare Bun).
  "handoff.ts",
  "load.ts",
  "ls.ts",
  "ls-broken.ts",
  "load-codex.ts",
  "load-claude-code.ts",
  "core-import.ts",
  "session-facts.ts",
  "redact.ts",
  "condense.ts",
  "kill.ts",
  "signals.ts",
  "fuzz-cli.ts",
  "offline-grade.ts",
  "offline-speed.ts",
  "offline-sections.ts",
  "quality.ts",
];

const only = process.argv[2];
for (const file of BENCHMARKS.filter((name) => only === undefined || name.includes(only))) {
  const proc = Bun.spawnSync([process.execPath, join(import.meta.dir, file)], { stdout: "inherit", stderr: "inherit" });
  if (proc.exitCode !== 0) {
    console.error(`bench/${file} failed (exit ${proc.exitCode})`);
    process.exitCode = 1;
  }
}
