import { isObject, type JsonObject } from "../json.ts";
import type { AgentOutcome, AgentRunOutput } from "./types.ts";

/** What every engine's reader shares: JSON lines, short messages, the failure it reports. */

/** The longest agent message we quote: enough for an error, never a whole answer. */
export const MESSAGE_LIMIT = 300;

/** One line, at most `MESSAGE_LIMIT` characters: an agent's message as we quote it. */
export function shortMessage(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT)}…` : line;
}

/** The JSON objects among the lines of `text`; a line that is not one is skipped. */
export function jsonLines(text: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isObject(value)) out.push(value);
    } catch {
      // A line of something else (a warning the agent printed on stdout): not an event.
    }
  }
  return out;
}

/** The last non-empty line of stderr, where agents put the reason they stopped. */
export function lastStderrLine(output: AgentRunOutput): string {
  const lines = output.stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines.at(-1) ?? "";
}

/**
 * A run that gave no answer: logged out when the agent's words say so (`loggedOut` tests
 * them), else failed with its message (or, with none, its exit status).
 */
export function failureFrom(output: AgentRunOutput, message: string, loggedOut: RegExp): AgentOutcome {
  const said = shortMessage(message || lastStderrLine(output));
  if (loggedOut.test(`${message}\n${output.stderr}`)) return { failure: "logged-out", message: said };
  // pi and omp report a failed request in their JSON and still exit 0.
  const how = output.exitCode === null ? `ended by ${output.signal ?? "a signal"}` : output.exitCode === 0 ? "its request failed" : `exit ${output.exitCode}`;
  return { failure: "failed", message: said ? `${how}: ${said}` : `${how}, no message` };
}

/** The start of output that is not what the mode prints, for the message about it. */
export function unreadable(output: AgentRunOutput, expected: string): AgentOutcome {
  const start = shortMessage(output.stdout).slice(0, 80);
  if (start === "") return { failure: "empty", message: "it exited 0 and printed nothing" };
  return { failure: "unreadable", message: `expected ${expected}, got "${start}"` };
}
