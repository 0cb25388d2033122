/**
 * What Session Facts cost on the model path: the user's rules read by notes/constraints.ts, beside
 * the offline engine's whole note-taking (extractNotes), which Session Facts used to run on every
 * handoff. Median of RUNS runs each, in this process, on the two real sessions beside the checkout.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../core/index.ts";
import { userConstraints } from "../core/handoff/notes/constraints.ts";
import { extractNotes } from "../core/handoff/offline/extract.ts";
import { median, ms } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const SESSIONS = join(import.meta.dir, "..", "..", "shared", "sessions");

function time(run: () => void): number {
  run(); // warm up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

console.log(`session facts (${RUNS} runs, medians, in-process)`);
for (const name of ["large-session", "before-compaction"]) {
  const file = join(SESSIONS, `${name}.jsonl`);
  if (!existsSync(file)) {
    console.log(`  ${name}: skipped (${file} is not here)`);
    continue;
  }
  const { context } = analyzeBranch(parseSession(readFileSync(file, "utf8"), file));
  const rules = time(() => userConstraints(context));
  const notes = time(() => extractNotes(context));
  console.log(`  ${`${name}.jsonl`.padEnd(26)} user's rules ${ms(rules).padStart(9)}   offline notes ${ms(notes).padStart(9)}`);
}
