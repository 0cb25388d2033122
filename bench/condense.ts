/**
 * `agent handoff` on the large real session through 32K and 128K windows, against a fake
 * endpoint that answers at once and, like a real one, refuses prompts over its window.
 * Per window: requests made, prompt tokens sent in all (characters / 4 of all message text, as
 * the endpoint counts them), refusals, and the median wall time of RUNS runs.
 * Target (issue 4): prompt tokens sent ≤ 1.3 × the session's estimated context.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../core/index.ts";
import { CANNED_DOCUMENT, promptTokens, startFakeOpenAI } from "../fixtures/fake-openai.ts";
import { median, ms, timeCommand } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = 1.3;
const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "large-session.jsonl");

if (!existsSync(SESSION)) {
  console.log(`condense bench skipped: ${SESSION} is not here (the shared sessions live beside the checkout)`);
  process.exit(0);
}

const estimated = analyzeBranch(parseSession(readFileSync(SESSION, "utf8"), SESSION)).estimatedTokens;
const dir = mkdtempSync(join(tmpdir(), "agent-bench-condense-"));
const pad = (value: string | number, width: number) => String(value).padStart(width);
let failed = false;

console.log(
  `condense (large-session.jsonl, ~${estimated.toLocaleString("en-US")} tokens of context by our estimate; ${RUNS} runs, median wall time)`,
);
console.log(
  `  ${pad("window", 8)} ${pad("requests", 9)} ${pad("prompt tokens sent", 19)} ${pad("× context", 10)} ${pad("refused", 8)} ${pad("wall time", 11)}`,
);
try {
  for (const window of [32_000, 128_000]) {
    const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }), { contextWindow: window });
    const env = { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: server.url };
    try {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const out = join(dir, `out-${window}-${run}.jsonl`);
        times.push(
          await timeCommand(
            [
              process.execPath,
              join(REPO, "cli", "index.ts"),
              "handoff",
              SESSION,
              "--context-window",
              String(window),
              "--no-record",
              "-q",
              "-o",
              out,
            ],
            { env },
          ),
        );
      }
      // Every run sends the same requests: report one run's worth.
      const requests = server.requests.length / RUNS;
      const sent = server.requests.reduce((sum, r) => sum + promptTokens(r.body), 0) / RUNS;
      const ratio = sent / estimated;
      const refused = server.rejected.length / RUNS;
      if (ratio > TARGET || refused > 0) failed = true;
      console.log(
        `  ${pad(window.toLocaleString("en-US"), 8)} ${pad(requests, 9)} ${pad(Math.round(sent).toLocaleString("en-US"), 19)} ${pad(`${ratio.toFixed(2)}${ratio <= TARGET ? " ok" : " !!"}`, 10)} ${pad(refused, 8)} ${pad(ms(median(times)), 11)}`,
      );
    } finally {
      await server.stop();
    }
  }
  console.log(`  target: prompt tokens sent ≤ ${TARGET} × the estimated context, nothing refused`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
