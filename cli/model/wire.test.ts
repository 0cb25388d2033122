/**
 * What an endpoint can send, byte for byte (fixtures/raw-http.ts), and what the user reads: the
 * stream's framing (CRLF, a BOM, comments, no `[DONE]`, gzip), a stream cut mid-event, a server
 * that never answers or resets, an answer that is not HTTP, a body that does not decompress, an
 * endpoint that asks (`x-should-retry`) to be tried again or not. Every message names the endpoint
 * and never holds the key, even when the server echoes it back.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createConsola } from "consola/core";
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from "node:zlib";
import { errorMessage, PROFILES } from "../../core/index.ts";
import { chunked, response, startRawServer, type RawAnswer, type RawServer } from "../../fixtures/raw-http.ts";
import { PrintedFilter } from "../output/printed.ts";
import { createModelPort } from "./model.ts";

const KEY = "sk-wire-test-0123456789abcdef";
const event = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
const delta = (content: string, finish: string | null = null) =>
  event({ model: "m", choices: [{ index: 0, delta: { content }, finish_reason: finish }] });
const ANSWER = delta("## Goal\n") + delta("done", "stop");
const STREAM = { "content-type": "text/event-stream", "transfer-encoding": "chunked" };
const sse = (pieces: string[], open = false) => response(STREAM, chunked(pieces, open));
const status = (line: string, headers: Record<string, string>, body: string) =>
  `HTTP/1.1 ${line}\r\n${Object.entries({ ...headers, "content-length": String(Buffer.byteLength(body)) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n${body}`;
const FINISHED = `${ANSWER}data: [DONE]\n\n`;
/** Each content coding we undo (HTTP's `deflate` is the zlib format), and the answer in it. */
const ENCODED: Record<string, Uint8Array> = {
  gzip: gzipSync(FINISHED),
  "x-gzip": gzipSync(FINISHED),
  deflate: deflateSync(FINISHED),
  br: brotliCompressSync(FINISHED),
  zstd: zstdCompressSync(FINISHED),
  "gzip, br": brotliCompressSync(gzipSync(FINISHED)),
  GZIP: gzipSync(FINISHED),
};
const encodedAnswer = (encoding: string, body: Uint8Array | string): RawAnswer => ({
  bytes: response(
    { "content-type": "text/event-stream", "content-encoding": encoding, "content-length": String(Buffer.byteLength(body)) },
    body,
  ),
  after: "end",
});

let server: RawServer | undefined;
afterEach(() => {
  server?.stop();
  server = undefined;
});

/** One request through the port with one retry: the answer or the message ("URL" for the endpoint), and how many requests came. */
async function complete(answer: (index: number) => RawAnswer, scheme = "http") {
  server = startRawServer(answer);
  const baseUrl = server.url.replace(/^http:/, `${scheme}:`);
  const logger = createConsola({ level: 0, reporters: [] });
  const port = createModelPort({
    apiKey: KEY,
    printed: new PrintedFilter(),
    baseUrl,
    timeoutMs: 1000,
    retries: 1,
    logger,
    profile: PROFILES.generic,
  });
  let result: string;
  try {
    const completion = await port({ model: "m", messages: [{ role: "user", content: "hand off" }], stream: true }, {});
    result = `${completion.finishReason}: ${completion.text}`;
  } catch (error) {
    result = `error: ${errorMessage(error)}`;
  }
  expect(result).not.toContain(KEY);
  return { result: result.split(baseUrl).join("URL"), requests: server.requests() };
}

describe("the stream's framing, however it comes: the answer", () => {
  test.each<[string, RawAnswer]>([
    ["no data: [DONE]", { bytes: sse([ANSWER]), after: "end" }],
    ["CRLF line ends", { bytes: sse([ANSWER.replaceAll("\n", "\r\n")]), after: "end" }],
    ["CR line ends", { bytes: sse([ANSWER.replaceAll("\n", "\r")]), after: "end" }],
    ["a byte order mark first", { bytes: sse([`\uFEFF${ANSWER}`]), after: "end" }],
    [
      "comments between events (: keep-alive)",
      { bytes: sse([`: keep-alive\n\n${delta("## Goal\n")}`, ": ping\n", `\n${delta("done", "stop")}`]), after: "end" },
    ],
    ["every byte in a chunk of its own", { bytes: sse([...ANSWER]), after: "end" }],
    ...Object.entries(ENCODED).map(([encoding, body]): [string, RawAnswer] => [
      `content-encoding: ${encoding}`,
      encodedAnswer(encoding, body),
    ]),
    ["chunked gzip", { bytes: response({ ...STREAM, "content-encoding": "gzip" }, chunked([ENCODED.gzip ?? ""])), after: "end" }],
    ["the last event without its blank line", { bytes: sse([delta("## Goal\n"), delta("done", "stop").trimEnd()]), after: "end" }],
  ])("%s", async (_, answer) => {
    expect(await complete(() => answer)).toEqual({ result: "stop: ## Goal\ndone", requests: 1 });
  });
});

