import type { ConsolaInstance } from "consola/core";
import { AgentError, CompletionError, createWithholder, type ChatRequest, type Complete, type Completion, type TokenUsage } from "../core/index.ts";
import { describeUrl, urlSecrets } from "./secrets.ts";

export interface ModelPortOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  /** Also the longest silence allowed on a stream. */
  timeoutMs: number;
  retries: number;
  logger: ConsolaInstance;
  /** Called as text arrives, with the characters received so far. */
  onProgress?: (chars: number) => void;
}

const CONTEXT_LENGTH = /context[ _-]?length|context window|maximum context|too many tokens|prompt is too long|reduce the length|exceeds? the (max|limit)/i;
const TOOL_CHOICE_AUTO_ONLY = /tool_choice/i;

/**
 * Removes from anything we might print the API key (endpoints echo it in errors) and the base
 * URL's user name, password and query values.
 */
function scrub(text: string, options: ModelPortOptions): string {
  const { baseUrl } = options;
  const withhold = createWithholder([options.apiKey, ...urlSecrets(baseUrl)]);
  return withhold(baseUrl === undefined ? text : text.split(baseUrl).join(describeUrl(baseUrl)));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `ECONNREFUSED` and friends, from an error or its cause. */
function systemCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if ("code" in e && typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

type Sdk = typeof import("openai");

function statusOf(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number") return error.status;
  return undefined;
}

/**
 * Turns an SDK failure into what core understands: recoverable `CompletionError`s, or an
 * `AgentError` whose message says what happened without the key.
 */
function translateError(error: unknown, options: ModelPortOptions, where: string, sdk: Sdk): Error {
  const message = scrub(errorText(error), options);
  const status = statusOf(error);
  if (status === 400 || status === 413 || status === 422) {
    if (CONTEXT_LENGTH.test(message)) return new CompletionError("context_length", `the request is larger than the model's context window (${message})`);
    if (TOOL_CHOICE_AUTO_ONLY.test(message)) return new CompletionError("tool_choice_unsupported", message);
  }
  if (status === 401) return new AgentError("HANDOFF_FAILED", `${where} refused the API key (401); check OPENAI_API_KEY`);
  if (status !== undefined) return new AgentError("HANDOFF_FAILED", `${where} answered ${message}`);
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new AgentError("HANDOFF_FAILED", `${where} did not answer within ${options.timeoutMs / 1000}s`);
  }
  if (error instanceof sdk.APIConnectionError) {
    const code = systemCode(error);
    return new AgentError("HANDOFF_FAILED", `could not reach ${where}${code ? ` (${code})` : `: ${scrub(errorText(error.cause ?? error), options)}`}`);
  }
  return new AgentError("HANDOFF_FAILED", message);
}

/** The model port over HTTP: Chat Completions, streamed, with the SDK's retries for 429, 5xx and dropped connections. */
export function createModelPort(options: ModelPortOptions): Complete {
  const baseURL = options.baseUrl ?? "https://api.openai.com/v1";
  // Messages name the endpoint without its credentials.
  const where = describeUrl(baseURL);
  // The SDK logs to stdout by default and reads OPENAI_LOG; route it to our stderr logger.
  const sdkLogger = {
    error: (...args: unknown[]) => options.logger.debug(scrub(args.map(String).join(" "), options)),
    warn: (...args: unknown[]) => options.logger.debug(scrub(args.map(String).join(" "), options)),
    info: () => {},
    debug: () => {},
  };

  return async (request: ChatRequest, { signal }): Promise<Completion> => {
    // Loaded on first use: the SDK is the heaviest import, and dry runs never need it.
    const sdk = await import("openai");
    const OpenAI = sdk.default;
    const client = new OpenAI({
      // Local servers (Ollama, llama.cpp) take no key, but the SDK insists on one.
      apiKey: options.apiKey ?? "no-key",
      baseURL,
      timeout: options.timeoutMs,
      maxRetries: options.retries,
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

    let text = "";
    let finishReason: string | undefined;
    let usage: TokenUsage | undefined;
    let model: string | undefined;
    try {
      armIdle();
      const stream = await client.chat.completions.create(request, { signal: combined });
      for await (const chunk of stream) {
        armIdle();
        if (chunk.model) model = chunk.model;
        const choice = chunk.choices[0];
        const delta = choice?.delta?.content;
        if (delta) {
          text += delta;
          options.onProgress?.(text.length);
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
      }
    } catch (error) {
      if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
      if (idle.signal.aborted) throw new AgentError("HANDOFF_FAILED", `${where} sent nothing for ${options.timeoutMs / 1000}s`);
      throw translateError(error, options, where, sdk);
    } finally {
      clearTimeout(idleTimer);
    }
    // Aborting mid-stream ends the SDK's loop without an error: check why it ended.
    if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (idle.signal.aborted) throw new AgentError("HANDOFF_FAILED", `${where} sent nothing for ${options.timeoutMs / 1000}s`);
    if (!finishReason) throw new AgentError("HANDOFF_FAILED", "the stream ended before the model finished (connection cut?)");
    return { text, finishReason, usage, model };
  };
}
