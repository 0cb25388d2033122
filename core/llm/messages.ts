import type { ContextMessage, UserBlock } from "../session/messages.ts";
import type { ChatContentPart, ChatMessage, ChatTool, ChatToolCall } from "./types.ts";

function userContent(blocks: readonly UserBlock[]): string | ChatContentPart[] {
  // One pass for the common all-text message: no intermediate arrays.
  let text = "";
  let i = 0;
  for (const b of blocks) {
    if (b.type !== "text") break;
    text = i++ === 0 ? b.text : `${text}\n${b.text}`;
  }
  if (i === blocks.length) return text;
  return blocks.map(
    (b): ChatContentPart =>
      b.type === "text" ? { type: "text", text: b.text } : { type: "image_url", image_url: { url: `data:${b.mimeType};base64,${b.data}` } },
  );
}

/** Tool messages carry text only in Chat Completions; an image becomes a short note. */
function toolContent(blocks: readonly UserBlock[]): string {
  let text = "";
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as UserBlock;
    const part = b.type === "text" ? b.text : `[image: ${b.mimeType}]`;
    text = i === 0 ? part : `${text}\n${part}`;
  }
  return text || "(no output)";
}

/**
 * A tool's name as Chat Completions accepts it (`^[A-Za-z0-9_-]{1,64}$`): other characters become
 * `_`. Sessions from other tools, and redacted names (`[REDACTED:…]`), may have any.
 */
export function chatToolName(name: string): string {
  // Nearly every name is already valid: one test, no new string.
  if (VALID_TOOL_NAME.test(name)) return name;
  return name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "tool";
}

const VALID_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Calls one request can number in `call` + 5 base-36 digits (60 million; a request holds far fewer). */
const SHORT_ID_LIMIT = 36 ** 5;

/**
 * The id of the `n`th tool call of a request (from 1), in the strictest form any provider
 * documents: exactly 9 letters and digits. Mistral refuses anything else ("Tool call id was
 * call_1 but must be a-z, A-Z, 0-9, with a length of 9." — langchain-ai/langchain#24668,
 * jackmpcollins/magentic#276, anomalyco/opencode#1680), and so do servers that validate with
 * mistral-common (vLLM serving a Mistral model); everyone else takes any string. Past the
 * limit, 9 upper-case base-36 digits, which no `call…` id can equal.
 */
export function chatCallId(n: number): string {
  return n < SHORT_ID_LIMIT ? `call${n.toString(36).padStart(5, "0")}` : n.toString(36).toUpperCase().padStart(9, "0");
}

/**
 * Short ids for the tool calls of one request, in order of appearance (`chatCallId`): a
 * session's own ids can be long, provider-specific, or carry text that must not leave. A call
 * and its result get the same id.
 */
function createCallIds(): (id: string) => string {
  const ids = new Map<string, string>();
  return (id) => {
    let short = ids.get(id);
    if (short === undefined) {
      short = chatCallId(ids.size + 1);
      ids.set(id, short);
    }
    return short;
  };
}

function toChatMessage(message: ContextMessage, callId: (id: string) => string, toolNames: Set<string> | undefined): ChatMessage {
  switch (message.role) {
    case "user":
      // Wrappers and developer messages go as user turns: every compatible endpoint accepts them.
      return { role: "user", content: userContent(message.content) };
    case "assistant": {
      // One pass over the blocks: the text joined by line breaks, the calls in order.
      let text = "";
      let texts = 0;
      const calls: ChatToolCall[] = [];
      for (const b of message.content) {
        if (b.type === "text") text = texts++ === 0 ? b.text : `${text}\n${b.text}`;
        else if (b.type === "toolCall") {
          const name = chatToolName(b.name);
          toolNames?.add(name);
          calls.push({ id: callId(b.id), type: "function", function: { name, arguments: JSON.stringify(b.arguments ?? {}) } });
        }
      }
      return calls.length > 0 ? { role: "assistant", content: text || null, tool_calls: calls } : { role: "assistant", content: text };
    }
    case "toolResult":
      return { role: "tool", tool_call_id: callId(message.toolCallId), content: toolContent(message.content) };
  }
}

/**
 * Context → chat messages. Chat Completions wants an assistant's tool calls answered right
 * after it, so a message that sits between a call and its result in the session (a user's
 * own command, say) is moved to just after the last result.
 */
export function toChatMessages(context: readonly ContextMessage[]): ChatMessage[] {
  return appendChatMessages([], context, undefined);
}

/**
 * The chat messages of a context after `out`'s own (`toChatMessages`), and the tools to declare
 * for them (`stubTools`), in one pass over the context: a second walk over a context of
 * thousands of messages, in code that runs once a process (still interpreted), cost as much again.
 */
export function chatMessagesAndTools(
  out: ChatMessage[],
  context: readonly ContextMessage[],
): { messages: ChatMessage[]; tools: ChatTool[] } {
  const names = new Set<string>();
  const messages = appendChatMessages(out, context, names);
  return { messages, tools: declaredTools(names) };
}

function appendChatMessages(out: ChatMessage[], context: readonly ContextMessage[], toolNames: Set<string> | undefined): ChatMessage[] {
  const pending = new Set<string>();
  let deferred: ChatMessage[] = [];
  const callId = createCallIds();
  for (const message of context) {
    const chat = toChatMessage(message, callId, toolNames);
    if (message.role === "toolResult") {
      out.push(chat);
      pending.delete(message.toolCallId);
      if (pending.size === 0 && deferred.length > 0) {
        for (const held of deferred) out.push(held);
        deferred = [];
      }
      continue;
    }
    if (pending.size > 0) {
      deferred.push(chat);
      continue;
    }
    out.push(chat);
    if (message.role === "assistant") for (const b of message.content) if (b.type === "toolCall") pending.add(b.id);
  }
  // A loop, not push(...): spreading a huge array overflows the call stack.
  for (const held of deferred) out.push(held);
  return out;
}

/**
 * Tool definitions for the tools the history used. Endpoints reject tool calls in the
 * history when no such tool is declared; we declare them (with no parameters we promise)
 * and forbid their use with `tool_choice: "none"`. The schema says only what every provider
 * accepts: Gemini refuses `additionalProperties` in a declaration ("Invalid JSON payload
 * received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[0].parameters'",
 * BerriAI/litellm#14330, mem0ai/mem0#1820), and an object schema allows other properties anyway.
 */
export function stubTools(context: readonly ContextMessage[]): ChatTool[] {
  const names = new Set<string>();
  for (const message of context) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "toolCall") names.add(chatToolName(block.name));
  }
  return declaredTools(names);
}

function declaredTools(names: ReadonlySet<string>): ChatTool[] {
  return [...names].sort().map((name) => ({
    type: "function",
    function: {
      name,
      description: "A tool the session used earlier. It cannot be called now.",
      parameters: { type: "object", properties: {} },
    },
  }));
}
