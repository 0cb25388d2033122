#!/usr/bin/env bun
import { wireProcess } from "./process/host.ts";

// First of all, before the rest of the CLI is even loaded: from here on a signal cancels cleanly
// (exit 130, nothing written). Only the runtime's own start comes before (bench/signals.ts).
const wiring = wireProcess(process.argv.slice(2));

const { runCli } = await import("./main.ts");
const { describeBug, EXIT } = await import("./output/stderr.ts");

/**
 * The last resort: an error nothing caught (a failure in a callback, a rejection nobody
 * awaited) ends the run with one line instead of the runtime's dump, and still reads as the bug
 * it is; `--verbose` shows its stack. Exiting here runs the exit hooks that release the lock and
 * remove temp files.
 */
function lastResort(error: unknown): void {
  const verbose = process.argv.includes("-v") || process.argv.includes("--verbose");
  const line = `error: ${describeBug(error, verbose)}\n`;
  const run = wiring.current();
  // Through the run's output boundary when there is one.
  if (run !== undefined) run.stderr.write(line);
  else process.stderr.write(line);
  process.exit(EXIT.failed);
}
process.on("uncaughtException", lastResort);
process.on("unhandledRejection", lastResort);

process.exitCode = await runCli(process.argv.slice(2), wiring.io(), (run) => wiring.attach(run));
