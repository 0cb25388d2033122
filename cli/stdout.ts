import { readFileSync } from "node:fs";
import { errorCode, fsReason } from "./fs-errors.ts";
import { forJson, forStdout } from "./printed.ts";
import { stringifyForTerminal } from "./terminal.ts";

/**
 * Printing the product failed for a reason other than a reader that left (a full disk, a
 * closed descriptor). `written` names the files the run had already written, so the message
 * can say the work is not lost.
 */
export class StdoutError extends Error {
  override readonly name = "StdoutError";
  constructor(
    readonly reason: string,
    readonly written: readonly string[],
  ) {
    super(`could not print on stdout (${reason})`);
  }
}

/** What only stdout says; every other code in the one file-system wording (fs-errors.ts). */
const STDOUT_REASONS: Record<string, string> = { EBADF: "stdout is closed" };

/**
 * Whether the process started with stdout closed (`>&-`). Bun then opens /dev/null there itself,
 * so writes succeed and the product is silently lost. A descriptor that survived exec cannot be
 * close-on-exec, so fd 1 flagged O_CLOEXEC was opened after we started. Linux only; elsewhere
 * the write's own error is all we get.
 */
function startedWithStdoutClosed(): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync("/proc/self/fdinfo/1", "latin1"))?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & 0o2000000) !== 0;
  } catch {
    return false;
  }
}

let readerLeft = false;
let closedAtStart: boolean | undefined;

/**
 * The one way the product reaches stdout. Resolves once the OS has it. A reader that left
 * (EPIPE: `| head`) has what it wanted: the rest is dropped quietly and the run goes on. Any
 * other failure rejects with a `StdoutError` naming `written`.
 */
function writeStdout(text: string, written: readonly string[]): Promise<void> {
  if (readerLeft) return Promise.resolve();
  closedAtStart ??= startedWithStdoutClosed();
  if (closedAtStart) return Promise.reject(new StdoutError(STDOUT_REASONS.EBADF ?? "EBADF", written));
  ignoreStreamErrorEvents();
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => {
      if (!error) return resolve();
      const code = errorCode(error);
      if (code === "EPIPE") {
        readerLeft = true;
        return resolve();
      }
      reject(new StdoutError(STDOUT_REASONS[code] ?? fsReason(error), written));
    });
  });
}

let listening = false;

/**
 * A failed write reaches its callback and is also emitted as an `error` event; with no listener
 * for the event Bun dumps it as an uncaught error. The callback is where it is handled.
 */
function ignoreStreamErrorEvents(): void {
  if (listening) return;
  listening = true;
  process.stdout.on("error", () => {});
}

/** What a command prints for people and programs: on a terminal, without control characters; never a configured secret. */
export function printText(text: string, options: { written?: readonly string[] } = {}): Promise<void> {
  return writeStdout(forStdout(text, Boolean(process.stdout.isTTY)), options.written ?? []);
}

/**
 * One JSON value and a newline; characters a terminal would act on are `\u` escapes; never a
 * configured secret, except in the top-level fields `exact` names: values that name what this run
 * wrote (the new session's path, the command that resumes it), which a script runs as they are.
 * A short key that is also a word (`ollama`) in a folder's name must not change them.
 */
export function printJson(
  value: unknown,
  options: { written?: readonly string[]; indent?: number; exact?: readonly string[] } = {},
): Promise<void> {
  const exact = options.exact ?? [];
  const cleared =
    exact.length > 0 && typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, exact.includes(key) ? item : forJson(item)]))
      : forJson(value);
  return writeStdout(`${stringifyForTerminal(cleared, options.indent)}\n`, options.written ?? []);
}

/**
 * Our own text (help, version), which may carry our own colours. It quotes nothing from a
 * session, an endpoint, the environment or the flags, so there is nothing to withhold, and a
 * short key that is also a word (`ollama`) must not blank the help's own words.
 */
export function printOwnText(text: string): Promise<void> {
  return writeStdout(text, []);
}
