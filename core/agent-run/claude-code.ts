import { isObject, numberField, stringField, type JsonObject } from "../json.ts";
import { failureFrom, jsonLines, systemPromptPlacement, unreadable } from "./output.ts";
import type { AgentEngine, AgentOutcome, AgentRunOutput } from "./types.ts";

/** Claude Code's words for a missing or refused login (`claude -p` prints them as the result). */
const LOGGED_OUT =
  /not logged in|please run \/login|failed to authenticate|invalid api key|authentication_error|oauth token (has )?expired/i;

function total(usage: JsonObject, keys: readonly string[]): number {
  return keys.reduce((sum, key) => sum + (numberField(usage, key) ?? 0), 0);
}

function read(output: AgentRunOutput): AgentOutcome {
  const result = jsonLines(output.stdout).findLast((event) => event.type === "result");
  if (result === undefined)
    return output.exitCode === 0 ? unreadable(output, "the JSON result of --output-format json") : failureFrom(output, "", LOGGED_OUT);
  const text = stringField(result, "result") ?? "";
  if (result.is_error === true || (result.subtype !== undefined && result.subtype !== "success")) {
    return failureFrom(output, text || stringField(result, "subtype") || "", LOGGED_OUT);
  }
  if (text.trim() === "") return { failure: "empty", message: "its result was empty" };
  const usage = isObject(result.usage)
    ? {
        // Cached input is input all the same: the window and the bill count it.
        inputTokens: total(result.usage, ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]),
        outputTokens: total(result.usage, ["output_tokens"]),
      }
    : undefined;
  const model = isObject(result.modelUsage) ? Object.keys(result.modelUsage)[0] : undefined;
  return { answer: { text, usage, model } };
}

/**
 * Claude Code: `claude -p` with the prompt on stdin, one JSON result, no tools at all
 * (`--tools ""`: the request offers none), nothing that could ask for a permission, no MCP
 * servers or slash commands, our system prompt instead of its own (several KB about tools and
 * the machine; `--system-prompt` replaces it), and nothing saved
 * (`--no-session-persistence`): no session lands in the user's history.
 */
export const CLAUDE_CODE_ENGINE: AgentEngine = {
  name: "claude-code",
  label: "Claude Code",
  command: "claude",
  binEnv: "AGENT_CLAUDE_CODE_BIN",
  loginHint: "run `claude` once and log in",
  contextWindow: 200_000,
  plan(prompt) {
    const args = [
      "-p",
      "--output-format",
      "json",
      "--no-session-persistence",
      "--tools",
      "",
      "--permission-mode",
      "dontAsk",
      "--strict-mcp-config",
      "--disable-slash-commands",
    ];
    const placed = systemPromptPlacement(prompt, "--system-prompt");
    args.push(...placed.args);
    // Claude Code retries a refused login for minutes; a couple of tries is plenty for a handoff.
    // No self-update, telemetry or error reports on a handoff's behalf: only the model request leaves.
    return {
      args,
      env: { CLAUDE_CODE_MAX_RETRIES: "2", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1" },
      stdin: placed.stdin,
    };
  },
  read,
};
