/**
 * End-to-end `agent handoff` on the real before-compaction session against a fake endpoint
 * that answers at once, next to bare Bun startup. Median of RUNS runs each.
 * Target (issue 3): at most 150 ms above `bun -e ''`.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";
import { median, ms, timeCommand } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "before-compaction.jsonl");
const BINARY = join(REPO, "dist", "agent");

if (!existsSync(SESSION)) {
  console.log(`handoff bench skipped: ${SESSION} is not here (the shared sessions live beside the checkout)`);
  process.exit(0);
}

const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
const dir = mkdtempSync(join(tmpdir(), "agent-bench-"));
const env = { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: server.url };
let n = 0;
const handoff = (exe: string[]) => [...exe, "handoff", SESSION, "--no-record", "-q", "-o", join(dir, `out-${n++}.jsonl`)];

async function sample(make: () => string[]): Promise<number> {
  await timeCommand(make(), { env }); // warm the file cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeCommand(make(), { env }));
  return median(times);
}

try {
  // `bun -e ''` prints Bun's help instead of running; an expression that does nothing is the bare start.
  const bare = await sample(() => [process.execPath, "-e", "0"]);
  const script = await sample(() => handoff([process.execPath, join(REPO, "cli", "index.ts")]));
  console.log(`handoff (before-compaction.jsonl, ${RUNS} runs, medians)`);
  console.log(`  bun -e '0' (bare start)   ${ms(bare)}`);
  console.log(`  agent handoff (bun cli)   ${ms(script)}   +${ms(script - bare)} over bare startup (target ≤ +150 ms)`);
  if (existsSync(BINARY)) {
    const binary = await sample(() => handoff([BINARY]));
    console.log(`  agent handoff (dist/agent) ${ms(binary)}  +${ms(binary - bare)} over bare startup`);
  } else {
    console.log("  dist/agent not built (bun run build) — binary not measured");
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
