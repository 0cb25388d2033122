/**
 * One request to an OpenAI-compatible endpoint over `fetch`: the URL built from the base URL, our
 * headers, redirects never followed, and three ways it can fail that model-failure.ts words. It
 * replaced the `openai` SDK, whose module set-up, request building and stream transforms cost
 * the 1 MB handoff about 10 ms of CPU (issue 23, docs/engines.md#the-http-client).
 */
import { accountHeaders, type Account } from "./account.ts";
import { decodeResponse } from "./decompress.ts";

/** The endpoint answered with a status other than 2xx (a redirect included): its status, headers and body as they came. */
export class StatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** The body as text; undefined when it could not be read. */
    readonly body: string | undefined,
  ) {
    super(`${status} ${body === undefined || body === "" ? "status code (no body)" : body}`);
  }
}

/** `fetch` failed before any answer: nothing listens, the host is unknown, TLS failed. The runtime's error is the cause. */
export class ConnectionError extends Error {
  constructor(cause: unknown) {
    super("Connection error.", { cause });
  }
}

/** An event of the stream that carries an error (OpenRouter, vLLM): its `error` object, or the event's data for an `event: error`. */
export class EventError extends Error {
  constructor(readonly error: unknown) {
    super("the stream sent an error");
  }
}

/** An event of the stream whose data is not JSON: the data as it came. */
export class EventNotJsonError extends Error {
  constructor(readonly data: string) {
    super("a stream event is not JSON");
  }
}

/**
 * `<base URL><path>`, as OpenAI's clients build it: the path goes after the base URL's path, and
 * a query on the base URL (Azure's `?api-version=`) stays a query, after it.
 */
export function endpointUrl(baseUrl: string, path: string): string {
  if (!baseUrl.includes("?")) return `${baseUrl.endsWith("/") ? baseUrl.slice(0, -1) : baseUrl}${path}`;
  const base = new URL(baseUrl);
  const query = base.search;
  base.search = "";
  base.hash = "";
  const url = new URL(`${base.href.endsWith("/") ? base.href.slice(0, -1) : base.href}${path}`);
  url.search = query;
  return url.href;
}

export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  apiKey: string | undefined;
  /** OpenAI's organization and project headers, when set (account.ts). */
  account?: Account;
  /** The JSON body, already encoded. */
  body?: string;
  signal: AbortSignal;
}

/**
 * Sends one request and waits for its headers. A 2xx comes back to be read; any other status is
 * a `StatusError` with its body read whole (endpoints explain themselves there); a request that
 * got no answer is a `ConnectionError`, or the abort itself when the signal ended it.
 */
export async function send(request: HttpRequest): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: "application/json",
        // What Bun asks for by itself, but not with `decompress: false`; decompress.ts undoes each.
        "accept-encoding": "gzip, deflate, br, zstd",
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        // Local servers (Ollama, llama.cpp) take no key; a placeholder keeps the header's shape for proxies that want one.
        authorization: `Bearer ${request.apiKey ?? "no-key"}`,
        ...accountHeaders(request.account),
      },
      body: request.body,
      redirect: "manual",
      signal: request.signal,
      // We undo the content-encoding ourselves (decompress.ts): Bun's own prints to stderr when it fails.
      decompress: false,
    }).then(decodeResponse);
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw new ConnectionError(error);
  }
  if (response.status >= 200 && response.status < 300) return response;
  throw new StatusError(response.status, response.headers, await errorBodyOf(response));
}

/** An endpoint explains a refusal in a few lines; a proxy's error page that never ends is read no further. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/** The start of a refusal's body, at most `ERROR_BODY_LIMIT` bytes; undefined when it could not be read. */
async function errorBodyOf(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      size += read.value.byteLength;
      if (size >= ERROR_BODY_LIMIT) {
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } catch {
    if (size === 0) return undefined;
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, ERROR_BODY_LIMIT));
}
