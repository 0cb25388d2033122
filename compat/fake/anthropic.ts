/** Anthropic Messages (`POST …/v1/messages`), streamed with named events as Anthropic streams it. */
import { nextId, requestedModel, sseEvent, sseResponse, type Reply } from "./reply.ts";

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export function anthropicResponse(reply: Reply, body: unknown, stream: boolean): Response {
  const model = reply.model ?? requestedModel(body);
  const blocks: Block[] = [];
  if (reply.text) blocks.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls ?? [])
    blocks.push({ type: "tool_use", id: call.id ?? nextId("toolu_"), name: call.name, input: call.arguments });
  const stopReason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  const usage = {
    input_tokens: reply.inputTokens ?? 1000,
    output_tokens: reply.outputTokens ?? 50,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const message = { id: nextId("msg_"), type: "message", role: "assistant", model, stop_sequence: null };
  if (!stream) return Response.json({ ...message, content: blocks, stop_reason: stopReason, usage });

  const events = [
    sseEvent(
      { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } },
      "message_start",
    ),
  ];
  for (const [index, block] of blocks.entries()) {
    if (block.type === "text") {
      events.push(sseEvent({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start"));
      events.push(sseEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } }, "content_block_delta"));
    } else {
      events.push(
        sseEvent(
          { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } },
          "content_block_start",
        ),
      );
      events.push(
        sseEvent(
          { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } },
          "content_block_delta",
        ),
      );
    }
    events.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
  }
  events.push(
    sseEvent(
      { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } },
      "message_delta",
    ),
  );
  events.push(sseEvent({ type: "message_stop" }, "message_stop"));
  return sseResponse(events);
}

/** The text of the last user message of a Messages request (a string, or its text blocks joined). */
function lastUserText(body: unknown): string {
  const messages = typeof body === "object" && body !== null && "messages" in body ? body.messages : undefined;
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (typeof last !== "object" || last === null || last.role !== "user") return "";
  if (typeof last.content === "string") return last.content;
  if (!Array.isArray(last.content)) return "";
  return last.content.map((block: { text?: unknown }) => (typeof block?.text === "string" ? block.text : "")).join("\n");
}

/**
 * Whether a request is Claude Code's compaction (2.1.328: its last user message asks for "an
 * <analysis> block followed by a <summary> block"): a script answers it with a `<summary>`, or
 * Claude Code asks once more and then keeps whatever text came as the summary.
 */
export function isSummaryRequest(body: unknown): boolean {
  const text = lastUserText(body);
  return text.includes("<summary>") && /summary of the conversation/i.test(text);
}
