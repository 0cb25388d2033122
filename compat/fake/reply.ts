/** What a scripted fake model answers, whatever the wire, and small helpers the encoders share. */

export type Wire = "chat" | "anthropic" | "responses" | "gemini";

export interface ToolCallReply {
  /** Defaults to a fresh id in the wire's style. */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Responses API only: a freeform (custom) tool such as Codex's `apply_patch`, whose input is raw text. */
  customInput?: string;
}

export interface Reply {
  text?: string;
  toolCalls?: ToolCallReply[];
  /** The model name the answer reports (default: the one asked for). */
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Wait this long before answering (a model that is slow to start). */
  delayMs?: number;
  /** Refuse the request instead: this HTTP status, with `message` in the wire's error shape. */
  refuse?: { status: number; message: string };
}

const encoder = new TextEncoder();

/** One SSE event; `event` is the named event line some wires use. */
export function sseEvent(data: unknown, event?: string): Uint8Array {
  return encoder.encode(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
}

export function sseResponse(events: Uint8Array[]): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(event);
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

/** The `model` a request asked for, when it names one. */
export function requestedModel(body: unknown): string {
  if (typeof body === "object" && body !== null && "model" in body && typeof body.model === "string") return body.model;
  return "fake-model";
}

let counter = 0;
/** Ids that differ within a run and repeat across runs (the transcripts must be stable). */
export function nextId(prefix: string): string {
  counter++;
  return `${prefix}${String(counter).padStart(6, "0")}`;
}

/** Restart ids, so every agent's transcript starts from the same numbers. */
export function resetIds(): void {
  counter = 0;
}
