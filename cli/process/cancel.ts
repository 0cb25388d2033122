/**
 * Ctrl-C (SIGINT), a polite kill (SIGTERM) and a terminal that went away (SIGHUP), at every
 * moment of a run: exit 130, and nothing written unless the files were already complete.
 *
 * Each run has its own `Cancellation` (cli/run.ts); the host (cli/process/host.ts) turns the process's
 * signals into `interrupt()` calls on the run in progress. A handler runs only when the event
 * loop turns: a signal that arrives during synchronous work (loading a large session, the
 * offline engine) is seen at the next `checkpoint`, and a run checks one right before it writes.
 */

/** The exit status of a cancelled run, as documented. */
export const CANCELLED_EXIT = 130;

/** What a cancelled run of each command says; a run's own error reporting says the same. */
const MESSAGES: Record<string, string> = { handoff: "Handoff cancelled" };

/** What a cancelled run of the command `argv` names says. */
export function cancelledMessage(argv: readonly string[]): string {
  return MESSAGES[argv[0] ?? ""] ?? "Cancelled";
}

/** Thrown by `checkpoint` and turned into the command's message and exit 130 where errors are reported. */
export class CancelledError extends Error {
  override readonly name = "CancelledError";
  constructor(message = "Cancelled") {
    super(message);
  }
}

/**
 * Lets the event loop turn once, so that a signal that arrived during synchronous work is
 * handled, then throws `CancelledError` if `signal` was aborted. Costs one macrotask (see bench/signals.ts).
 */
export async function checkpoint(signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (signal.aborted) throw new CancelledError();
}

export interface CancellationOptions {
  /** What the run says when it ends at once (`Handoff cancelled`). */
  message: string;
  /** Prints the last words (through the output boundary). */
  say: (line: string) => void;
  /** Ends the process at once with `code` (the host's; in-process, the run's `signal` is all there is). */
  exitNow?: ((code: number) => void) | undefined;
}

/** One run's cancellation: its signal, whether a run is in progress, and the files already written. */
export class Cancellation {
  private readonly controller = new AbortController();
  private runsInProgress = 0;
  private written: readonly string[] = [];

  constructor(private readonly options: CancellationOptions) {}

  /** Aborted once a cancel signal arrived; every wait of the run listens to it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get message(): string {
    return this.options.message;
  }

  /**
   * A cancel signal arrived. A run in progress stops at its next checkpoint, writing nothing; a
   * second signal does not wait. Outside a run nothing is half done: end now (after the files
   * were written, say which).
   */
  interrupt(): void {
    const again = this.controller.signal.aborted;
    this.controller.abort();
    if (this.runsInProgress > 0 && !again) return;
    if (this.options.exitNow === undefined) return;
    this.options.say(this.written.length > 0 ? `interrupted; already written: ${this.written.join(", ")}\n` : `${this.options.message}\n`);
    this.options.exitNow(CANCELLED_EXIT);
  }

  /** `checkpoint` on this run's signal. */
  checkpoint(): Promise<void> {
    return checkpoint(this.controller.signal);
  }

  /**
   * Runs `work` as a run in progress: a signal aborts `signal` and the run ends at its next
   * checkpoint or wait, instead of the process ending at once. A signal that arrived before (while
   * the session was loading) is seen at the start.
   */
  async asRunInProgress<T>(work: (cancel: AbortSignal) => Promise<T>): Promise<T> {
    this.runsInProgress++;
    try {
      await this.checkpoint();
      return await work(this.controller.signal);
    } finally {
      this.runsInProgress--;
    }
  }

  /** From now on, a signal ends the run at once and names `files`, which are complete on disk. */
  markWritten(files: readonly string[]): void {
    this.written = files;
  }
}
