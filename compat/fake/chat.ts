/** Chat Completions (`POST …/chat/completions`), streamed the way OpenAI streams it. */
import { nextId, requestedModel, sseEvent, sseResponse, type Reply } from "./reply.ts";

export function chatResponse(reply: Reply, body: unknown, stream: boolean): Response {
  const model = reply.model ?? requestedModel(body);
  const calls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextId("call_"),
    type: "function" as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const usage = {
    prompt_tokens: reply.inputTokens ?? 1000,
    completion_tokens: reply.outputTokens ?? 50,
    total_tokens: (reply.inputTokens ?? 1000) + (reply.outputTokens ?? 50),
  };
  const base = { id: nextId("chatcmpl-"), object: "chat.completion.chunk", created: 1764410400, model };
  if (!stream) {
    const message = { role: "assistant", content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    return Response.json({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const events = [sseEvent({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })];
  if (reply.text) events.push(sseEvent({ ...base, choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] }));
  for (const [index, call] of calls.entries()) {
    events.push(sseEvent({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }] }));
  }
  events.push(sseEvent({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }));
  events.push(sseEvent({ ...base, choices: [], usage }));
  events.push(sseEvent("[DONE]"));
  return sseResponse(events);
}
