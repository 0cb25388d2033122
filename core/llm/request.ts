import type { ContextMessage } from "../session/messages.ts";
import { chatMessagesAndTools } from "./messages.ts";
import type { ChatMessage, ChatRequest } from "./types.ts";

export interface RequestInput {
  model: string;
  systemPrompt: string;
  context: readonly ContextMessage[];
  /** The final user turn: what we ask of the model. */
  instruction: string;
  /** Extra turns after the context and before the instruction (a repair request uses this). */
  extraMessages?: ChatMessage[];
  toolChoice?: "none" | "auto";
  maxOutputTokens?: number;
}

/** The exact Chat Completions body for one request: streamed, with usage. */
export function buildRequest(input: RequestInput): ChatRequest {
  const { messages, tools } = chatMessagesAndTools([{ role: "system", content: input.systemPrompt }], input.context);
  for (const extra of input.extraMessages ?? []) messages.push(extra);
  messages.push({ role: "user", content: input.instruction });
  const request: ChatRequest = { model: input.model, messages, stream: true, stream_options: { include_usage: true } };
  if (tools.length > 0) {
    request.tools = tools;
    request.tool_choice = input.toolChoice ?? "none";
  }
  if (input.maxOutputTokens !== undefined) request.max_tokens = input.maxOutputTokens;
  return request;
}
