import type { PrintedFilter } from "../output/printed.ts";
import { AgentError, classifyRefusal, CompletionError, errorMessage, isLoopbackHost, type ProviderProfile } from "../../core/index.ts";
import { readErrorBody, shapeErrorText, summarizeErrorBody } from "./error-text.ts";
import { describeUrl } from "./secrets.ts";
import { errorCode } from "../io/fs-errors.ts";
import { ConnectionError, EventError, EventNotJsonError, StatusError } from "./http.ts";
import { certificateRefusal } from "./certificate-failure.ts";
import { DecompressionError } from "./decompress.ts";

/** Why an attempt failed, as far as trying again is concerned. */
export type Cause =
  /**
   * An HTTP error status, or the code inside an error sent with status 200. `retry`: what the
   * endpoint's `x-should-retry` header said (OpenAI's), which wins over the status.
   */
  | { kind: "status"; status: number; retry?: boolean }
  /** Nothing arrived for the attempt's share of --timeout. */
  | { kind: "silence" }
  /** The connection broke, or the stream ended before the model finished. */
  | { kind: "dropped" }
  /** Nothing listens at the URL, or its host is unknown. */
  | { kind: "unreachable" }
  /** The same request would fail the same way (a refusal, a redirect, an error with no code). */
  | { kind: "final" };

/**
 * The one retry policy: 408, 409, 429 and 5xx (the endpoint's own "try later"), an attempt that
 * fell silent, a dropped connection, a server not (yet) listening. Everything else fails at once.
 */
export function isRetryable(cause: Cause): boolean {
  switch (cause.kind) {
    case "status":
      if (cause.retry !== undefined) return cause.retry;
      return cause.status === 408 || cause.status === 409 || cause.status === 429 || cause.status >= 500;
    case "silence":
    case "dropped":
    case "unreachable":
      return true;
    case "final":
      return false;
  }
}

/** One failed attempt, as the retry loop needs it. */
export interface Failure {
  /** What the run fails with when this attempt was the last. */
  error: Error;
  cause: Cause;
  /** The response's headers, for `retry-after`. */
  headers: Headers | undefined;
}

export interface FailureContext {
  /** The base URL as it may be printed. */
  where: string;
  baseUrl: string;
  /** The model asked for: a 404 that names it is about the model, not the URL. Empty when asking for the list of models. */
  model: string;
  /** The request was `GET /models` (model-list.ts), not Chat Completions: it carries no session. */
  listing?: true;
  profile: ProviderProfile;
  /** Removes the key and the URL's credentials from anything printed. */
  scrub: (text: string) => string;
  printed: PrintedFilter;
}

