import { isObject, numberField, stringField, type JsonObject } from "../json.ts";
import { checkedUsage, failureFrom, jsonLines, systemPromptPlacement, tokenSum, unreadable } from "./output.ts";
import type { AgentEngine, AgentOutcome, AgentRunOutput } from "./types.ts";

/** Claude Code's words for a missing or refused login (`claude -p` prints them as the result). */
const LOGGED_OUT =
  /not logged in|please run \/login|failed to authenticate|invalid api key|authentication_error|oauth token (has )?expired/i;

function read(output: AgentRunOutput): AgentOutcome {
  const result = jsonLines(output.stdout).findLast((event) => event.type === "result");
  if (result === undefined)
    return output.exitCode === 0 ? unreadable(output, "the JSON result of --output-format json") : failureFrom(output, "", LOGGED_OUT);
  const text = stringField(result, "result") ?? "";
  if (result.is_error === true || (result.subtype !== undefined && result.subtype !== "success")) {
    return failureFrom(output, text || stringField(result, "subtype") || "", LOGGED_OUT);
  }
  if (text.trim() === "") return { failure: "empty", message: "its result was empty" };
  // Cached input is input all the same: the window and the bill count it.
  const usage = isObject(result.usage)
    ? checkedUsage(
        tokenSum(result.usage, ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]),
        tokenSum(result.usage, ["output_tokens"]),
      )
    : undefined;
  const model = isObject(result.modelUsage) ? answeringModel(result.modelUsage) : undefined;
  // The API's own stop reason, passed through.
  const cutShort = result.stop_reason === "max_tokens";
  return { answer: { text, usage, model, cutShort } };
}

/**
 * The model that wrote the answer: `modelUsage` lists every model the run called, side models
 * too (a small one for a title or a check), so the one with the most output tokens, not the first.
 */
function answeringModel(modelUsage: JsonObject): string | undefined {
  let best: { model: string; output: number } | undefined;
  for (const [model, usage] of Object.entries(modelUsage)) {
    const output = isObject(usage) ? (numberField(usage, "outputTokens") ?? 0) : 0;
    if (best === undefined || output > best.output) best = { model, output };
  }
  return best?.model;
}

/**
 * What Claude Code reads on its own although it runs with no tools: every `@path` in the prompt
 * (it sends the file, or lists the folder), and the CLAUDE.md, CLAUDE.local.md and
 * .claude/rules of its folder and of every folder above it up to `/` (a `$TMPDIR/CLAUDE.md`
 * another user left would steer the document), and the user's own. Its switches turn both off
 * (read in its code, proven by `bun run compat`); the prompt is made inert anyway.
 */
const READS_NOTHING = { CLAUDE_CODE_DISABLE_FILE_MENTIONS: "1", CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1" };

/**
 * Claude Code: `claude -p` with the prompt on stdin, one JSON result, no tools at all
 * (`--tools ""`: the request offers none), nothing that could ask for a permission, no MCP
 * servers or slash commands, no file read for an `@` or as instructions, our system prompt
 * instead of its own (several KB about tools and the machine; `--system-prompt` replaces it),
 * and nothing saved (`--no-session-persistence`): no session lands in the user's history.
 */
export const CLAUDE_CODE_ENGINE: AgentEngine<"claude-code"> = {
  name: "claude-code",
  label: "Claude Code",
  command: "claude",
  binEnv: "AGENT_CLAUDE_CODE_BIN",
  usesOpenAiVariables: false,
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
      env: { CLAUDE_CODE_MAX_RETRIES: "2", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1", ...READS_NOTHING },
      stdin: placed.stdin,
    };
  },
  read,
};
