import type { PrintedFilter } from "../output/printed.ts";
import { countOf, AgentError, createWithholder, type ProviderProfile } from "../../core/index.ts";
import type { ConsolaInstance } from "consola/core";
import { isRetryable, type Failure } from "./model-failure.ts";
import { describeUrl, urlSecrets } from "./secrets.ts";
import type { Account } from "./account.ts";

/**
 * One OpenAI-compatible endpoint as every request to it sees it: the same key, timeouts,
 * redirect rule, retry policy and printed name, for Chat Completions (model.ts) and for the list
 * of models (model-list.ts).
 */

export interface EndpointOptions {
  apiKey: string | undefined;
  /** OPENAI_ORG_ID and OPENAI_PROJECT_ID (account.ts). */
  account?: Account;
  baseUrl: string | undefined;
  /** The whole run's deadline; each attempt may be silent for its share of it (see `silenceLimitMs`). */
  timeoutMs: number;
  retries: number;
  logger: ConsolaInstance;
  /** What the provider documents; names the local server to start when nothing listens. */
  profile: ProviderProfile;
  /** The run's printed-line filter: error text quoted in a message is cut only once it has passed it. */
  printed: PrintedFilter;
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

/** An attempt that fell silent for `silenceMs` (tried again, as the policy says). */
export function silenceFailure(where: string, silenceMs: number, timeoutMs: number): Failure {
  const shareOfTimeout = silenceMs < timeoutMs ? `, its share of --timeout ${seconds(timeoutMs)}` : "";
  return {
    error: new AgentError("HANDOFF_FAILED", `${where} sent nothing for ${seconds(silenceMs)}${shareOfTimeout}`),
    cause: { kind: "silence" },
    headers: undefined,
  };
}

/** What the model port and the model lookup share: one endpoint, printed one way, reached one way. */
export interface Endpoint {
  baseUrl: string;
  /** The key sent (none at a local server that takes none). */
  apiKey: string | undefined;
  account: Account | undefined;
  /** The base URL as it may be printed: no credentials, no query values. */
  where: string;
  /** Removes from anything we might print the key (endpoints echo it) and the URL's credentials. */
  scrub: (text: string) => string;
  printed: PrintedFilter;
  /** How long one attempt may be silent (see `silenceLimitMs`). */
  silenceMs: number;
}

export function openEndpoint(options: EndpointOptions): Endpoint {
  const baseUrl = options.baseUrl ?? "https://api.openai.com/v1";
  // Messages name the endpoint without its credentials.
  const where = describeUrl(baseUrl);
  const withhold = createWithholder([options.apiKey, ...urlSecrets(baseUrl)]);
  const scrub = (text: string) => withhold(text.split(baseUrl).join(where));
  return {
    baseUrl,
    apiKey: options.apiKey,
    account: options.account,
    where,
    scrub,
    printed: options.printed,
    silenceMs: silenceLimitMs(options.timeoutMs, options.retries),
  };
}

/**
 * Runs `attempt` until it succeeds, `retries` more times when it fails for a reason
 * `isRetryable` accepts, with backoff; each retry and its cause on `-v`, and the final error says
 * how many attempts were made. An attempt fails with a `Failure`; anything else goes through.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: Pick<EndpointOptions, "retries" | "logger">,
  signal: AbortSignal | undefined,
): Promise<T> {
  const attempts = options.retries + 1;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (thrown) {
      if (!isFailure(thrown)) throw thrown;
      if (!isRetryable(thrown.cause)) throw thrown.error;
      if (n >= attempts)
        throw new AgentError(
          "HANDOFF_FAILED",
          `${thrown.error.message} (gave up after ${countOf(n, "attempt")}${options.retries === 0 ? "; --retries 0" : ""})`,
        );
      const delay = retryDelayMs(thrown.headers, n);
      options.logger.debug(`attempt ${n} of ${attempts} failed: ${thrown.error.message}; retrying in ${(delay / 1000).toFixed(1)}s`);
      await sleep(delay, signal);
    }
  }
}

function isFailure(value: unknown): value is Failure {
  return typeof value === "object" && value !== null && "cause" in value && "error" in value && value.error instanceof Error;
}
