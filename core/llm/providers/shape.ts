import type { ChatMessage, ChatRequest } from "../types.ts";
import { isReasoningModel, type ProviderProfile } from "./profile.ts";
import { withAssistantAfterTools, withReasoningPassedBack } from "./turn-rules.ts";

/** The reasoning room reasoning models get on top of what the answer may take, at most. */
const REASONING_ROOM_LOW_EFFORT = 8192;
/** …and when the provider documents no way to ask for less reasoning (DeepSeek-R1's CoT reached 32K). */
const REASONING_ROOM = 16_384;

/**
 * Tokens a reasoning model may spend thinking, added to every output limit we send it (and kept
 * free in the window), so a note or a document is not cut to nothing by the reasoning before it:
 * for reasoning models the limit counts both (OpenAI: "visible output tokens and reasoning
 * tokens"; DeepSeek: "including the CoT"). At most a quarter of the window; 0 for other models.
 */
export function reasoningAllowance(profile: ProviderProfile, model: string, contextWindow: number): number {
  if (!isReasoningModel(profile, model)) return 0;
  const room = asksLowEffort(profile, model) ? REASONING_ROOM_LOW_EFFORT : REASONING_ROOM;
  return Math.min(room, Math.floor(contextWindow / 4));
}

function asksLowEffort(profile: ProviderProfile, model: string): boolean {
  return isReasoningModel(profile, model) && profile.lowEffort !== undefined && (profile.lowEffort.models?.test(model) ?? true);
}

function withInstructionsRole(messages: readonly ChatMessage[], role: "system" | "developer"): ChatMessage[] {
  return messages.map((m) => (m.role === "system" || m.role === "developer" ? { role, content: m.content } : m));
}

/**
 * A request as `profile` documents it for the request's model: the output limit under the
 * field it takes, `stream_options` left out where refused or pointless, `tool_choice: "none"`
 * left out where refused, instructions in the `developer` role where reasoning models want it,
 * low reasoning effort where the provider documents a way to ask, and the turns in the order and
 * shape the provider requires (turns.ts). Nothing else changes.
 */
export function shapeRequest(request: ChatRequest, profile: ProviderProfile): ChatRequest {
  const reasoning = isReasoningModel(profile, request.model);
  const shaped: ChatRequest = { ...request };
  if (request.max_tokens !== undefined) {
    const field = reasoning ? (profile.reasoningOutputLimit ?? profile.outputLimit) : profile.outputLimit;
    delete shaped.max_tokens;
    shaped[field] = request.max_tokens;
  }
  if (!profile.streamOptions) delete shaped.stream_options;
  if (request.tool_choice === "none" && !profile.toolChoiceNone) delete shaped.tool_choice;
  if (reasoning && profile.reasoningInstructionsRole === "developer") shaped.messages = withInstructionsRole(request.messages, "developer");
  if (asksLowEffort(profile, request.model) && profile.lowEffort) {
    if (profile.lowEffort.field === "reasoning_effort") shaped.reasoning_effort = profile.lowEffort.value;
    else shaped.reasoning = { effort: profile.lowEffort.value };
  }
  if (profile.refusesUserAfterTool) shaped.messages = withAssistantAfterTools(shaped.messages);
  if (reasoning && profile.wantsReasoningBack) shaped.messages = withReasoningPassedBack(shaped.messages);
  return shaped;
}
