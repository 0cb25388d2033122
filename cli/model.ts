import type { ConsolaInstance } from "consola/core";
import { AgentError, createWithholder, readDelta, readUsage, type ChatRequest, type Complete, type Completion, type ProviderProfile, type TokenUsage } from "../core/index.ts";
import { describeFailure, type Failure } from "./model-failure.ts";
import { describeUrl, urlSecrets } from "./secrets.ts";

export interface ModelPortOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  /** Also the longest silence allowed on a stream. */
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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The model port over HTTP: Chat Completions, streamed. 429, 5xx, timeouts and dropped
 * connections are tried again (`retries` times, with backoff), each retry and its cause said on
 * `-v`; the final error says how many attempts were made. Reasoning text, in whatever field it
 * arrives, is never part of the answer.
 */
export function createModelPort(options: ModelPortOptions): Complete {
  const baseUrl = options.baseUrl ?? "https://api.openai.com/v1";
  // Messages name the endpoint without its credentials.
  const where = describeUrl(baseUrl);
  const withhold = createWithholder([options.apiKey, ...urlSecrets(baseUrl)]);
  // Removes from anything we might print the key (endpoints echo it) and the URL's credentials.
  const scrub = (text: string) => withhold(text.split(baseUrl).join(where));
  // The SDK logs to stdout by default and reads OPENAI_LOG; route it to our stderr logger.
  const sdkLogger = {
    error: (...args: unknown[]) => options.logger.debug(scrub(args.map(String).join(" "))),
    warn: (...args: unknown[]) => options.logger.debug(scrub(args.map(String).join(" "))),
    info: () => {},
    debug: () => {},
  };
  // The SDK keeps only `error` of an error body; Google's array, vLLM's top-level `message` and
  // the codes we classify by would be lost. Keep the last error body as it came.
  let lastErrorBody: string | undefined;
  const fetchKeepingErrors = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (!response.ok) lastErrorBody = await response.clone().text().catch(() => undefined);
    return response;
  };

  async function attempt(request: ChatRequest, signal: AbortSignal | undefined): Promise<Completion> {
    // Loaded on first use: the SDK is the heaviest import, and dry runs never need it.
    const sdk = await import("openai");
    const client = new sdk.default({
      // Local servers (Ollama, llama.cpp) take no key, but the SDK insists on one.
      apiKey: options.apiKey ?? "no-key",
      baseURL: baseUrl,
      timeout: options.timeoutMs,
      maxRetries: 0,
      fetch: fetchKeepingErrors,
      logger: sdkLogger,
      logLevel: "warn",
    });
    // The SDK's timeout covers only the wait for headers; this one covers silence mid-stream.
    const idle = new AbortController();
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => idle.abort(), options.timeoutMs);
    };
    const combined = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
    const silent = () => new AgentError("HANDOFF_FAILED", `${where} sent nothing for ${options.timeoutMs / 1000}s`);

    let text = "";
    let reasoningChars = 0;
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    let model: string | undefined;
    lastErrorBody = undefined;
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
      throw describeFailure(error, { where, baseUrl, timeoutMs: options.timeoutMs, profile: options.profile, body: lastErrorBody, scrub, sdk });
    } finally {
      clearTimeout(idleTimer);
    }
    // Aborting mid-stream ends the SDK's loop without an error: check why it ended.
    if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (idle.signal.aborted) throw silent();
    if (!finishReason) throw new AgentError("HANDOFF_FAILED", "the stream ended before the model finished (connection cut?)");
    return { text, finishReason, usage, model };
  }

  return async (request, { signal }) => {
    const attempts = options.retries + 1;
    for (let n = 1; ; n++) {
      try {
        return await attempt(request, signal);
      } catch (thrown) {
        if (!isFailure(thrown)) throw thrown;
        if (!thrown.retryable) throw thrown.error;
        if (n >= attempts) throw new AgentError("HANDOFF_FAILED", `${thrown.error.message} (gave up after ${plural(n, "attempt")}${options.retries === 0 ? "; --retries 0" : ""})`);
        const delay = retryDelayMs(thrown.headers, n);
        options.logger.debug(`attempt ${n} of ${attempts} failed: ${thrown.error.message}; retrying in ${(delay / 1000).toFixed(1)}s`);
        await sleep(delay, signal);
      }
    }
  };
}

function isFailure(value: unknown): value is Failure {
  return typeof value === "object" && value !== null && "retryable" in value && "error" in value && value.error instanceof Error;
}
