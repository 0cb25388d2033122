import { isObject, stringField } from "../json.ts";
import { checkedUsage, failureFrom, jsonLines, tokenSum, unreadable } from "./output.ts";
import type { AgentEngine, AgentOutcome, AgentRunOutput } from "./types.ts";

/** Codex's words for a missing or refused login. */
const LOGGED_OUT = /not logged in|codex login|401 unauthorized|unauthorized|invalid_api_key|incorrect api key|missing bearer/i;

/**
 * The features behind the tools Codex 0.169 offers (exec_command and write_stdin, view_image,
 * multi_agent_v1, the goal tools, image generation, tool suggestions): each is switched off, and
 * so are web search, request_user_input and update_plan, which are settings. With them the
 * request offers no tool at all (observed by `bun run compat`).
 */
const FEATURES_OFF = ["shell_tool", "unified_exec", "view_image", "multi_agent", "goals", "image_generation", "tool_suggest"];
const SETTINGS_OFF = [
  'web_search="disabled"',
  "tools.experimental_request_user_input.enabled=false",
  "tools.update_plan.enabled=false",
  // Nothing of the machine, the sandbox, apps or skills in the request: only our words.
  "include_environment_context=false",
  "include_permissions_instructions=false",
  "include_apps_instructions=false",
  "skills.include_instructions=false",
  // No AGENTS.md of a project: none of its folder, and no folder above it taken for the
  // project's root (a `.git` another user made in /tmp would make one, and its AGENTS.md ours).
  "project_doc_max_bytes=0",
  "project_root_markers=[]",
];

/** The file in the scratch folder that replaces Codex's own instructions with ours. */
export const CODEX_INSTRUCTIONS_FILE = "instructions.md";

function read(output: AgentRunOutput): AgentOutcome {
  const events = jsonLines(output.stdout);
  if (events.length === 0)
    return output.exitCode === 0 ? unreadable(output, "the JSON events of codex exec --json") : failureFrom(output, "", LOGGED_OUT);
  let text: string | undefined;
  let failure: string | undefined;
  let lastError = "";
  // Summed over its turns; one turn's count we cannot trust makes the whole unknown.
  let inputTokens: number | undefined = 0;
  let outputTokens: number | undefined = 0;
  let counted = false;
  for (const event of events) {
    const item = isObject(event.item) ? event.item : undefined;
    if (event.type === "item.completed" && item?.type === "agent_message") text = stringField(item, "text") ?? text;
    // "Reconnecting… 2/5" comes as an error event too: only a failed turn is the end.
    if (event.type === "error") lastError = stringField(event, "message") ?? lastError;
    if (event.type === "turn.failed") failure = (isObject(event.error) ? stringField(event.error, "message") : undefined) ?? lastError;
    if (event.type === "turn.completed" && isObject(event.usage)) {
      counted = true;
      const turn = checkedUsage(tokenSum(event.usage, ["input_tokens"]), tokenSum(event.usage, ["output_tokens"]));
      inputTokens = turn && inputTokens !== undefined ? inputTokens + turn.inputTokens : undefined;
      outputTokens = turn && outputTokens !== undefined ? outputTokens + turn.outputTokens : undefined;
    }
  }
  if (failure !== undefined || (text === undefined && output.exitCode !== 0)) return failureFrom(output, failure ?? lastError, LOGGED_OUT);
  if (text === undefined || text.trim() === "") return { failure: "empty", message: "it finished without a message" };
  return { answer: { text, usage: counted ? checkedUsage(inputTokens, outputTokens) : undefined, model: undefined } };
}

/**
 * Codex: `codex exec` with the prompt on stdin (`-`), JSON events, nothing saved
 * (`--ephemeral`: no rollout, no row in its state database), a read-only sandbox with no
 * approvals, and its tools switched off. Its own instructions are replaced by ours, from a
 * file in the scratch folder (it has no flag for a system prompt).
 */
export const CODEX_ENGINE: AgentEngine<"codex"> = {
  name: "codex",
  label: "Codex",
  command: "codex",
  binEnv: "AGENT_CODEX_BIN",
  usesOpenAiVariables: true,
  loginHint: "run `codex login`",
  // Its models state 272,000 tokens, but it refuses a prompt over 1,048,576 characters: a
  // window our estimate (never less than characters / 4) fills well below that.
  contextWindow: 200_000,
  promptLimit: 1_048_576,
  plan(prompt, scratch) {
    const args = ["exec", "--json", "--ephemeral", "--skip-git-repo-check", "--sandbox", "read-only", "--color", "never", "--cd", scratch];
    args.push("-c", 'approval_policy="never"');
    // `-c features.<name>=false`, not `--disable <name>`: a Codex that no longer knows a name
    // ignores the setting, where `--disable` would refuse to start.
    for (const feature of FEATURES_OFF) args.push("-c", `features.${feature}=false`);
    for (const setting of SETTINGS_OFF) args.push("-c", setting);
    const files: Record<string, string> = {};
    if (prompt.system !== "") {
      files[CODEX_INSTRUCTIONS_FILE] = prompt.system;
      args.push("-c", `model_instructions_file=${JSON.stringify(`${scratch}/${CODEX_INSTRUCTIONS_FILE}`)}`);
    }
    args.push("-");
    return { args, env: {}, stdin: prompt.body, files };
  },
  read,
};
