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
import { boundLines } from "./stream-lines.ts";

export interface ModelPortOptions extends EndpointOptions {
  /** Called as text arrives, with the characters received so far (reasoning included). */
  onProgress?: (chars: number) => void;
}

/** A response that is not a stream: an error in the body (OpenRouter sends some with status 200), or not Chat Completions at all. */
interface NotAStream {
  contentType: string;
  body: string;
}

/**
 * The model port over HTTP: Chat Completions, streamed. 429, 5xx, an attempt that falls silent
 * and dropped connections are tried again (`withRetries`). Redirects are never followed.
 * Reasoning text, in whatever field it arrives, is never part of the answer.
 */
export function createModelPort(options: ModelPortOptions): Complete {
  const { baseUrl, where, scrub, printed, silenceMs, client: newClient } = openEndpoint(options);
  // The SDK keeps only `error` of an error body; Google's array, vLLM's top-level `message`,
  // OpenRouter's wrapped upstream error and the codes we classify by would be lost. Keep the
  // last error body as it came; and a 200 that is not a stream, which the SDK would read as an
  // empty one.
  let lastErrorBody: string | undefined;
  let notAStream: NotAStream | undefined;
  // Set by each attempt: the longest stream line its request allows, and what to do past it.
  let lineLimit = Number.POSITIVE_INFINITY;
  let lineTooLong = (): void => {};
  const fetchKeepingErrors = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, { ...init, redirect: "manual" });
    if (!response.ok) {
      lastErrorBody = await response
        .clone()
        .text()
        .catch(() => undefined);
      return response;
    }
    // JSON (an error, or an answer that ignored `stream: true`) or a page (a captive portal): not a
    // stream. Any other type goes to the SDK as before: some servers label their streams loosely.
    const contentType = response.headers.get("content-type") ?? "";
    if (!/json|html/i.test(contentType)) return boundLines(response, lineLimit, lineTooLong);
    notAStream = { contentType, body: await response.text().catch(() => "") };
    return new Response("", { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  // Read through a function: the fetch above sets it while the stream is awaited.
  const lastNotAStream = (): NotAStream | undefined => notAStream;
  // Set up once, at the first request: the SDK is the heaviest import, and dry runs never need it.
  let sdk: typeof import("openai") | undefined;
  let client: ReturnType<typeof newClient> | undefined;

  async function attempt(request: ChatRequest, signal: AbortSignal | undefined): Promise<Completion> {
    sdk ??= await import("openai");
    client ??= newClient(sdk, fetchKeepingErrors);
    const loaded = sdk;
    const ctx = (): FailureContext => ({
      where,
      baseUrl,
      model: request.model,
      profile: options.profile,
      body: lastErrorBody,
      scrub,
      sdk: loaded,
      printed,
    });
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
    lineLimit = answerLineByteLimit(request);
    lineTooLong = () => overflow.abort();
    const combined = AbortSignal.any([idle.signal, overflow.signal, ...(signal ? [signal] : [])]);
    const silent = (): Failure => silenceFailure(where, silenceMs, options.timeoutMs);

    let text = "";
    let reasoningChars = 0;
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    let model: string | undefined;
    lastErrorBody = undefined;
    notAStream = undefined;
    try {
      armIdle();
      const stream = await client.chat.completions.create(request, { signal: combined });
      for await (const chunk of stream) {
        armIdle();
        if (chunk.model) model = chunk.model;
        const choice = chunk.choices[0];
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
      throw describeFailure(error, ctx());
    } finally {
      clearTimeout(idleTimer);
    }
    // Aborting mid-stream ends the SDK's loop without an error: check why it ended.
    if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (overflow.signal.aborted) throw new AgentError("HANDOFF_FAILED", describeAnswerOverflow(request, where));
    if (idle.signal.aborted) throw silent();
    const plain = lastNotAStream();
    if (plain)
      throw readErrorBody(plain.body).isError
        ? describeInBandError(plain.body, ctx(), false)
        : describeNotAStream(plain.contentType, ctx());
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
  return (request, { signal, beforeSend }) =>
    withRetries(
      async () => {
        beforeSend?.(request);
        return attempt(request, signal);
      },
      options,
      signal,
    );
}
