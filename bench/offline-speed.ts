/**
 * `bun run bench offline-speed`: the offline engine in-process on both real sessions, median of
 * RUNS runs each. "engine": reading the notes, writing the six sections, Session Facts and Last Exchanges from
 * a session already parsed; "from text": parse, branch, context and facts too. Target (issue 13):
 * the engine under 100 ms on each real session.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../core/index.ts";
import { appendCodeSections } from "../core/handoff/code-sections.ts";
import { writeOfflineDocument } from "../core/handoff/offline/index.ts";
import { extractNotes } from "../core/handoff/offline/extract.ts";
import { median, ms } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const SESSIONS = join(import.meta.dir, "..", "..", "shared", "sessions");

function time(work: () => unknown): number {
  work(); // warm up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

console.log(`offline engine, in-process (${RUNS} runs, medians; target: engine < 100 ms)`);
for (const name of ["large-session.jsonl", "before-compaction.jsonl"]) {
  const file = join(SESSIONS, name);
  if (!existsSync(file)) {
    console.log(`  ${name}: skipped (${SESSIONS} is not beside the checkout)`);
    continue;
  }
  const text = readFileSync(file, "utf8");
  const session = parseSession(text, file);
  const analysis = analyzeBranch(session);
  const engine = () => {
    const notes = extractNotes(analysis.context);
    const document = writeOfflineDocument({ context: analysis.context, facts: analysis.facts, notes, cwd: session.header.cwd });
    // As the pipeline appends them for the offline engine: Session Facts and the verbatim tail.
    return appendCodeSections(document, { context: analysis.context, facts: analysis.facts, sourcePath: file, lastExchanges: true });
  };
  const fromText = () => {
    const parsed = parseSession(text, file);
    const branch = analyzeBranch(parsed);
    return writeOfflineDocument({ context: branch.context, facts: branch.facts, cwd: parsed.header.cwd });
  };
  console.log(`  ${name.padEnd(24)} engine ${ms(time(engine)).padStart(9)}   from text ${ms(time(fromText)).padStart(9)}`);
}
