/**
 * Errors that `core` throws for problems a user can act on. Each has a stable `code`; the CLI maps
 * codes to exit statuses and messages in one place (cli/output/stderr.ts). Anything that is not an
 * `AgentError` is a bug and is shown as one.
 */
export type ErrorCode =
  /** A file we were pointed at is missing, a folder, or unreadable; or a path we must not write. */
  | "FILE"
  /** The input file is not a session (empty, binary, not JSON, first record not a header). */
  | "NOT_A_SESSION"
  /** A session was readable but broken in a way the user asked us not to tolerate (`--strict`). */
  | "MALFORMED_SESSION"
  /** An entry id given by the user does not exist in the session. */
  | "UNKNOWN_ENTRY"
  /** Bad command-line usage that only core can detect. */
  | "USAGE"
  /** Fewer than two messages on the branch. */
  | "NOTHING_TO_HAND_OFF"
  /** The model call, or anything after it, failed. */
  | "HANDOFF_FAILED"
  /** The run was cancelled (SIGINT/SIGTERM or an aborted signal). */
  | "CANCELLED";

export class AgentError extends Error {
  override readonly name = "AgentError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Where in a file the problem is, when it is about a file. */
    readonly location?: { file?: string; line?: number },
  ) {
    super(message);
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

/** The message of anything thrown: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
