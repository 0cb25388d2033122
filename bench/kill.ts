/**
 * Fault injection: runs `agent handoff` KILL_RUNS times (default 200) and kills it with
 * SIGKILL at a random moment, half the runs on a version 3 source (recorded by an append) and
 * half on a version 1 source (recorded by rewriting the whole file: temp file + rename). After
 * each, the source must be byte-identical, or the v3 source plus our complete lines, or the
 * v1 source's complete v3 rewrite; no partial file may sit under a final name. Temp files a
 * kill left behind are counted, not failed.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspectAfterCrash } from "../fixtures/crash-check.ts";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";

const RUNS = Number(process.env.KILL_RUNS ?? 200);
const REPO = join(import.meta.dir, "..");
const SOURCES = [
  { name: "v3", path: join(REPO, "fixtures", "example.jsonl"), recorded: "source + our lines" },
  { name: "v1", path: join(REPO, "fixtures", "sessions", "v1.jsonl"), recorded: "complete v3 rewrite" },
].map((source) => ({ ...source, original: readFileSync(source.path), outcomes: new Map<string, number>() }));
const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT, delayMs: Math.floor(Math.random() * 40) }));
const dir = mkdtempSync(join(tmpdir(), "agent-kill-"));
const env = { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", OPENAI_API_KEY: "sk-kill", OPENAI_BASE_URL: server.url };

const tally = { newSessions: 0, damaged: 0, tempFiles: 0, runsWithTempFiles: 0, exitedBeforeKill: 0 };
try {
  for (let i = 0; i < RUNS; i++) {
    const source = SOURCES[i % SOURCES.length];
    if (!source) throw new Error("no source");
    const runDir = mkdtempSync(join(dir, "run-"));
    copyFileSync(source.path, join(runDir, "source.jsonl"));
    const proc = Bun.spawn([process.execPath, join(REPO, "cli", "index.ts"), "handoff", "source.jsonl"], {
      cwd: runDir,
      env,
      stdout: "ignore",
      stderr: "ignore",
    });
    // Spread the kills over start-up, the request, the stream and the writes.
    await Bun.sleep(Math.random() * 320);
    if (proc.exitCode !== null) tally.exitedBeforeKill++;
    proc.kill(9);
    await proc.exited;
    const state = inspectAfterCrash(runDir, "source.jsonl", source.original);
    if (state.problems.length > 0) {
      tally.damaged++;
      console.error(`run ${i} (${source.name} source): ${state.problems.join("; ")}`);
    }
    source.outcomes.set(state.source, (source.outcomes.get(state.source) ?? 0) + 1);
    tally.newSessions += state.newSessions;
    tally.tempFiles += state.tempFiles;
    if (state.tempFiles > 0) tally.runsWithTempFiles++;
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`kill -9 fault injection: ${RUNS} runs, half on a v3 source (append), half on a v1 source (rewrite)`);
for (const { name, outcomes, recorded } of SOURCES) {
  const done = (outcomes.get("recorded") ?? 0) + (outcomes.get("rewritten") ?? 0);
  console.log(
    `  ${name} source: unchanged ${outcomes.get("unchanged") ?? 0}, ${recorded} ${done}, damaged ${outcomes.get("damaged") ?? 0}`,
  );
}
console.log(`  runs with damage ${tally.damaged}`);
console.log(`  leftover .tmp files ${tally.tempFiles} (in ${tally.runsWithTempFiles} runs; litter, not damage)`);
console.log(`  complete new sessions left ${tally.newSessions}; runs that had finished before the kill ${tally.exitedBeforeKill}`);
if (tally.damaged > 0) process.exitCode = 1;
