import { AgentError } from "../../errors.ts";

/** The one error for a file that is not a session we read, naming the file (and line). */
export function notASession(file: string, why: string, line?: number): AgentError {
  return new AgentError("NOT_A_SESSION", `${file}${line ? `:${line}` : ""}: not a session: ${why}`, { file, line });
}

/**
 * Whether a file's first lines (that are not JSON) are binary data rather than broken JSON:
 * control characters, or bytes that are not UTF-8 (decoded as U+FFFD). The second line counts
 * too: binary formats often start with a short text-like signature and a line break.
 */
export function looksBinary(firstLines: readonly string[]): boolean {
  const start = firstLines
    .slice(0, 2)
    .map((text) => text.slice(0, 1024))
    .join("\n");
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(start);
}
