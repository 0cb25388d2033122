import { PrintedFilter } from "../output/printed.ts";
/**
 * The model port in-process, against a real HTTP fake: what each way an endpoint can fail
 * becomes (the one line a user reads), and which of them are tried again (one retry policy).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createConsola } from "consola/core";
import { errorMessage, PROFILES, type ChatRequest } from "../../core/index.ts";
import { startDroppingServer, type DroppingServer } from "../../fixtures/fake-dropping.ts";
import { CANNED_DOCUMENT, startFakeOpenAI, type FakeReply, type FakeServer } from "../../fixtures/fake-openai.ts";
import { silenceLimitMs } from "./endpoint.ts";
import { createModelPort } from "./model.ts";
import { isRetryable, type Cause } from "./model-failure.ts";

const REQUEST: ChatRequest = { model: "qwen3:8b", messages: [{ role: "user", content: "hand off" }], stream: true };

let servers: FakeServer[] = [];
let dropping: DroppingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const server of dropping) server.stop();
  [servers, dropping] = [[], []];
});

function serve(replies: FakeReply[]): FakeServer {
  const server = startFakeOpenAI((_, i) => replies[Math.min(i, replies.length - 1)] ?? { text: CANNED_DOCUMENT }, { anyPath: true });
  servers.push(server);
  return server;
}

/** Runs one request through the port; the answer's text or the error's message, the retry lines, and the requests made. */
async function complete(baseUrl: string, options: { retries?: number; timeoutMs?: number } = {}) {
  const debug: string[] = [];
  const logger = createConsola({ level: 4, reporters: [{ log: (entry) => debug.push(entry.args.map(String).join(" ")) }] });
  const port = createModelPort({
    apiKey: "sk-port-test-0123456789",
    printed: new PrintedFilter(),
    baseUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 0,
    logger,
    profile: PROFILES.generic,
  });
  try {
    const completion = await port(REQUEST, {});
    return { result: `text: ${completion.text.slice(0, 7)}`, debug };
  } catch (error) {
    return { result: `error: ${errorMessage(error)}`, debug };
  }
}

const MID_STREAM_ERROR = {
  id: "x",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  provider: "p",
  error: { code: "server_error", message: "Provider disconnected unexpectedly" },
  choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
};

