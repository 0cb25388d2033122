/**
 * Ctrl-C (SIGINT), a polite kill (SIGTERM) and a terminal that went away (SIGHUP), at every
 * moment of a run: exit 130, and nothing written unless the files were already complete.
 *
 * This module is loaded first, before anything heavy (cli/index.ts installs the handlers and only
 * then imports the rest), so it imports nothing of the CLI's own. A handler runs only when the
 * event loop turns: a signal that arrives during synchronous work (loading a large session, the
 * offline engine) is seen at the next `checkpoint`, and a run checks one right before it writes.
 */

const CANCEL_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The exit status of a cancelled run, as documented. */
const CANCELLED_EXIT = 130;

/** What a cancelled run of each command says; a run's own error reporting says the same. */
const MESSAGES: Record<string, string> = { handoff: "Handoff cancelled" };

const controller = new AbortController();

/** Aborted once a cancel signal arrived; every wait of a run listens to it. */
export const cancelSignal: AbortSignal = controller.signal;

let runsInProgress = 0;
let message = "Cancelled";
let written: readonly string[] = [];
/** How the last words are printed; the plain stderr until the CLI's output boundary is loaded. */
let say = (line: string): void => {
  try {
    process.stderr.write(line);
  } catch {
    // Nobody is listening.
  }
};

function onSignal(): void {
  const again = controller.signal.aborted;
  controller.abort();
  // A run in progress stops at its next checkpoint, writing nothing; a second signal does not wait.
  if (runsInProgress > 0 && !again) return;
  // Outside a run nothing is half done: end now. After the files were written, say which.
  say(written.length > 0 ? `interrupted; already written: ${written.join(", ")}\n` : `${message}\n`);
  process.exit(CANCELLED_EXIT);
}

/** Turns the cancel signals into a clean exit 130 from now on; `argv` names the command, for its message. */
export function installCancelHandlers(argv: readonly string[]): void {
  message = MESSAGES[argv[0] ?? ""] ?? message;
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal);
}

/**
 * Stops cancelling runs on signals, for a command that hands the terminal to another program
 * (`--exec`, where it cannot replace this process): what a signal means is that program's
 * business from then on.
 */
export function removeCancelHandlers(): void {
  for (const signal of CANCEL_SIGNALS) process.off(signal, onSignal);
}

/** Prints the last words through `print` (the output boundary, once it is loaded). */
export function printCancellationWith(print: (line: string) => void): void {
  say = print;
}

/** Thrown by `checkpoint` and turned into the command's message and exit 130 where errors are reported. */
export class CancelledError extends Error {
  override readonly name = "CancelledError";
  constructor() {
    super(message);
  }
}

/**
 * Lets the event loop turn once, so that a signal that arrived during synchronous work is
 * handled, then throws `CancelledError` if one was. Costs one macrotask (see bench/signals.ts).
 */
export async function checkpoint(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (controller.signal.aborted) throw new CancelledError();
}

/**
 * Runs `work` as a run in progress: a signal aborts `cancelSignal` and the run ends at its next
 * checkpoint or wait, instead of the process ending at once. A signal that arrived before (while
 * the session was loading) is seen at the start.
 */
export async function asRunInProgress<T>(work: (cancel: AbortSignal) => Promise<T>): Promise<T> {
  runsInProgress++;
  try {
    await checkpoint();
    return await work(cancelSignal);
  } finally {
    runsInProgress--;
  }
}

/** From now on, a signal ends the run at once and names `files`, which are complete on disk. */
export function markWritten(files: readonly string[]): void {
  written = files;
}
