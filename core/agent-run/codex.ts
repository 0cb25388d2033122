import { isObject, numberField, stringField } from "../json.ts";
import { failureFrom, jsonLines, unreadable } from "./output.ts";
import type { AgentEngine, AgentOutcome, AgentRunOutput } from "./types.ts";

/** Codex's words for a missing or refused login. */
const LOGGED_OUT = /not logged in|codex login|401 unauthorized|unauthorized|invalid_api_key|incorrect api key|missing bearer/i;

/** The tools Codex offers unless told not to (`codex features list`): each is switched off. */
const FEATURES_OFF = ["shell_tool", "apps", "view_image", "image_generation", "computer_use", "browser_use", "in_app_browser", "multi_agent", "tool_suggest", "sleep_tool"];

function read(output: AgentRunOutput): AgentOutcome {
  const events = jsonLines(output.stdout);
  if (events.length === 0) return output.exitCode === 0 ? unreadable(output, "the JSON events of codex exec --json") : failureFrom(output, "", LOGGED_OUT);
  let text: string | undefined;
  let failure: string | undefined;
  let lastError = "";
  let inputTokens = 0;
  let outputTokens = 0;
  let counted = false;
  for (const event of events) {
    const item = isObject(event.item) ? event.item : undefined;
    if (event.type === "item.completed" && item?.type === "agent_message") text = stringField(item, "text") ?? text;
    // "Reconnecting… 2/5" comes as an error event too: only a failed turn is the end.
    if (event.type === "error") lastError = stringField(event, "message") ?? lastError;
    if (event.type === "turn.failed") failure = (isObject(event.error) ? stringField(event.error, "message") : undefined) ?? lastError;
    if (event.type === "turn.completed" && isObject(event.usage)) {
      counted = true;
      inputTokens += numberField(event.usage, "input_tokens") ?? 0;
      outputTokens += numberField(event.usage, "output_tokens") ?? 0;
    }
  }
  if (failure !== undefined || (text === undefined && output.exitCode !== 0)) return failureFrom(output, failure ?? lastError, LOGGED_OUT);
  if (text === undefined || text.trim() === "") return { failure: "empty", message: "it finished without a message" };
  return { answer: { text, usage: counted ? { inputTokens, outputTokens } : undefined, model: undefined } };
}

/**
 * Codex: `codex exec` with the prompt on stdin (`-`), JSON events, nothing saved
 * (`--ephemeral`), a read-only sandbox with no approvals, and its tools switched off. It has
 * no flag for the system prompt: ours opens the prompt.
 */
export const CODEX_ENGINE: AgentEngine = {
  name: "codex",
  label: "Codex",
  command: "codex",
  binEnv: "AGENT_CODEX_BIN",
  loginHint: "run `codex login`",
  contextWindow: 272_000,
  plan(prompt, scratch) {
    const args = ["exec", "--json", "--ephemeral", "--skip-git-repo-check", "--sandbox", "read-only", "--color", "never", "--cd", scratch];
    args.push("-c", 'approval_policy="never"', "-c", 'web_search="disabled"');
    for (const feature of FEATURES_OFF) args.push("--disable", feature);
    args.push("-");
    const stdin = prompt.system === "" ? prompt.body : `${prompt.system}\n\n${prompt.body}`;
    return { args, env: {}, stdin };
  },
  read,
};