describe("an error inside a 200 answer: its own message, retried by its code", () => {
  test.each<[string, FakeReply, number, string]>([
    [
      "a JSON error body with a code (OpenRouter's credits)",
      {
        rawBody: `{"error":{"message":"Insufficient credits. Add more using https://openrouter.ai/settings/credits","code":402}}`,
        contentType: "application/json",
      },
      1,
      "sent an error in its 200 answer: 402 Insufficient credits. Add more using https://openrouter.ai/settings/credits",
    ],
    [
      "a JSON error body with a 5xx code",
      { rawBody: `{"error":{"message":"upstream down","code":502}}`, contentType: "application/json" },
      2,
      "sent an error in its 200 answer: 502 upstream down (gave up after 2 attempts)",
    ],
    [
      "a JSON error body without a code",
      { rawBody: `{"error":{"message":"no such model"}}`, contentType: "application/json" },
      1,
      "sent an error in its 200 answer: no such model",
    ],
    [
      "a JSON body that is not an error",
      { rawBody: `{"id":"x","object":"chat.completion","choices":[]}`, contentType: "application/json; charset=utf-8" },
      1,
      "answered 200 with application/json; charset=utf-8, not an event stream (does it stream Chat Completions?)",
    ],
    [
      "a page (a captive portal)",
      { rawBody: "<html><title>Sign in to the Wi-Fi</title></html>", contentType: "text/html" },
      1,
      "answered 200 with text/html, not an event stream (does it stream Chat Completions?)",
    ],
    [
      "an error event mid-stream (OpenRouter's documented shape): an answer broken off",
      { text: CANNED_DOCUMENT, eventAfterFirstChunk: MID_STREAM_ERROR },
      2,
      "sent an error in its 200 answer: Provider disconnected unexpectedly (gave up after 2 attempts)",
    ],
    [
      "an error event mid-stream with a 429 code",
      { text: CANNED_DOCUMENT, eventAfterFirstChunk: { error: { code: 429, message: "rate limited upstream" } } },
      2,
      "sent an error in its 200 answer: 429 rate limited upstream (gave up after 2 attempts)",
    ],
    [
      "an error event mid-stream with a 400 code",
      { text: CANNED_DOCUMENT, eventAfterFirstChunk: { error: { code: 400, message: "bad request upstream" } } },
      1,
      "sent an error in its 200 answer: 400 bad request upstream",
    ],
    [
      "vLLM's error event",
      {
        text: CANNED_DOCUMENT,
        eventAfterFirstChunk: { object: "error", error: { message: "engine dead", type: "InternalServerError", code: 500 } },
      },
      2,
      "sent an error in its 200 answer: 500 engine dead (gave up after 2 attempts)",
    ],
    [
      "a named error event (`event: error`, in Anthropic's shape): an answer broken off",
      {
        rawBody: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
        contentType: "text/event-stream",
      },
      2,
      "sent an error in its 200 answer: Overloaded (gave up after 2 attempts)",
    ],
    [
      "a named error event with a 4xx code in its data",
      { rawBody: 'event: error\ndata: {"message":"bad tool schema","code":400}\n\n', contentType: "text/event-stream" },
      1,
      "sent an error in its 200 answer: 400 bad tool schema",
    ],
  ])("%s", async (_, reply, requests, message) => {
    const server = serve([{ ...reply, headers: { "retry-after": "0" } }]);
    const { result } = await complete(server.url, { retries: 1 });
    expect(result).toBe(`error: ${server.url} ${message}`);
    expect(server.requests).toHaveLength(requests);
  });
});

test("a gateway's wrapped error, the key escaped inside it: unwrapped, named, and the key withheld", async () => {
  const inner = '{"error":{"message":"Incorrect API key provided: sk-port-test-0123456789"}}';
  const server = serve([
    {
      status: 401,
      rawBody: JSON.stringify({
        error: { code: 401, message: "Provider returned error", metadata: { raw: inner, provider_name: "Upstream" } },
      }),
      contentType: "application/json",
    },
  ]);
  const { result } = await complete(server.url);
  expect(result).toBe(`error: ${server.url} refused the API key (401); check OPENAI_API_KEY`);
  const wrapped400 = serve([
    {
      status: 400,
      rawBody: JSON.stringify({
        error: { code: 400, message: "Provider returned error", metadata: { raw: inner, provider_name: "Upstream" } },
      }),
      contentType: "application/json",
    },
  ]);
  expect((await complete(wrapped400.url)).result).toBe(
    `error: ${wrapped400.url} answered 400 Upstream: Incorrect API key provided: [withheld]`,
  );
});

