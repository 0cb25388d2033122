import type { ConsolaInstance } from "consola/core";
import { AgentError, createWithholder, readDelta, readUsage, type ChatRequest, type Complete, type Completion, type ProviderProfile, type TokenUsage } from "../core/index.ts";
import { describeFailure, describeInBandError, describeNotAStream, isRetryable, type Failure, type FailureContext } from "./model-failure.ts";
import { readErrorBody } from "./error-text.ts";
import { describeUrl, urlSecrets } from "./secrets.ts";

export interface ModelPortOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  /** The whole run's deadline; each attempt may be silent for its share of it (see `silenceLimitMs`). */
  timeoutMs: number;
  retries: number;
  logger: ConsolaInstance;
  /** What the provider documents; names the local server to start when nothing listens. */
  profile: ProviderProfile;
  /** Called as text arrives, with the characters received so far (reasoning included). */
  onProgress?: (chars: number) => void;
}

/** The longest wait between attempts we accept from a `retry-after` header. */
const MAX_RETRY_DELAY_MS = 60_000;

/** How long to wait before the next attempt: what the endpoint asked for, else 0.5 s doubling up to 8 s. */
export function retryDelayMs(headers: Headers | undefined, attempt: number): number {
  const ms = Number(headers?.get("retry-after-ms"));
  if (headers?.has("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_DELAY_MS);
  const after = headers?.get("retry-after");
  if (after != null && after !== "") {
    const seconds = Number(after);
    const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
    if (Number.isFinite(wait)) return Math.min(Math.max(0, wait), MAX_RETRY_DELAY_MS);
  }
  return Math.min(8000, 500 * 2 ** (attempt - 1)) * (0.75 + Math.random() / 4);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AgentError("CANCELLED", "Handoff cancelled"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AgentError("CANCELLED", "Handoff cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The least silence an attempt is allowed when --timeout leaves room for it: a reasoning model may think a while before its first word. */
const MIN_SILENCE_MS = 60_000;

/**
 * How long one attempt may go without a byte: its share of the whole run's --timeout, so that an
 * endpoint that hangs leaves time to try again (with --retries 0, all of it); never less than a
 * minute, or half the timeout when that is shorter, however many retries are asked for.
 */
export function silenceLimitMs(timeoutMs: number, retries: number): number {
  return Math.max(timeoutMs / (retries + 1), Math.min(MIN_SILENCE_MS, timeoutMs / 2));
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A response that is not a stream: an error in the body (OpenRouter sends some with status 200), or not Chat Completions at all. */
interface NotAStream {
  contentType: string;
  body: string;
}

/**
 * The model port over HTTP: Chat Completions, streamed. 429, 5xx, an attempt that falls silent
 * and dropped connections are tried again (`retries` times, with backoff; the policy is
 * `isRetryable`), each retry and its cause said on `-v`; the final error says how many attempts
 * were made. Redirects are never followed. Reasoning text, in whatever field it arrives, is never
 * part of the answer.
 */
export function createModelPort(options: ModelPortOptions): Complete {
  const baseUrl = options.baseUrl ?? "https://api.openai.com/v1";
  // Messages name the endpoint without its credentials.
  const where = describeUrl(baseUrl);
  const withhold = createWithholder([options.apiKey, ...urlSecrets(baseUrl)]);
  // Removes from anything we might print the key (endpoints echo it) and the URL's credentials.
  const scrub = (text: string) => withhold(text.split(baseUrl).join(where));
  const silenceMs = silenceLimitMs(options.timeoutMs, options.retries);
  // The SDK logs to stdout by default and reads OPENAI_LOG; route it to our stderr logger.
  const sdkLogger = {
    error: (...args: unknown[]) => options.logger.debug(scrub(args.map(String).join(" "))),
    warn: (...args: unknown[]) => options.logger.debug(scrub(args.map(String).join(" "))),
    info: () => {},
    debug: () => {},
  };
  // The SDK keeps only `error` of an error body; Google's array, vLLM's top-level `message`,
  // OpenRouter's wrapped upstream error and the codes we classify by would be lost. Keep the
  // last error body as it came; and a 200 that is not a stream, which the SDK would read as an
  // empty one.
  let lastErrorBody: string | undefined;
  let notAStream: NotAStream | undefined;
  const fetchKeepingErrors = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, { ...init, redirect: "manual" });
    if (!response.ok) {
      lastErrorBody = await response.clone().text().catch(() => undefined);
      return response;
    }
    // JSON (an error, or an answer that ignored `stream: true`) or a page (a captive portal): not a
    // stream. Any other type goes to the SDK as before: some servers label their streams loosely.
    const contentType = response.headers.get("content-type") ?? "";
    if (!/json|html/i.test(contentType)) return response;
    notAStream = { contentType, body: await response.text().catch(() => "") };
    return new Response("", { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  // Read through a function: the fetch above sets it while the stream is awaited.
  const lastNotAStream = (): NotAStream | undefined => notAStream;

  async function attempt(request: ChatRequest, signal: AbortSignal | undefined): Promise<Completion> {
    // Loaded on first use: the SDK is the heaviest import, and dry runs never need it.
    const sdk = await import("openai");
    const client = new sdk.default({
      // Local servers (Ollama, llama.cpp) take no key, but the SDK insists on one.
      apiKey: options.apiKey ?? "no-key",
      baseURL: baseUrl,
      // Ours is the silence timer below; the SDK's covers only the wait for headers.
      timeout: options.timeoutMs,
      maxRetries: 0,
      fetch: fetchKeepingErrors,
      logger: sdkLogger,
      logLevel: "warn",
    });
    const ctx = (): FailureContext => ({ where, baseUrl, model: request.model, profile: options.profile, body: lastErrorBody, scrub, sdk });
    // Covers the wait for headers and every silence mid-stream.
    const idle = new AbortController();
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => idle.abort(), silenceMs);
    };
    const combined = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
    const shareOfTimeout = silenceMs < options.timeoutMs ? `, its share of --timeout ${seconds(options.timeoutMs)}` : "";
    const silent = (): Failure => ({
      error: new AgentError("HANDOFF_FAILED", `${where} sent nothing for ${seconds(silenceMs)}${shareOfTimeout}`),
      cause: { kind: "silence" },
      headers: undefined,
    });

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
        if (delta.text || delta.reasoning) options.onProgress?.(text.length + reasoningChars);
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        usage = readUsage(chunk) ?? usage;
      }
    } catch (error) {
      if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
      if (idle.signal.aborted) throw silent();
      throw describeFailure(error, ctx());
    } finally {
      clearTimeout(idleTimer);
    }
    // Aborting mid-stream ends the SDK's loop without an error: check why it ended.
    if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (idle.signal.aborted) throw silent();
    const plain = lastNotAStream();
    if (plain) throw readErrorBody(plain.body).isError ? describeInBandError(plain.body, ctx(), false) : describeNotAStream(plain.contentType, ctx());
    if (!finishReason) {
      const cut: Failure = { error: new AgentError("HANDOFF_FAILED", `the stream from ${where} ended before the model finished (connection cut?)`), cause: { kind: "dropped" }, headers: undefined };
      throw cut;
    }
    return { text, finishReason, usage, model };
  }

  return async (request, { signal }) => {
    const attempts = options.retries + 1;
    for (let n = 1; ; n++) {
      try {
        return await attempt(request, signal);
      } catch (thrown) {
        if (!isFailure(thrown)) throw thrown;
        if (!isRetryable(thrown.cause)) throw thrown.error;
        if (n >= attempts) throw new AgentError("HANDOFF_FAILED", `${thrown.error.message} (gave up after ${plural(n, "attempt")}${options.retries === 0 ? "; --retries 0" : ""})`);
        const delay = retryDelayMs(thrown.headers, n);
        options.logger.debug(`attempt ${n} of ${attempts} failed: ${thrown.error.message}; retrying in ${(delay / 1000).toFixed(1)}s`);
        await sleep(delay, signal);
      }
    }
  };
}

function isFailure(value: unknown): value is Failure {
  return typeof value === "object" && value !== null && "cause" in value && "error" in value && value.error instanceof Error;
}
