/** OpenAI Responses (`POST …/responses`), streamed as typed events (what Codex speaks). */
import { nextId, requestedModel, sseEvent, sseResponse, type Reply } from "./reply.ts";

export function responsesResponse(reply: Reply, body: unknown, stream: boolean): Response {
  const model = reply.model ?? requestedModel(body);
  const responseId = nextId("resp_");
  const items: Record<string, unknown>[] = [];
  if (reply.text) {
    items.push({
      type: "message",
      id: nextId("msg_"),
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    });
  }
  for (const call of reply.toolCalls ?? []) {
    const callId = call.id ?? nextId("call_");
    if (call.customInput !== undefined)
      items.push({
        type: "custom_tool_call",
        id: nextId("ctc_"),
        status: "completed",
        call_id: callId,
        name: call.name,
        input: call.customInput,
      });
    else
      items.push({
        type: "function_call",
        id: nextId("fc_"),
        status: "completed",
        call_id: callId,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      });
  }
  const input = reply.inputTokens ?? 1000;
  const output = reply.outputTokens ?? 50;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
  const response = { id: responseId, object: "response", created_at: 1764410400, model, status: "completed", output: items, usage };
  if (!stream) return Response.json(response);

  let sequence = 0;
  const event = (data: Record<string, unknown>) => sseEvent({ ...data, sequence_number: sequence++ }, String(data.type));
  const events = [event({ type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } })];
  for (const [outputIndex, item] of items.entries()) {
    events.push(event({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, status: "in_progress" } }));
    if (item.type === "message" && reply.text) {
      events.push(
        event({ type: "response.output_text.delta", item_id: item.id, output_index: outputIndex, content_index: 0, delta: reply.text }),
      );
      events.push(
        event({ type: "response.output_text.done", item_id: item.id, output_index: outputIndex, content_index: 0, text: reply.text }),
      );
    }
    events.push(event({ type: "response.output_item.done", output_index: outputIndex, item }));
  }
  events.push(event({ type: "response.completed", response }));
  return sseResponse(events);
}
