import { statSync } from "node:fs";
// consola/core: the logger without its default reporters, which we replace anyway and which
// take most of consola's load time.
import { createConsola, type ConsolaInstance, type LogObject } from "consola/core";
import { isAgentError, type ErrorCode } from "../../core/index.ts";
import { CancelledError } from "../process/cancel.ts";
import { StdoutError, type OutputStream } from "./stdout.ts";
import { FailureWithCommand } from "./paste-line.ts";
import { CommandLineError } from "../flags/usage.ts";
import { PasteLine, type PrintedFilter, type Said } from "./printed.ts";

/** Exit statuses, as documented in the README and spec/handoff.md. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  nothingToHandOff: 3,
  cancelled: 130,
} as const;

const EXIT_BY_CODE: Record<ErrorCode, number> = {
  FILE: EXIT.usage,
  NOT_A_SESSION: EXIT.usage,
  MALFORMED_SESSION: EXIT.usage,
  UNKNOWN_ENTRY: EXIT.usage,
  USAGE: EXIT.usage,
  NOTHING_TO_HAND_OFF: EXIT.nothingToHandOff,
  HANDOFF_FAILED: EXIT.failed,
  CANCELLED: EXIT.cancelled,
};

export interface LoggerOptions {
  quiet?: boolean;
  verbose?: boolean;
}

/** True when stderr is a terminal a person watches (not CI, not NO_COLOR-style plain output). */
export function isInteractive(
  stderr: { readonly isTTY?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return Boolean(stderr.isTTY) && !env.CI && !env.NO_COLOR && env.TERM !== "dumb";
}

/** consola's level for debug lines: what `--verbose` turns on. */
const VERBOSE_LEVEL = 4;

/** Tag for messages whose exact text the spec fixes. */
const VERBATIM = "verbatim";

const PREFIX: Partial<Record<string, string>> = {
  warn: "warning: ",
  error: "error: ",
  fatal: "error: ",
  debug: "debug: ",
  trace: "trace: ",
};

/**
 * Our messages are strings, and commands to paste kept as they are for the boundary (see
 * PasteLine), joined by spaces; node:util's formatter would cost ~15 ms of start-up to load.
 */
function formatArgs(args: readonly unknown[]): Said[] {
  return args.flatMap((arg, i): Said[] => {
    const part =
      typeof arg === "string" || arg instanceof PasteLine ? arg : arg instanceof Error ? (arg.stack ?? arg.message) : JSON.stringify(arg);
    return i === 0 ? [part] : [" ", part];
  });
}

/**
 * One run's stderr. Writes come what may: with stderr gone (a closed pipe, a hung-up terminal)
 * there is nobody to tell, and the failure must not turn into an uncaught error of its own.
 */
export class StderrChannel {
  private listening = false;
  private pending = 0;
  private waiters: (() => void)[] = [];

  constructor(
    readonly stream: OutputStream,
    private readonly printed: PrintedFilter,
  ) {}

  /**
   * `text` is for people: it passes the output boundary (no controls, nothing withheld); `lead`
   * is our own (a coloured prefix) and goes as it is.
   */
  write(text: string | readonly Said[], lead = ""): void {
    if (!this.listening) {
      this.listening = true;
      this.stream.on?.("error", () => {});
    }
    this.pending++;
    const done = () => this.writeDone();
    try {
      this.stream.write(lead + (typeof text === "string" ? this.printed.forPeople(text) : this.printed.forPeopleSaid(text)), done);
    } catch {
      // Nowhere left to report it.
      done();
    }
  }

  /** Our own bytes, as they are (a status line's escapes): nothing from outside is in them. */
  writeOwn(text: string): void {
    try {
      this.stream.write(text, () => {});
    } catch {
      // Nowhere left to report it.
    }
  }

  private writeDone(): void {
    this.pending--;
    if (this.pending > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Resolves once every message written so far has reached stderr (or `limitMs` passed): a pipe
   * takes what it can at once and Bun writes the rest later, which a process about to be
   * replaced (`--exec`) would lose.
   */
  written(limitMs = 2000): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * The one logger: everything for humans goes to stderr, one plain line per message, so stdout
 * carries only the product. `--quiet` keeps warnings and errors; `--verbose` adds debug lines.
 */
export function createLogger(stderr: StderrChannel, colour: boolean, options: LoggerOptions = {}): ConsolaInstance {
  return createConsola({
    level: options.quiet ? 1 : options.verbose ? VERBOSE_LEVEL : 3,
    throttle: 0,
    reporters: [
      {
        log(entry: LogObject) {
          // Messages quote sessions, endpoints and paths: writeStderr makes them safe to show.
          const text = formatArgs(entry.args);
          // The spec's own messages ("Handoff failed: …") are printed exactly, without a prefix.
          const prefix = entry.tag === VERBATIM ? "" : (PREFIX[entry.type] ?? "");
          const painted = colour && prefix ? `\x1b[${entry.level <= 0 ? 31 : 33}m${prefix}\x1b[0m` : prefix;
          stderr.write([...text, "\n"], painted);
        },
      },
    ],
  });
}

/**
 * The exit-code boundary: maps expected errors to one message and a status, and shows
 * anything else as the bug it is. Commands return the status; nothing calls `process.exit`.
 */
export function reportError(error: unknown, logger: ConsolaInstance, cancelled = "Cancelled"): number {
  if (isAgentError(error)) {
    const status = EXIT_BY_CODE[error.code];
    const exact = logger.withTag(VERBATIM);
    // A command to paste in it stays a part of its own (see PasteLine).
    const [lead, command]: [string, Said[]] =
      error instanceof FailureWithCommand
        ? [error.lead, [error.command]]
        : error instanceof CommandLineError
          ? [error.problem, error.after]
          : [error.message, []];
    if (error.code === "HANDOFF_FAILED") exact.error(`Handoff failed: ${lead}`, ...command);
    else if (error.code === "CANCELLED") exact.error("Handoff cancelled");
    else if (error.code === "NOTHING_TO_HAND_OFF") exact.warn(error.message);
    else logger.error(lead, ...command);
    return status;
  }
  if (error instanceof CancelledError) {
    logger.withTag(VERBATIM).error(cancelled);
    return EXIT.cancelled;
  }
  if (error instanceof StdoutError) {
    logger.error(`${error.message}${error.written.length > 0 ? `; already written: ${error.written.join(", ")}` : ""}`);
    return EXIT.failed;
  }
  if (isGoneCwd(error)) {
    logger.error(
      "the current folder no longer exists (it was deleted or moved); cd to one that does, or name the session by its absolute path",
    );
    return EXIT.usage;
  }
  logger.error(describeBug(error, logger.level >= VERBOSE_LEVEL));
  return EXIT.failed;
}

/** What is thrown wherever the current folder is needed (its real path, a relative path) once it was removed. */
export class GoneCwdError extends Error {
  override readonly name = "GoneCwdError";
}

function isGoneCwd(error: unknown): boolean {
  return error instanceof GoneCwdError || (error instanceof Error && "syscall" in error && error.syscall === "uv_cwd");
}

/** The run's current folder; undefined once it was removed (for what is said after the files are written). */
export function currentFolderIfAny(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? cwd : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A bug, in one line a user can quote in a report; with `--verbose`, its stack too. Recognisable
 * as a bug either way: it says so.
 */
export function describeBug(error: unknown, withStack: boolean): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const firstLine = message.split("\n", 1)[0] ?? "";
  if (withStack && error instanceof Error && error.stack) return `unexpected internal error (please report it): ${error.stack}`;
  return `unexpected internal error (please report it): ${firstLine}${withStack ? "" : " (run with --verbose for the stack)"}`;
}
