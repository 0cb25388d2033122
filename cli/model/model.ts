import {
  AgentError,
  answerCharLimit,
  answerLineByteLimit,
  describeAnswerOverflow,
  readDelta,
  readUsage,
  type ChatRequest,
  type Complete,
  type Completion,
  type TokenUsage,
} from "../../core/index.ts";
import { openEndpoint, silenceFailure, withRetries, type EndpointOptions } from "./endpoint.ts";
import { describeFailure, describeInBandError, describeNotAStream, type Failure, type FailureContext } from "./model-failure.ts";
import { readErrorBody } from "./error-text.ts";
import { endpointUrl, EventError, EventNotJsonError, send } from "./http.ts";
import { readEvents, type SseEvent } from "./sse.ts";

export interface ModelPortOptions extends EndpointOptions {
  /** Called as text arrives, with the characters received so far (reasoning included). */
  onProgress?: (chars: number) => void;
}

/**
 * The model port over HTTP: Chat Completions, streamed. 429, 5xx, an attempt that falls silent
 * and dropped connections are tried again (`withRetries`). Redirects are never followed.
 * Reasoning text, in whatever field it arrives, is never part of the answer.
 */
export function createModelPort(options: ModelPortOptions): Complete {
  const endpoint = openEndpoint(options);
  const { where, scrub, printed, silenceMs } = endpoint;
  const url = endpointUrl(endpoint.baseUrl, "/chat/completions");

  async function attempt(request: ChatRequest, body: string, signal: AbortSignal | undefined): Promise<Completion> {
    const ctx: FailureContext = { where, baseUrl: endpoint.baseUrl, model: request.model, profile: options.profile, scrub, printed };
    // Covers the wait for headers and every silence mid-stream.
    const idle = new AbortController();
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => idle.abort(), silenceMs);
    };
    // Closes the stream once the answer passes its bound (core/llm/answer-bound.ts).
    const overflow = new AbortController();
    const charLimit = answerCharLimit(request);
    const lineLimit = answerLineByteLimit(request);
    const combined = AbortSignal.any([idle.signal, overflow.signal, ...(signal ? [signal] : [])]);
    const silent = (): Failure => silenceFailure(where, silenceMs, options.timeoutMs);

    let text = "";
    let reasoningChars = 0;
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    let model: string | undefined;
    // A 200 that is not a stream: an error in the body (OpenRouter sends some with status 200), or not Chat Completions at all.
    let notAStream: { contentType: string; body: string } | undefined;
    try {
      armIdle();
      const response = await send({ method: "POST", url, apiKey: endpoint.apiKey, account: endpoint.account, body, signal: combined });
      // JSON (an error, or an answer that ignored `stream: true`) or a page (a captive portal): not a
      // stream. Any other type is read as one: some servers label their streams loosely.
      const contentType = response.headers.get("content-type") ?? "";
      if (/json|html/i.test(contentType)) notAStream = { contentType, body: await response.text().catch(() => "") };
      else if (response.body !== null)
        for await (const event of readEvents(response.body, lineLimit, () => overflow.abort())) {
          armIdle();
          if (event.data === "[DONE]") break;
          const chunk = parseEvent(event);
          if (typeof chunk.model === "string" && chunk.model) model = chunk.model;
          const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
          const delta = readDelta(choice?.delta);
          text += delta.text;
          reasoningChars += delta.reasoning.length;
          if (text.length + reasoningChars > charLimit) {
            overflow.abort();
            break;
          }
          if (delta.text || delta.reasoning) options.onProgress?.(text.length + reasoningChars);
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          usage = readUsage(chunk) ?? usage;
        }
    } catch (error) {
      if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
      if (overflow.signal.aborted) throw new AgentError("HANDOFF_FAILED", describeAnswerOverflow(request, where));
      if (idle.signal.aborted) throw silent();
      throw describeFailure(error, ctx);
    } finally {
      clearTimeout(idleTimer);
    }
    if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (overflow.signal.aborted) throw new AgentError("HANDOFF_FAILED", describeAnswerOverflow(request, where));
    if (idle.signal.aborted) throw silent();
    if (notAStream)
      throw readErrorBody(notAStream.body).isError
        ? describeInBandError(notAStream.body, ctx, false)
        : describeNotAStream(notAStream.contentType, ctx);
    if (!finishReason) {
      const cut: Failure = {
        error: new AgentError("HANDOFF_FAILED", `the stream from ${where} ended before the model finished (connection cut?)`),
        cause: { kind: "dropped" },
        headers: undefined,
      };
      throw cut;
    }
    return { text, finishReason, usage, model };
  }

  // Every attempt is told to the caller before it goes out, retries included: what it sends is counted (--max-input-tokens).
  return (request, { signal, beforeSend }) => {
    // Encoded once for all its attempts.
    const body = JSON.stringify(request);
    return withRetries(
      async () => {
        beforeSend?.(request);
        return attempt(request, body, signal);
      },
      options,
      signal,
    );
  };
}

/** One chunk of the stream: a JSON object, or an error event (http.ts words it). */
function parseEvent(event: SseEvent): StreamChunk {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    throw new EventNotJsonError(event.data);
  }
  const record = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  if (event.event === "error") throw new EventError(record.error ?? data);
  if (record.error) throw new EventError(record.error);
  return record as StreamChunk;
}

/** What is read of a chunk; each field is checked where it is read (core/llm/stream.ts). */
interface StreamChunk {
  model?: unknown;
  choices?: { delta?: unknown; finish_reason?: string | null }[];
}
