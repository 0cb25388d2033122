import { isObject, type JsonObject } from "../json.ts";
import type { AgentPrompt } from "../handoff/agent-prompt.ts";
import type { AgentOutcome, AgentRunOutput } from "./types.ts";

/** What every engine's reader shares: JSON lines, short messages, the failure it reports. */

/** The longest agent message we quote: enough for an error, never a whole answer. The CLI cuts to it when it prints (after what is secret in the whole message is gone). */
export const MESSAGE_LIMIT = 300;

/**
 * An agent's message as we quote it: one line, whole. Never cut here: a cut made before the key
 * and likely secrets are withheld would print their start. Only a message far past what is ever
 * shown loses its end (an answer printed to stderr), where no shown character can be.
 */
export function shortMessage(text: string): string {
  return text
    .slice(0, 64 * MESSAGE_LIMIT)
    .replace(/\s+/g, " ")
    .trim();
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

/**
 * The first non-empty line of stderr: the agents put the reason they stopped there, and what
 * follows is help (pi's and omp's "Use /login…" and the paths of their docs).
 */
export function firstStderrLine(output: AgentRunOutput): string {
  return (
    output.stderr
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? ""
  );
}

/**
 * A run that gave no answer: logged out when the agent's words say so (`loggedOut` tests
 * them), else failed with its message (or, with none, its exit status).
 */
export function failureFrom(output: AgentRunOutput, message: string, loggedOut: RegExp): AgentOutcome {
  const said = shortMessage(message || firstStderrLine(output));
  if (loggedOut.test(`${message}\n${output.stderr}`)) return { failure: "logged-out", message: said };
  // pi and omp report a failed request in their JSON and still exit 0.
  const how =
    output.exitCode === null
      ? `ended by ${output.signal ?? "a signal"}`
      : output.exitCode === 0
        ? "its request failed"
        : `exit ${output.exitCode}`;
  return { failure: "failed", message: said ? `${how}: ${said}` : `${how}, no message` };
}

/** The start of output that is not what the mode prints, for the message about it. */
export function unreadable(output: AgentRunOutput, expected: string): AgentOutcome {
  const start = shortMessage(output.stdout.slice(0, 64 * MESSAGE_LIMIT));
  if (start === "") {
    const said = shortMessage(firstStderrLine(output));
    return {
      failure: "empty",
      message: said === "" ? "it exited 0 and printed nothing" : `it exited 0 and printed nothing on stdout; on stderr: ${said}`,
    };
  }
  return { failure: "unreadable", message: `expected ${expected}, got "${start}"` };
}

/**
 * Where the system prompt goes for an agent with a `--system-prompt` flag: there, unless it is
 * too long for one argument (Linux takes 128 KiB; a long `--system-prompt-file`), then at the
 * top of the prompt on stdin (the agent then keeps its own system prompt, but has no tools).
 */
export const SYSTEM_ARG_LIMIT = 64 * 1024;

export function systemPromptPlacement(prompt: AgentPrompt, flag: string): { args: string[]; stdin: string } {
  if (prompt.system === "") return { args: [], stdin: prompt.body };
  if (prompt.system.length <= SYSTEM_ARG_LIMIT) return { args: [flag, prompt.system], stdin: prompt.body };
  return { args: [], stdin: `${prompt.system}\n\n${prompt.body}` };
}

// Token counts follow the one rule every engine shares (core/llm/usage.ts).
export { checkedUsage, tokenSum } from "../llm/usage.ts";
