#!/usr/bin/env bun
import { runCli } from "./main.ts";
import { describeBug, EXIT, writeStderr } from "./report.ts";

/**
 * The last resort: an error nothing caught (a failure in a callback, a rejection nobody
 * awaited) ends the run with one line instead of the runtime's dump, and still reads as the bug
 * it is; `--verbose` shows its stack. Exiting here runs the exit hooks that release the lock and
 * remove temp files.
 */
function lastResort(error: unknown): void {
  const verbose = process.argv.includes("-v") || process.argv.includes("--verbose");
  writeStderr(`error: ${describeBug(error, verbose)}\n`);
  process.exit(EXIT.failed);
}
process.on("uncaughtException", lastResort);
process.on("unhandledRejection", lastResort);

process.exitCode = await runCli(process.argv.slice(2));