describe("a connection that breaks or a stream that stops: tried again, said in our words", () => {
  test("a connection torn down mid-stream: retried, then the attempts counted, in our words (not the runtime's)", async () => {
    const server = startDroppingServer(99);
    dropping.push(server);
    const { result, debug } = await complete(server.url, { retries: 2 });
    const said = `the connection to ${server.url} broke before the model finished (ECONNRESET)`;
    expect(result).toBe(`error: ${said} (gave up after 3 attempts)`);
    expect(result).not.toContain("verbose: true");
    expect(server.requests()).toBe(3);
    expect(debug.filter((line) => line.startsWith("attempt ") && line.includes(said))).toHaveLength(2);
  });

  test("a connection torn down once, then an answer: the answer", async () => {
    const server = startDroppingServer(1);
    dropping.push(server);
    expect((await complete(server.url, { retries: 1 })).result).toBe("text: ## Goal");
    expect(server.requests()).toBe(2);
  });

  test("a stream that ends before a finish reason: retried, then the attempts counted", async () => {
    const server = serve([{ text: CANNED_DOCUMENT, cutBeforeFinish: true }]);
    const { result } = await complete(server.url, { retries: 2 });
    expect(result).toBe(
      `error: the stream from ${server.url} ended before the model finished (connection cut?) (gave up after 3 attempts)`,
    );
    expect(server.requests).toHaveLength(3);
  });

  test.each<[string, FakeReply]>([["cut once", { text: CANNED_DOCUMENT, cutBeforeFinish: true }]])(
    "%s, then answered: the answer",
    async (_, reply) => {
      const server = serve([reply, { text: CANNED_DOCUMENT }]);
      expect((await complete(server.url, { retries: 1 })).result).toBe("text: ## Goal");
      expect(server.requests).toHaveLength(2);
    },
  );

  test("an attempt that falls silent is given up after its share of --timeout, and tried again", async () => {
    const server = serve([{ text: CANNED_DOCUMENT, hangAfterFirstChunk: true }, { text: CANNED_DOCUMENT }]);
    const { result, debug } = await complete(server.url, { retries: 1, timeoutMs: 600 });
    expect(result).toBe("text: ## Goal");
    expect(server.requests).toHaveLength(2);
    expect(debug[0]).toStartWith(`attempt 1 of 2 failed: ${server.url} sent nothing for 0.3s, its share of --timeout 0.6s; retrying in`);
  });
});

test("a stream event that is not JSON: said as such, not tried again", async () => {
  const server = serve([{ rawBody: "data: {not json\n\n", contentType: "text/event-stream" }]);
  expect((await complete(server.url, { retries: 2 })).result).toBe(`error: ${server.url} sent a stream event that is not JSON: {not json`);
  expect(server.requests).toHaveLength(1);
});

