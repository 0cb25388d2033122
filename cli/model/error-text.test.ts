import { PrintedFilter } from "../output/printed.ts";
import { describe, expect, test } from "bun:test";
import { readErrorBody, shapeErrorText, summarizeErrorBody } from "./error-text.ts";

const NGINX_502 = `<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n`;
/** A long proxy page: 2,000 lines of markup, scripts and styles around one title. */
const LONG_PAGE = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error 502 &ndash; upstream &amp; friends timed out</title>\n<style>body { color: red; }</style>\n</head>\n<body>\n${'<div class="x"><p>filler line</p></div>\n'.repeat(2000)}<script>var a = "<h1>not this</h1>";</script>\n</body>\n</html>`;

describe("shapeErrorText", () => {
  test.each([
    ["nginx's 502 page: the status once", `502 ${NGINX_502}`, "502 Bad Gateway"],
    [
      "a 503 page whose title repeats the status",
      "503 <html><head><title>503 Service Temporarily Unavailable</title></head></html>",
      "503 Service Temporarily Unavailable",
    ],
    ["a plain text that starts with the status", "404 404 page not found", "404 page not found"],
    ["a text that is only the status", "502 502", "502"],
    ["a number that only starts like the status", "500 5000 tokens is too many", "500 5000 tokens is too many"],
    ["another status in the text", "502 503 from upstream", "502 503 from upstream"],
    ["a 2,000-line page: its title, entities decoded", `502 ${LONG_PAGE}`, "502 Error 502 – upstream & friends timed out"],
    [
      "a page without a title: its first heading",
      "503 <html><body><h1>Service <b>Unavailable</b></h1><p>try later</p></body></html>",
      "503 Service Unavailable",
    ],
    ["a page with only text", "500 <html><body><p>Something\n\n  broke</p><!-- secret comment --></body></html>", "500 Something broke"],
    [
      "an empty title falls back to the heading",
      "502 <html><head><title> </title></head><body><h1>Bad gateway</h1></body></html>",
      "502 Bad gateway",
    ],
    ["plain text over lines", "400 model 'nope'\ndoes not\r\nexist", "400 model 'nope' does not exist"],
    [
      "a JSON-ish message with angle brackets stays as it is",
      "400 expected <string> at messages[0]",
      "400 expected <string> at messages[0]",
    ],
    ["no status", "socket hang up", "socket hang up"],
    ["an empty body", "502 ", "502 (no text)"],
    ["numeric entities", "502 <title>caf&#233; &#x2014; down</title>", "502 café — down"],
  ])("%s", (_, text, expected) => {
    expect(shapeErrorText(text, new PrintedFilter())).toBe(expected);
  });

  test("a long text is cut to one line of at most 300 characters after the status", () => {
    const shaped = shapeErrorText(`500 ${"word ".repeat(500)}`, new PrintedFilter());
    expect(shaped.startsWith("500 word word")).toBe(true);
    expect(shaped.endsWith("…")).toBe(true);
    expect(shaped.length).toBe(4 + 300);
    expect(shaped).not.toContain("\n");
  });
});

describe("summarizeErrorBody: the message, whatever shape the provider wraps it in", () => {
  test.each([
    [
      "OpenAI",
      400,
      `{"error":{"message":"Unsupported parameter: 'max_tokens'","type":"invalid_request_error"}}`,
      "400 Unsupported parameter: 'max_tokens'",
    ],
    [
      "Anthropic",
      400,
      `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 5 tokens > 4 maximum"}}`,
      "400 prompt is too long: 5 tokens > 4 maximum",
    ],
    [
      "Google's array",
      400,
      `[{"error":{"code":400,"message":"The input token count (9) exceeds the maximum number of tokens allowed (4).","status":"INVALID_ARGUMENT"}}]`,
      "400 The input token count (9) exceeds the maximum number of tokens allowed (4).",
    ],
    [
      "vLLM's top-level message",
      400,
      `{"object":"error","message":"This model's maximum context length is 4 tokens.","type":"BadRequestError","code":400}`,
      "400 This model's maximum context length is 4 tokens.",
    ],
    [
      "LM Studio's string",
      400,
      `{"error":"Trying to keep the first 9 tokens when context the overflows."}`,
      "400 Trying to keep the first 9 tokens when context the overflows.",
    ],
    [
      "Mistral's object message",
      422,
      `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]},"type":"invalid_request_error"}`,
      `422 {"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}`,
    ],
    ["an error object without a message", 500, `{"error":{"code":"boom"}}`, `500 {"code":"boom"}`],
    ["an HTML page", 502, "<html><head><title>502 Bad Gateway</title></head></html>", "502 Bad Gateway"],
    // A gateway's wrapper around the provider's own error: the provider's message, named.
    [
      "OpenRouter, Mistral's refusal inside",
      400,
      JSON.stringify({
        error: {
          code: 400,
          message: "Provider returned error",
          metadata: {
            raw: JSON.stringify({
              object: "error",
              message: "Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9.",
              type: "invalid_request_error",
              param: null,
              code: null,
            }),
            provider_name: "Mistral",
          },
        },
      }),
      "400 Mistral: Tool call id was call_1 but must be a-z, A-Z, 0-9, with a length of 9.",
    ],
    [
      "OpenRouter, an OpenAI-shaped error inside",
      400,
      JSON.stringify({
        error: {
          code: 400,
          message: "Provider returned error",
          metadata: {
            raw: JSON.stringify({ error: { message: "This model's maximum context length is 32768 tokens." } }),
            provider_name: "DeepInfra",
          },
        },
      }),
      "400 DeepInfra: This model's maximum context length is 32768 tokens.",
    ],
    [
      "OpenRouter, plain text inside",
      429,
      JSON.stringify({
        error: {
          code: 429,
          message: "Provider returned error",
          metadata: { raw: "meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream.", provider_name: "Venice" },
        },
      }),
      "429 Venice: meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream.",
    ],
    [
      "OpenRouter, no provider named",
      502,
      JSON.stringify({ error: { code: 502, message: "Provider returned error", metadata: { raw: "upstream timed out" } } }),
      "502 upstream timed out",
    ],
    [
      "OpenRouter, metadata without raw (moderation)",
      403,
      JSON.stringify({
        error: {
          code: 403,
          message: 'Your input was flagged for "harassment".',
          metadata: { reasons: ["harassment"], provider_name: "x" },
        },
      }),
      `403 Your input was flagged for "harassment".`,
    ],
    ["plain text", 503, "upstream\nunavailable", "503 upstream unavailable"],
    ["empty", 500, "", "500 (no text)"],
  ])("%s", (_, status, body, expected) => {
    expect(summarizeErrorBody(status, body, new PrintedFilter())).toBe(expected);
  });
});

