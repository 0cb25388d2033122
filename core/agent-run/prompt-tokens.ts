import { renderAgentPrompt } from "../handoff/agent-prompt.ts";
import type { ChatRequest } from "../llm/types.ts";
import { estimateTextQuarters } from "../session/tokens.ts";
import type { AgentEngine } from "./types.ts";

/**
 * Our estimate of what one run of an agent engine is given for a request: the prompt on its
 * stdin, the files written for it (Codex's instructions) and its arguments, which may carry the
 * system prompt. This, not the chat request it was made from, is what the agent sends its model
 * (the transcript is longer than the messages it was made from), and what the plan and
 * `--max-input-tokens` count. The agent's own instructions come on top, unknown to us.
 */
export function estimateAgentRunTokens(engine: AgentEngine, request: ChatRequest): number {
  // The folder it runs in is counted as `.`: its path is not known yet, and it is not sent to the model.
  const plan = engine.plan(renderAgentPrompt(request), ".");
  let quarters = estimateTextQuarters(plan.stdin) + estimateTextQuarters(plan.args.join(" "));
  for (const text of Object.values(plan.files ?? {})) quarters += estimateTextQuarters(text);
  return Math.ceil(quarters / 4);
}
