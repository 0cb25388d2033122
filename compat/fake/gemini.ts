/**
 * The Gemini API (`generativelanguage.googleapis.com`'s `v1beta` wire) as Gemini CLI calls it at
 * `GOOGLE_GEMINI_BASE_URL`: `POST …/models/<model>:streamGenerateContent?alt=sse` (one
 * `GenerateContentResponse` per SSE event), `…:generateContent` (one JSON object; the CLI's
 * router, title and summary calls) and `…:countTokens`. The model is in the path, not the body.
 */
import { nextId, sseEvent, sseResponse, type Reply } from "./reply.ts";

/** What a Gemini API path asks for: the model and the method; undefined for a path of another wire. */
export function geminiCall(
  path: string,
): { model: string; method: "streamGenerateContent" | "generateContent" | "countTokens" } | undefined {
  const match = /\/models\/([^/:?]+):(streamGenerateContent|generateContent|countTokens)(?:\?|$)/.exec(path);
  if (!match?.[1] || !match[2]) return undefined;
  return { model: decodeURIComponent(match[1]), method: match[2] as "streamGenerateContent" | "generateContent" | "countTokens" };
}

/** `countTokens`: a fixed count, enough for the CLI's budget checks. */
export function geminiCountTokens(): Response {
  return Response.json({ totalTokens: 100 });
}

/** The answer as Gemini writes it: text and function calls as parts of one model turn. */
export function geminiResponse(reply: Reply, model: string, stream: boolean): Response {
  const parts: unknown[] = [];
  if (reply.text) parts.push({ text: reply.text });
  for (const call of reply.toolCalls ?? [])
    parts.push({ functionCall: { id: call.id ?? nextId("call_"), name: call.name, args: call.arguments } });
  const usageMetadata = {
    promptTokenCount: reply.inputTokens ?? 1000,
    candidatesTokenCount: reply.outputTokens ?? 50,
    totalTokenCount: (reply.inputTokens ?? 1000) + (reply.outputTokens ?? 50),
  };
  const responseId = nextId("resp_");
  const whole = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata,
    modelVersion: reply.model ?? model,
    responseId,
  };
  if (!stream) return Response.json(whole);
  // Streamed: the parts first, then the finish reason with the usage, as the API ends a turn.
  const events = [
    sseEvent({ candidates: [{ content: { role: "model", parts }, index: 0 }], modelVersion: reply.model ?? model, responseId }),
    sseEvent({
      candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }],
      usageMetadata,
      modelVersion: reply.model ?? model,
      responseId,
    }),
  ];
  return sseResponse(events);
}

/** A refused request in the Gemini API's error shape. */
export function geminiRefusal(status: number, message: string): Response {
  const statusWord =
    status === 401
      ? "UNAUTHENTICATED"
      : status === 403
        ? "PERMISSION_DENIED"
        : status === 429
          ? "RESOURCE_EXHAUSTED"
          : status >= 500
            ? "INTERNAL"
            : "INVALID_ARGUMENT";
  return Response.json({ error: { code: status, message, status: statusWord } }, { status });
}