describe("readErrorBody: whether a body is an error, its code, and the text to classify it by", () => {
  const wrapped = JSON.stringify({
    error: {
      code: 400,
      message: "Provider returned error",
      metadata: { raw: '{"object":"error","message":"Unexpected role \'user\' after role \'tool\'"}', provider_name: "Mistral" },
    },
  });
  test.each([
    ["OpenRouter's error sent with status 200", `{"error":{"message":"Insufficient credits","code":402}}`, { isError: true, code: 402 }],
    [
      "an SSE error event's object",
      `{"error":{"code":"server_error","message":"Provider disconnected unexpectedly"}}`,
      { isError: true, code: undefined },
    ],
    ["vLLM's top-level error", `{"object":"error","message":"bad","type":"BadRequestError","code":400}`, { isError: true, code: 400 }],
    ["Google's array", `[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]`, { isError: true, code: 429 }],
    ["LM Studio's string", `{"error":"no model loaded"}`, { isError: true, code: undefined }],
    [
      "a completion, not an error",
      `{"id":"x","object":"chat.completion","choices":[{"message":{"role":"assistant","content":"hi"}}]}`,
      { isError: false, code: undefined },
    ],
    ["a body with only a message", `{"message":"hello"}`, { isError: false, code: undefined }],
    ["not JSON", "<html>oops</html>", { isError: false, code: undefined }],
  ])("%s", (_, body, expected) => {
    expect(readErrorBody(body)).toMatchObject(expected);
  });

  test("a gateway's wrapped body is classified by the provider's own text, unescaped", () => {
    const read = readErrorBody(wrapped);
    expect(read.classifiable).toContain(`"message":"Unexpected role 'user' after role 'tool'"`);
    expect(read.message).toBe("Mistral: Unexpected role 'user' after role 'tool'");
  });
});
