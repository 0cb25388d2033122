import type { ChatContentPart, ChatMessage, ChatRequest, Complete } from "../llm/types.ts";
import type { Redactor } from "./redact.ts";

function redactParts(parts: ChatContentPart[], redactor: Redactor): ChatContentPart[] {
  // Image bytes are not text a secret scanner should read (and base64 makes false matches).
  return parts.map((part) => (part.type === "text" ? { type: "text", text: redactor.redact(part.text) } : part));
}

function redactMessage(message: ChatMessage, redactor: Redactor): ChatMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: redactor.redact(message.content) };
    case "user":
      return { role: "user", content: typeof message.content === "string" ? redactor.redact(message.content) : redactParts(message.content, redactor) };
    case "assistant": {
      const content = message.content === null ? null : redactor.redact(message.content);
      if (!message.tool_calls) return { role: "assistant", content };
      const calls = message.tool_calls.map((call) => ({ ...call, function: { name: call.function.name, arguments: redactor.redact(call.function.arguments) } }));
      return { role: "assistant", content, tool_calls: calls };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: redactor.redact(message.content) };
  }
}

/** The request with every text that could carry a secret passed through the redactor. */
export function redactRequest(request: ChatRequest, redactor: Redactor): ChatRequest {
  return { ...request, messages: request.messages.map((m) => redactMessage(m, redactor)) };
}

/**
 * Wraps the model port so that nothing leaves the machine unredacted and the answer comes
 * back with the originals restored: the local new session is as useful as the source.
 */
export function withRedaction(complete: Complete, redactor: Redactor): Complete {
  return async (request, options) => {
    const completion = await complete(redactRequest(request, redactor), options);
    return { ...completion, text: redactor.restore(completion.text) };
  };
}
