/**
 * Fault injection: runs `agent handoff` KILL_RUNS times (default 200) and kills it with
 * SIGKILL at a random moment; after each, the source must be byte-identical or exactly the
 * source plus our two complete lines, and no partial file may sit under a final name.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspectAfterCrash } from "../fixtures/crash-check.ts";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";

const RUNS = Number(process.env.KILL_RUNS ?? 200);
const REPO = join(import.meta.dir, "..");
const SOURCE = join(REPO, "fixtures", "example.jsonl");
const original = readFileSync(SOURCE);
const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT, delayMs: Math.floor(Math.random() * 40) }));
const dir = mkdtempSync(join(tmpdir(), "agent-kill-"));
const env = { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", OPENAI_API_KEY: "sk-kill", OPENAI_BASE_URL: server.url };

const tally = { unchanged: 0, recorded: 0, newSessions: 0, damaged: 0, exitedBeforeKill: 0 };
try {
  for (let i = 0; i < RUNS; i++) {
    const runDir = mkdtempSync(join(dir, "run-"));
    copyFileSync(SOURCE, join(runDir, "source.jsonl"));
    const proc = Bun.spawn([process.execPath, join(REPO, "cli", "index.ts"), "handoff", "source.jsonl"], { cwd: runDir, env, stdout: "ignore", stderr: "ignore" });
    // Spread the kills over start-up, the request, the stream and the writes.
    await Bun.sleep(Math.random() * 320);
    if (proc.exitCode !== null) tally.exitedBeforeKill++;
    proc.kill(9);
    await proc.exited;
    const state = inspectAfterCrash(runDir, "source.jsonl", original);
    if (state.problems.length > 0) {
      tally.damaged++;
      console.error(`run ${i}: ${state.problems.join("; ")}`);
    }
    if (state.source === "recorded") tally.recorded++;
    else if (state.source === "unchanged") tally.unchanged++;
    tally.newSessions += state.newSessions;
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`kill -9 fault injection: ${RUNS} runs`);
console.log(`  source unchanged ${tally.unchanged}, source + our 2 lines ${tally.recorded}, damaged ${tally.damaged}`);
console.log(`  complete new sessions left ${tally.newSessions}; runs that had finished before the kill ${tally.exitedBeforeKill}`);
if (tally.damaged > 0) process.exitCode = 1;
