import { errorCode, fsReason } from "../io/fs-errors.ts";
import type { PrintedFilter } from "./printed.ts";
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

/** Where the product goes: the run's stdout (`process.stdout`, or a memory stream in a test). */
export interface OutputStream {
  write(text: string, done: (error?: Error | null) => void): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
  on?(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * One run's stdout: the one way the product reaches it. `closedAtStart`: the process started with
 * stdout closed (`>&-`; see cli/process/host.ts), so writes would succeed and the product be silently lost.
 */
export class StdoutChannel {
  private readerGone = false;
  private listening = false;

  constructor(
    private readonly stream: OutputStream,
    private readonly printed: PrintedFilter,
    private readonly closedAtStart = false,
  ) {}

  /**
   * The reader closed stdout (EPIPE) before it took everything printed: what a run says about its
   * product (`-o -`: the new session) must not claim it arrived whole.
   */
  get readerLeft(): boolean {
    return this.readerGone;
  }

  get isTTY(): boolean {
    return Boolean(this.stream.isTTY);
  }

  get columns(): number | undefined {
    return this.stream.columns;
  }

  /**
   * Resolves once the OS has `text`. A reader that left (EPIPE: `| head`) has what it wanted: the
   * rest is dropped quietly and the run goes on. Any other failure rejects with a `StdoutError`
   * naming `written`.
   */
  private write(text: string, written: readonly string[]): Promise<void> {
    if (this.readerGone) return Promise.resolve();
    if (this.closedAtStart) return Promise.reject(new StdoutError(STDOUT_REASONS.EBADF ?? "EBADF", written));
    this.ignoreStreamErrorEvents();
    return new Promise((resolve, reject) => {
      this.stream.write(text, (error) => {
        if (!error) return resolve();
        const code = errorCode(error);
        if (code === "EPIPE") {
          this.readerGone = true;
          return resolve();
        }
        reject(new StdoutError(STDOUT_REASONS[code] ?? fsReason(error), written));
      });
    });
  }

  /**
   * A failed write reaches its callback and is also emitted as an `error` event; with no listener
   * for the event Bun dumps it as an uncaught error. The callback is where it is handled.
   */
  private ignoreStreamErrorEvents(): void {
    if (this.listening) return;
    this.listening = true;
    this.stream.on?.("error", () => {});
  }

  /** What a command prints for people and programs: on a terminal, without control characters; never a configured secret. */
  printText(text: string, options: { written?: readonly string[] } = {}): Promise<void> {
    return this.write(this.printed.forStdout(text, this.isTTY), options.written ?? []);
  }

  /**
   * One JSON value and a newline; characters a terminal would act on are `\u` escapes; never a
   * configured secret, except in the top-level fields `exact` names: values that name what this run
   * wrote (the new session's path, the command that resumes it), which a script runs as they are.
   * A short key that is also a word (`ollama`) in a folder's name must not change them.
   */
  printJson(value: unknown, options: { written?: readonly string[]; indent?: number; exact?: readonly string[] } = {}): Promise<void> {
    const exact = options.exact ?? [];
    const forJson = (item: unknown) => this.printed.forJson(item);
    const cleared =
      exact.length > 0 && typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, exact.includes(key) ? item : forJson(item)]))
        : forJson(value);
    return this.write(`${stringifyForTerminal(cleared, options.indent)}\n`, options.written ?? []);
  }

  /**
   * Our own text (help, version), which may carry our own colours. It quotes nothing from a
   * session, an endpoint, the environment or the flags, so there is nothing to withhold, and a
   * short key that is also a word (`ollama`) must not blank the help's own words.
   */
  printOwnText(text: string): Promise<void> {
    return this.write(text, []);
  }
}