describe("what goes wrong: said in plain words, naming the endpoint; tried again only when it may help", () => {
  test.each<[string, RawAnswer, string, number]>([
    [
      "a stream cut mid-event",
      { bytes: sse([delta("## Goal\n"), 'data: {"choices":[{"delta":{"content":"x"'], true), after: "end" },
      "error: the connection to URL broke before the model finished (ECONNRESET) (gave up after 2 attempts)",
      2,
    ],
    [
      "a stream that ends cleanly before a finish reason",
      { bytes: sse([delta("## Goal\n")]), after: "end" },
      "error: the stream from URL ended before the model finished (connection cut?) (gave up after 2 attempts)",
      2,
    ],
    [
      "headers that never come",
      { after: "hang" },
      "error: URL sent nothing for 0.5s, its share of --timeout 1s (gave up after 2 attempts)",
      2,
    ],
    ["a reset before any answer", { after: "reset" }, "error: could not reach URL (ECONNRESET) (gave up after 2 attempts)", 2],
    [
      "an answer that is not HTTP (another service on the port)",
      { bytes: "SSH-2.0-OpenSSH_9.6\r\n\r\n", after: "hang" },
      "error: URL answered with something that is not HTTP (is it the right port?)",
      1,
    ],
    ...["gzip", "deflate", "br", "zstd", "gzip, br"].map((encoding): [string, RawAnswer, string, number] => [
      `a plain body labelled ${encoding}`,
      encodedAnswer(encoding, "notcompressed"),
      `error: URL sent a compressed answer that does not decompress (content-encoding: ${encoding})`,
      1,
    ]),
    [
      "a gzip stream cut by a reset: the connection's failure, not the encoding's",
      {
        bytes: response({ ...STREAM, "content-encoding": "gzip" }, chunked([(ENCODED.gzip ?? new Uint8Array()).subarray(0, 20)], true)),
        after: "reset",
      },
      "error: the connection to URL broke before the model finished (ECONNRESET) (gave up after 2 attempts)",
      2,
    ],
    [
      "an event that is not JSON",
      { bytes: sse(["data: {oops\n\n"]), after: "end" },
      "error: URL sent a stream event that is not JSON: {oops",
      1,
    ],
    [
      "a proxy's HTML page with a 502",
      {
        bytes: status("502 Bad Gateway", { "content-type": "text/html" }, "<html><body><h1>502 Bad Gateway</h1></body></html>"),
        after: "end",
      },
      "error: URL answered 502 Bad Gateway (gave up after 2 attempts)",
      2,
    ],
    [
      "an error body that is not JSON, the key echoed in it",
      { bytes: status("400 Bad Request", { "content-type": "text/plain" }, `bad key: Bearer ${KEY}`), after: "end" },
      "error: URL answered 400 bad key: Bearer [withheld]",
      1,
    ],
    [
      "a 200 holding an error object",
      { bytes: response({ "content-type": "application/json" }, '{"error":{"message":"quota exceeded"}}'), after: "end" },
      "error: URL sent an error in its 200 answer: quota exceeded",
      1,
    ],
    [
      "an error event mid-stream, the key echoed in it",
      { bytes: sse([delta("## Goal\n"), event({ error: { message: `invalid key ${KEY}` } })]), after: "end" },
      "error: URL sent an error in its 200 answer: invalid key [withheld] (gave up after 2 attempts)",
      2,
    ],
    [
      "a 500 with x-should-retry: false: not tried again",
      { bytes: status("500 Internal Server Error", { "x-should-retry": "false" }, "{}"), after: "end" },
      "error: URL answered 500 {}",
      1,
    ],
    [
      // A proxy that streams an error page without end: read up to the bound, not until --timeout.
      "a 400 whose body never ends",
      {
        bytes: `HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n${new TextDecoder().decode(
          chunked(
            Array.from({ length: 40 }, () => "bad request ".repeat(200)),
            true,
          ),
        )}`,
        after: "hang",
      },
      `error: URL answered 400 ${"bad request ".repeat(200).slice(0, 299)}…`,
      1,
    ],
    [
      "a 400 with x-should-retry: true: tried again",
      { bytes: status("400 Bad Request", { "x-should-retry": "true" }, "{}"), after: "end" },
      "error: URL answered 400 {} (gave up after 2 attempts)",
      2,
    ],
  ])("%s", async (_, answer, result, requests) => {
    expect(await complete(() => answer)).toEqual({ result, requests });
  });
});

test("https:// to a server that speaks plain HTTP: said, with the scheme to try, not tried again", async () => {
  const plain: RawAnswer = { bytes: status("400 Bad Request", {}, "not TLS"), after: "end", atFirstBytes: true };
  expect(await complete(() => plain, "https")).toEqual({
    result: "error: could not reach URL: the TLS handshake failed (EPROTO); a server that speaks plain HTTP takes http://, not https://",
    requests: 1,
  });
});
