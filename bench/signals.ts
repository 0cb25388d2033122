/**
 * What handling signals at every moment costs, and where it cannot reach.
 * - checkpoint: one turn of the event loop, so a signal that came during synchronous work is
 *   seen; a handoff passes 3 of them (after loading, after computing, right before writing), a
 *   dry run and inspect 1.
 * - start-up: how soon after the process starts a signal is handled (exit 130) rather than
 *   killing it (the runtime's own start, before our first line, is out of reach): SIGTERM sent
 *   D ms after spawn, SIGNAL_RUNS times per D.
 * - latency: how long a run takes to stop when the signal comes during the offline engine's
 *   synchronous computation on a large session (it stops at the next checkpoint, not at once).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkpoint } from "../cli/process/cancel.ts";
import { assistant, chain, text, user } from "../fixtures/sessions/builders.ts";
import { median, ms } from "./stats.ts";

const REPO = join(import.meta.dir, "..");
const CLI = join(REPO, "cli", "index.ts");
const RUNS = Number(process.env.SIGNAL_RUNS ?? 20);
const env = { PATH: process.env.PATH ?? "", HOME: tmpdir(), NO_COLOR: "1" };

// 1. One checkpoint.
const N = 20_000;
const never = new AbortController().signal;
for (let i = 0; i < 1000; i++) await checkpoint(never);
const started = performance.now();
for (let i = 0; i < N; i++) await checkpoint(never);
const each = (performance.now() - started) / N;
console.log(
  `signals: checkpoint ${(each * 1000).toFixed(1)} µs each; a handoff passes 3 (${(3 * each * 1000).toFixed(1)} µs per run), a dry run or inspect 1`,
);

// 2. Start-up: from which delay on is every SIGTERM handled?
const example = join(REPO, "fixtures", "example.jsonl");
const rows: string[] = [];
for (const delay of [0, 5, 10, 15, 20, 30, 50]) {
  const outcomes = { handled: 0, killed: 0, finished: 0 };
  for (let i = 0; i < RUNS; i++) {
    const proc = Bun.spawn([process.execPath, CLI, "handoff", example, "--engine", "offline", "--dry-run"], {
      env,
      stdout: "ignore",
      stderr: "ignore",
      stdin: "ignore",
    });
    if (delay > 0) await Bun.sleep(delay);
    proc.kill("SIGTERM");
    const code = await proc.exited;
    // Killed: the signal came before our first line ran; finished: after the run was over.
    if (proc.signalCode) outcomes.killed++;
    else if (code === 130) outcomes.handled++;
    else outcomes.finished++;
  }
  rows.push(`${delay} ms ${outcomes.handled}/${outcomes.killed}/${outcomes.finished}`);
}
console.log(
  `signals: SIGTERM D ms after spawn (${RUNS} runs each), handled (130) / killed before our first line / run already over: ${rows.join(", ")}`,
);

// 3. Latency during the offline engine's computation on a ~16 MB session.
const dir = mkdtempSync(join(tmpdir(), "agent-bench-signals-"));
try {
  const filler = "lorem ipsum dolor sit amet ".repeat(55);
  const source = join(dir, "big.jsonl");
  writeFileSync(
    source,
    chain(
      Array.from({ length: 9000 }, (_, i) =>
        i % 2 === 0 ? user(i, `step ${i}: ${filler}`) : assistant(i, [text(`done ${i}: ${filler}`)]),
      ),
    ),
  );
  const whole: number[] = [];
  const stops: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const full = Bun.spawn([process.execPath, CLI, "handoff", source, "--engine", "offline", "--dry-run"], {
      env,
      stdout: "ignore",
      stderr: "ignore",
    });
    await full.exited;
    const length = performance.now() - t0;
    whole.push(length);
    const proc = Bun.spawn([process.execPath, CLI, "handoff", source, "--engine", "offline", "--dry-run"], {
      env,
      stdout: "ignore",
      stderr: "ignore",
    });
    await Bun.sleep(length * 0.3);
    const sent = performance.now();
    proc.kill("SIGTERM");
    await proc.exited;
    stops.push(performance.now() - sent);
  }
  console.log(
    `signals: offline dry run of a 16 MB session takes ${ms(median(whole))}; SIGTERM at 30% of it ends it ${ms(median(stops))} later (at the next checkpoint)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
