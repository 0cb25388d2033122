import { AgentError, classifyRefusal, CompletionError, type ProviderProfile } from "../core/index.ts";
import { shapeErrorText, summarizeErrorBody } from "./error-text.ts";

type Sdk = typeof import("openai");

/** One failed attempt, as the retry loop needs it. */
export interface Failure {
  /** What the run fails with when this attempt was the last. */
  error: Error;
  /** 408, 409, 429, 5xx, a timeout or a dropped connection: worth another attempt. */
  retryable: boolean;
  /** The response's headers, for `retry-after`. */
  headers: Headers | undefined;
}

export interface FailureContext {
  /** The base URL as it may be printed. */
  where: string;
  baseUrl: string;
  timeoutMs: number;
  profile: ProviderProfile;
  /** The error response's body as it came, when there was one. */
  body: string | undefined;
  /** Removes the key and the URL's credentials from anything printed. */
  scrub: (text: string) => string;
  sdk: Sdk;
}

function statusOf(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number") return error.status;
  return undefined;
}

function headersOf(error: unknown): Headers | undefined {
  if (typeof error === "object" && error !== null && "headers" in error && error.headers instanceof Headers) return error.headers;
  return undefined;
}

/** `ECONNREFUSED` and friends, from an error or its cause. */
function systemCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if ("code" in e && typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isLoopback(baseUrl: string): boolean {
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname : "";
  return host === "localhost" || host.startsWith("127.") || host === "[::1]" || host === "0.0.0.0";
}

/** What to try when nothing listens at the URL: start the server the profile names. */
function notListeningHint(ctx: FailureContext): string {
  const local = ctx.profile.local;
  if (local) return `; is ${ctx.profile.name} running? It is usually started with \`${local.start}\``;
  return isLoopback(ctx.baseUrl) ? "; nothing is listening there: is the server running?" : "";
}

/** OpenAI-compatible servers serve under /v1 (Google's under /v1beta/openai): a 404 from a base URL without it says why. */
function missingVersionHint(ctx: FailureContext): string {
  if (!URL.canParse(ctx.baseUrl)) return "";
  const path = new URL(ctx.baseUrl).pathname;
  if (/\/v\d/.test(path)) return "";
  return `; the base URL has no /v1, under which OpenAI-compatible endpoints serve (try ${ctx.where.replace(/\/?$/, "/v1")})`;
}

function fromStatus(status: number, error: unknown, ctx: FailureContext): Failure {
  const headers = headersOf(error);
  // Scrubbed whole before it is shaped (a cut must not leave half a key behind), and again once
  // shaped: decoding entities (`&#85;`) or JSON escapes may spell a secret anew.
  const raw = ctx.scrub(ctx.body ?? errorText(error).replace(/^\d{3} /, ""));
  const summary = ctx.scrub(ctx.body === undefined ? shapeErrorText(`${status} ${raw}`) : summarizeErrorBody(status, raw));
  const refusal = classifyRefusal(status, raw);
  if (refusal?.kind === "context_length") return { error: new CompletionError("context_length", `the request is larger than the model's context window (${summary})`), retryable: false, headers };
  if (refusal?.kind === "unsupported_parameter") return { error: new CompletionError("unsupported_parameter", `${ctx.where} answered ${summary}`, refusal.param), retryable: false, headers };
  if (status === 401) return { error: new AgentError("HANDOFF_FAILED", `${ctx.where} refused the API key (401); check OPENAI_API_KEY`), retryable: false, headers };
  if (status === 404) return { error: new AgentError("HANDOFF_FAILED", `${ctx.where} answered ${summary}${missingVersionHint(ctx)}`), retryable: false, headers };
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  return { error: new AgentError("HANDOFF_FAILED", `${ctx.where} answered ${summary}`), retryable, headers };
}

/**
 * Turns an SDK failure into what core understands (recoverable `CompletionError`s, or an
 * `AgentError` saying what happened without the key) and whether another attempt may help.
 */
export function describeFailure(error: unknown, ctx: FailureContext): Failure {
  const status = statusOf(error);
  if (status !== undefined) return fromStatus(status, error, ctx);
  if (error instanceof ctx.sdk.APIConnectionTimeoutError) {
    return { error: new AgentError("HANDOFF_FAILED", `${ctx.where} did not answer within ${ctx.timeoutMs / 1000}s`), retryable: true, headers: undefined };
  }
  if (error instanceof ctx.sdk.APIConnectionError) {
    const code = systemCode(error);
    const detail = code ? ` (${code})` : `: ${ctx.scrub(shapeErrorText(ctx.scrub(errorText(error.cause ?? error))))}`;
    const hint = code === "ECONNREFUSED" || code === "ENOTFOUND" ? notListeningHint(ctx) : "";
    return { error: new AgentError("HANDOFF_FAILED", `could not reach ${ctx.where}${detail}${hint}`), retryable: true, headers: undefined };
  }
  // An error event inside the stream (OpenRouter sends these with status 200), or anything else.
  return { error: new AgentError("HANDOFF_FAILED", ctx.scrub(shapeErrorText(ctx.scrub(errorText(error))))), retryable: false, headers: undefined };
}