/** `ECONNREFUSED` and friends, from an error or its cause. */
function systemCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = errorCode(e);
    if (/^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

/** What to try when nothing listens at the URL: start the server the profile names. */
function notListeningHint(ctx: FailureContext): string {
  const local = ctx.profile.local;
  if (local) return `; is ${ctx.profile.name} running? It is usually started with \`${local.start}\``;
  return URL.canParse(ctx.baseUrl) && isLoopbackHost(new URL(ctx.baseUrl).hostname)
    ? "; nothing is listening there: is the server running?"
    : "";
}

/**
 * OpenAI-compatible servers serve under /v1 (Google's under /v1beta/openai): a 404 from a base URL
 * without it says why, with the URL to try (the query kept where it was). A 404 that names the
 * model or a deployment is about the model (Ollama's "model 'x' not found", Azure's
 * DeploymentNotFound): the URL was right.
 */
function missingVersionHint(ctx: FailureContext, message: string): string {
  if (!URL.canParse(ctx.baseUrl)) return "";
  if (/\bmodel\b|deployment/i.test(message) || (ctx.model !== "" && message.includes(ctx.model))) return "";
  const url = new URL(ctx.baseUrl);
  if (/\/v\d/.test(url.pathname)) return "";
  url.pathname = url.pathname.replace(/\/?$/, "/v1");
  return `; the base URL has no /v1, under which OpenAI-compatible endpoints serve (try ${describeUrl(url.href)})`;
}

/** Redirects, and why each is not followed. */
const REDIRECTS: ReadonlyMap<number, string> = new Map([
  [301, "it would turn the request into a GET"],
  [302, "it would turn the request into a GET"],
  [303, "it would turn the request into a GET"],
  [307, "the session would go to a URL you did not give"],
  [308, "the session would go to a URL you did not give"],
]);

/**
 * A redirect is never followed: 301, 302 and 303 turn the POST into a GET (the endpoint then says
 * "405 Method Not Allowed"), and any redirect sends the session somewhere the user did not name.
 * The message names where it points; the base URL to use is that, without `/chat/completions`
 * (or `/models`, when the list of models was asked for: it is asked only of the URL given too).
 */
function redirectFailure(status: number, headers: Headers | undefined, ctx: FailureContext): Failure {
  const location = headers?.get("location");
  const target = location && URL.canParse(location, ctx.baseUrl) ? new URL(location, ctx.baseUrl) : undefined;
  let detail = location ? "to a Location that is not a URL" : "with no Location to follow";
  if (target) {
    const base = new URL(target.href);
    base.pathname = base.pathname.replace(/\/(?:chat\/completions|models)\/?$/, "");
    const why = (ctx.listing ? undefined : REDIRECTS.get(status)) ?? "redirects are not followed";
    // Without the URL's credentials and query values; scrubbed too: an endpoint may put the key in a path.
    detail = ctx.scrub(`to ${describeUrl(target.href)}; not followed (${why}): use --base-url ${describeUrl(base.href)}`);
  }
  return {
    error: new AgentError("HANDOFF_FAILED", `${ctx.where} redirected the request (${status}) ${detail}`),
    cause: { kind: "final" },
    headers,
  };
}

/**
 * What an error response means: core's recoverable refusals (the window, one parameter), the
 * endpoint's own messages, and whether trying again may help. `inBand`: the error came inside a
 * 200 response (a JSON body or a stream event, as OpenRouter documents), `status` is its code.
 */
function fromResponse(status: number, raw: string, headers: Headers | undefined, ctx: FailureContext, inBand = false): Failure {
  if (REDIRECTS.has(status)) return redirectFailure(status, headers, ctx);
  const read = readErrorBody(raw);
  // An error inside a 200 without a code of its own is said without a status.
  // Scrubbed again once read: a message unwrapped from a gateway's escaped JSON was not plain text before.
  const summary = ctx.scrub(
    inBand && status === 200 ? shapeErrorText(read.message ?? raw, ctx.printed) : summarizeErrorBody(status, raw, ctx.printed),
  );
  const answered = inBand ? `${ctx.where} sent an error in its 200 answer: ${summary}` : `${ctx.where} answered ${summary}`;
  const refusal = classifyRefusal(status, read.classifiable);
  if (refusal?.kind === "context_length")
    return {
      error: new CompletionError("context_length", `the request is larger than the model's context window (${summary})`),
      cause: { kind: "final" },
      headers,
    };
  if (refusal?.kind === "unsupported_parameter")
    return { error: new CompletionError("unsupported_parameter", answered, refusal.param), cause: { kind: "final" }, headers };
  if (status === 401)
    return {
      error: new AgentError("HANDOFF_FAILED", `${ctx.where} refused the API key (401); check OPENAI_API_KEY`),
      cause: { kind: "final" },
      headers,
    };
  if (status === 404 && !inBand)
    return {
      error: new AgentError("HANDOFF_FAILED", `${answered}${missingVersionHint(ctx, read.message ?? raw)}`),
      cause: { kind: "final" },
      headers,
    };
  return {
    error: new AgentError("HANDOFF_FAILED", answered),
    cause: status >= 400 ? { kind: "status", status } : { kind: "final" },
    headers,
  };
}

/**
 * An error that came in a 200 answer: the whole body (OpenRouter: "any error occurred while the
 * LLM is producing the output will be emitted in the response body or as an SSE data event",
 * https://openrouter.ai/docs/api/reference/errors-and-debugging), or one event of the stream.
 * Its code, when it is an HTTP status, stands for the status. Without one, an event mid-stream
 * is an answer broken off (tried again, like a dropped connection); a whole body is not retried.
 */
export function describeInBandError(body: string, ctx: FailureContext, midStream: boolean): Failure {
  const raw = ctx.scrub(body);
  const { code } = readErrorBody(raw);
  const status = code !== undefined && code >= 400 && code <= 599 ? code : 200;
  const failure = fromResponse(status, raw, undefined, ctx, true);
  return status === 200 && midStream && failure.cause.kind === "final" ? { ...failure, cause: { kind: "dropped" } } : failure;
}

/** A 200 whose body is neither a stream nor an error: the endpoint ignored `stream: true`, or is something else. */
export function describeNotAStream(contentType: string, ctx: FailureContext): Failure {
  const kind = contentType === "" ? "no content type" : shapeErrorText(ctx.scrub(contentType), ctx.printed);
  return {
    error: new AgentError(
      "HANDOFF_FAILED",
      `${ctx.where} answered 200 with ${kind}, not an event stream (does it stream Chat Completions?)`,
    ),
    cause: { kind: "final" },
    headers: undefined,
  };
}

/**
 * OpenAI's `x-should-retry: true|false` says whether the same request may succeed later, and is
 * obeyed (as its SDK did) over the status's own rule. Not for a redirect or a refusal core
 * recovers from by changing the request: those are never sent again as they were.
 */
function obeyShouldRetry(failure: Failure, error: StatusError): Failure {
  const header = error.headers.get("x-should-retry");
  if (header !== "true" && header !== "false") return failure;
  if (failure.error instanceof CompletionError || REDIRECTS.has(error.status)) return failure;
  return { ...failure, cause: { kind: "status", status: error.status, retry: header === "true" } };
}

/**
 * Turns a failed request (http.ts) into what core understands (recoverable `CompletionError`s, or
 * an `AgentError` saying what happened without the key) and its cause, for the retry policy.
 */
export function describeFailure(error: unknown, ctx: FailureContext): Failure {
  if (error instanceof StatusError)
    // Scrubbed whole before it is read: a cut must not leave half a key behind.
    return obeyShouldRetry(fromResponse(error.status, ctx.scrub(error.body ?? "status code (no body)"), error.headers, ctx), error);
  if (error instanceof EventNotJsonError)
    return {
      error: new AgentError(
        "HANDOFF_FAILED",
        `${ctx.where} sent a stream event that is not JSON: ${ctx.scrub(shapeErrorText(ctx.scrub(error.data), ctx.printed))}`,
      ),
      cause: { kind: "final" },
      headers: undefined,
    };
  // An error event inside the stream (OpenRouter sends these with status 200).
  if (error instanceof EventError) return describeInBandError(JSON.stringify({ error: error.error }), ctx, true);
  // The answer's content-encoding did not undo (a proxy that labels a plain body gzip): no retry will change it.
  if (error instanceof DecompressionError)
    return {
      error: new AgentError(
        "HANDOFF_FAILED",
        `${ctx.where} sent a compressed answer that does not decompress (content-encoding: ${shapeErrorText(ctx.scrub(error.encoding), ctx.printed)})`,
      ),
      cause: { kind: "final" },
      headers: undefined,
    };
  const runtimeCode = errorCode(error instanceof ConnectionError ? error.cause : error);
  // Something else listens there (SSH, a database, TLS on a plain-HTTP URL): no retry will change it.
  if (/^Malformed_HTTP/i.test(runtimeCode))
    return {
      error: new AgentError("HANDOFF_FAILED", `${ctx.where} answered with something that is not HTTP (is it the right port?)`),
      cause: { kind: "final" },
      headers: undefined,
    };
  // A certificate does not change between attempts: said at once, with how to trust its CA.
  const refused = error instanceof ConnectionError ? certificateRefusal(ctx.where, runtimeCode) : undefined;
  if (refused) return { error: new AgentError("HANDOFF_FAILED", refused), cause: { kind: "final" }, headers: undefined };
  const code = systemCode(error);
  // TLS asked of a server that answers in plain HTTP (a local server given as https://): no retry will change it.
  if (error instanceof ConnectionError && code === "EPROTO" && /^https:/i.test(ctx.baseUrl))
    return {
      error: new AgentError(
        "HANDOFF_FAILED",
        `could not reach ${ctx.where}: the TLS handshake failed (EPROTO); a server that speaks plain HTTP takes http://, not https://`,
      ),
      cause: { kind: "final" },
      headers: undefined,
    };
  if (error instanceof ConnectionError) {
    // The runtime's own words for a connection that timed out (a connect timeout, a proxy's).
    if (/timed? ?out/i.test(String(error.cause)))
      return {
        error: new AgentError("HANDOFF_FAILED", `${ctx.where} did not answer in time`),
        cause: { kind: "silence" },
        headers: undefined,
      };
    const detail = code ? ` (${code})` : `: ${ctx.scrub(shapeErrorText(ctx.scrub(errorMessage(error.cause ?? error)), ctx.printed))}`;
    const unknownHost = code === "ECONNREFUSED" || code === "ENOTFOUND";
    return {
      error: new AgentError("HANDOFF_FAILED", `could not reach ${ctx.where}${detail}${unknownHost ? notListeningHint(ctx) : ""}`),
      cause: { kind: "unreachable" },
      headers: undefined,
    };
  }
  // The connection broke while the answer streamed in (the runtime's own words say only how).
  if (code)
    return {
      error: new AgentError("HANDOFF_FAILED", `the connection to ${ctx.where} broke before the model finished (${code})`),
      cause: { kind: "dropped" },
      headers: undefined,
    };
  return {
    error: new AgentError("HANDOFF_FAILED", ctx.scrub(shapeErrorText(ctx.scrub(errorMessage(error)), ctx.printed))),
    cause: { kind: "final" },
    headers: undefined,
  };
}