describe("a redirect is never followed: the message names where it points and the base URL to use", () => {
  test.each<[string, number, (target: string) => string, (target: string) => string]>([
    [
      "301 (http to https, say)",
      301,
      (t) => `${t}/v1/chat/completions`,
      (t) =>
        `redirected the request (301) to ${t}/v1/chat/completions; not followed (it would turn the request into a GET): use --base-url ${t}/v1`,
    ],
    [
      "302",
      302,
      (t) => `${t}/api/v1/chat/completions`,
      (t) =>
        `redirected the request (302) to ${t}/api/v1/chat/completions; not followed (it would turn the request into a GET): use --base-url ${t}/api/v1`,
    ],
    [
      "307 to another host",
      307,
      (t) => `${t}/v1/chat/completions`,
      (t) =>
        `redirected the request (307) to ${t}/v1/chat/completions; not followed (the session would go to a URL you did not give): use --base-url ${t}/v1`,
    ],
    [
      "308 with a key in the query",
      308,
      (t) => `${t}/v1/chat/completions?key=SECRET-IN-LOCATION`,
      (t) =>
        `redirected the request (308) to ${t}/v1/chat/completions?key=***; not followed (the session would go to a URL you did not give): use --base-url ${t}/v1?key=***`,
    ],
    [
      "301 with the API key in the path, and credentials",
      301,
      (t) => `${t.replace("http://", "http://user:pw@")}/sk-port-test-0123456789/v1/chat/completions`,
      (t) =>
        `redirected the request (301) to ${t}/[withheld]/v1/chat/completions; not followed (it would turn the request into a GET): use --base-url ${t}/[withheld]/v1`,
    ],
  ])("%s", async (_, status, location, message) => {
    const target = serve([{ text: CANNED_DOCUMENT }]);
    const origin = target.url.replace(/\/v1$/, "");
    const server = serve([{ status, rawBody: "", headers: { location: location(origin) } }]);
    const { result } = await complete(server.url, { retries: 2 });
    expect(result).toBe(`error: ${server.url} ${message(origin)}`);
    expect(target.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  test("a relative Location is read against the base URL; none at all is said", async () => {
    const relative = serve([{ status: 301, rawBody: "", headers: { location: "/v2/chat/completions" } }]);
    const odd = serve([{ status: 302, rawBody: "", headers: { location: "http://[bad" } }]);
    expect((await complete(odd.url)).result).toBe(`error: ${odd.url} redirected the request (302) to a Location that is not a URL`);
    const origin = relative.url.replace(/\/v1$/, "");
    expect((await complete(relative.url)).result).toBe(
      `error: ${relative.url} redirected the request (301) to ${origin}/v2/chat/completions; not followed (it would turn the request into a GET): use --base-url ${origin}/v2`,
    );
    const none = serve([{ status: 302, rawBody: "" }]);
    expect((await complete(none.url)).result).toBe(`error: ${none.url} redirected the request (302) with no Location to follow`);
  });
});

describe("the /v1 hint: only for a 404 about the URL, never one about the model", () => {
  test.each<[string, string, FakeReply, string]>([
    [
      "a route 404 on a base URL without /v1",
      "",
      { status: 404, rawBody: "404 page not found", contentType: "text/plain" },
      "answered 404 page not found; the base URL has no /v1, under which OpenAI-compatible endpoints serve (try ORIGIN/v1)",
    ],
    [
      "with a query: /v1 goes in the path, the value stays hidden",
      "?api-version=2024-10-21",
      { status: 404, rawBody: "404 page not found", contentType: "text/plain" },
      "answered 404 page not found; the base URL has no /v1, under which OpenAI-compatible endpoints serve (try ORIGIN/v1?api-version=***)",
    ],
    [
      "Ollama's model not found",
      "/api",
      { status: 404, error: { message: "model 'qwen3:8b' not found, try pulling it first" } },
      "answered 404 model 'qwen3:8b' not found, try pulling it first",
    ],
    [
      "Azure's missing deployment",
      "/openai/deployments/prod",
      {
        status: 404,
        error: {
          message:
            "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
          code: "DeploymentNotFound",
        },
      },
      "answered 404 The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
    ],
    [
      "a message naming the model asked for",
      "",
      { status: 404, error: { message: "no endpoints found for qwen3:8b" } },
      "answered 404 no endpoints found for qwen3:8b",
    ],
  ])("%s", async (_, suffix, reply, message) => {
    const server = serve([reply]);
    const origin = server.url.replace(/\/v1$/, "");
    const base = `${origin}${suffix}`;
    const shown = suffix.startsWith("?") ? `${origin}/?api-version=***` : suffix === "" ? `${origin}/` : base;
    const { result } = await complete(base);
    expect(result).toBe(`error: ${shown} ${message.replace("ORIGIN", origin)}`);
  });
});

describe("the retry policy", () => {
  test.each<[Cause, boolean]>([
    [{ kind: "status", status: 408 }, true],
    [{ kind: "status", status: 409 }, true],
    [{ kind: "status", status: 429 }, true],
    [{ kind: "status", status: 500 }, true],
    [{ kind: "status", status: 503 }, true],
    [{ kind: "status", status: 400 }, false],
    [{ kind: "status", status: 402 }, false],
    [{ kind: "status", status: 404 }, false],
    [{ kind: "silence" }, true],
    [{ kind: "dropped" }, true],
    [{ kind: "unreachable" }, true],
    [{ kind: "final" }, false],
  ])("%o: %p", (cause, retried) => {
    expect(isRetryable(cause)).toBe(retried);
  });

  test.each([
    [300_000, 2, 100_000],
    [300_000, 0, 300_000],
    [2000, 1, 1000],
    [600, 1, 300],
    // Many retries: still a minute each (a reasoning model may think that long before its first word).
    [300_000, 10, 60_000],
    // A short timeout: half of it, so there is room for a second attempt.
    [30_000, 2, 15_000],
    [30_000, 10, 15_000],
  ])("--timeout %dms, --retries %d: each attempt may be silent for %dms", (timeout, retries, silence) => {
    expect(silenceLimitMs(timeout, retries)).toBe(silence);
  });
});
