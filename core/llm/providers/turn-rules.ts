import type { ChatMessage } from "../types.ts";

/**
 * Rules some endpoints impose on the order and shape of the turns, applied to the messages of a
 * request as the profile documents them (shape.ts) or as a refusal teaches them (adapt.ts).
 */

/** What the short assistant turn says: only that the results above were read. */
export const BRIDGE_TEXT = "(Tool results received.)";

/**
 * A short assistant turn between a tool result and a user turn right after it. Mistral (and
 * servers that validate with mistral-common) allow only an assistant or another tool turn after
 * a tool turn: "Unexpected role 'user' after role 'tool'" (avante-corp/avante.nvim#2562,
 * mistralai/mistral-common#169). A session that ends on a tool result, or a user who spoke
 * right after one, meets it: our instruction is always a final user turn.
 */
export function withAssistantAfterTools(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const [i, message] of messages.entries()) {
    if (message.role === "user" && messages[i - 1]?.role === "tool") out.push({ role: "assistant", content: BRIDGE_TEXT });
    out.push(message);
  }
  return out;
}

/**
 * Every earlier assistant turn with a `reasoning_content`. DeepSeek's thinking mode wants the
 * reasoning of each turn that called tools passed back, and refuses the request without it:
 * "The reasoning_content in the thinking mode must be passed back to the API."
 * (https://api-docs.deepseek.com/guides/thinking_mode; anomalyco/opencode#24722). The turns of a
 * session were written by whichever model ran it, so there is no reasoning to give back: an empty
 * one says so (anomalyco/opencode#17523 sends the same). On turns without tool calls the docs
 * say it is ignored.
 */
export function withReasoningPassedBack(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => (m.role === "assistant" && m.reasoning_content === undefined ? { ...m, reasoning_content: "" } : m));
}
