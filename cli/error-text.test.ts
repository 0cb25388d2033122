import { describe, expect, test } from "bun:test";
import { shapeErrorText, summarizeErrorBody } from "./error-text.ts";

const NGINX_502 = `<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n`;
/** A long proxy page: 2,000 lines of markup, scripts and styles around one title. */
const LONG_PAGE = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error 502 &ndash; upstream &amp; friends timed out</title>\n<style>body { color: red; }</style>\n</head>\n<body>\n${"<div class=\"x\"><p>filler line</p></div>\n".repeat(2000)}<script>var a = "<h1>not this</h1>";</script>\n</body>\n</html>`;

describe("shapeErrorText", () => {
  test.each([
    ["nginx's 502 page", `502 ${NGINX_502}`, "502 502 Bad Gateway"],
    ["a 2,000-line page: its title, entities decoded", `502 ${LONG_PAGE}`, "502 Error 502 – upstream & friends timed out"],
    ["a page without a title: its first heading", "503 <html><body><h1>Service <b>Unavailable</b></h1><p>try later</p></body></html>", "503 Service Unavailable"],
    ["a page with only text", "500 <html><body><p>Something\n\n  broke</p><!-- secret comment --></body></html>", "500 Something broke"],
    ["an empty title falls back to the heading", "502 <html><head><title> </title></head><body><h1>Bad gateway</h1></body></html>", "502 Bad gateway"],
    ["plain text over lines", "400 model 'nope'\ndoes not\r\nexist", "400 model 'nope' does not exist"],
    ["a JSON-ish message with angle brackets stays as it is", "400 expected <string> at messages[0]", "400 expected <string> at messages[0]"],
    ["no status", "socket hang up", "socket hang up"],
    ["an empty body", "502 ", "502 (no text)"],
    ["numeric entities", "502 <title>caf&#233; &#x2014; down</title>", "502 café — down"],
  ])("%s", (_, text, expected) => {
    expect(shapeErrorText(text)).toBe(expected);
  });

  test("a long text is cut to one line of at most 300 characters after the status", () => {
    const shaped = shapeErrorText(`500 ${"word ".repeat(500)}`);
    expect(shaped.startsWith("500 word word")).toBe(true);
    expect(shaped.endsWith("…")).toBe(true);
    expect(shaped.length).toBe(4 + 300);
    expect(shaped).not.toContain("\n");
  });
});

describe("summarizeErrorBody: the message, whatever shape the provider wraps it in", () => {
  test.each([
    ["OpenAI", 400, `{"error":{"message":"Unsupported parameter: 'max_tokens'","type":"invalid_request_error"}}`, "400 Unsupported parameter: 'max_tokens'"],
    ["Anthropic", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 5 tokens > 4 maximum"}}`, "400 prompt is too long: 5 tokens > 4 maximum"],
    ["Google's array", 400, `[{"error":{"code":400,"message":"The input token count (9) exceeds the maximum number of tokens allowed (4).","status":"INVALID_ARGUMENT"}}]`, "400 The input token count (9) exceeds the maximum number of tokens allowed (4)."],
    ["vLLM's top-level message", 400, `{"object":"error","message":"This model's maximum context length is 4 tokens.","type":"BadRequestError","code":400}`, "400 This model's maximum context length is 4 tokens."],
    ["LM Studio's string", 400, `{"error":"Trying to keep the first 9 tokens when context the overflows."}`, "400 Trying to keep the first 9 tokens when context the overflows."],
    ["Mistral's object message", 422, `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]},"type":"invalid_request_error"}`, `422 {"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}`],
    ["an error object without a message", 500, `{"error":{"code":"boom"}}`, `500 {"code":"boom"}`],
    ["an HTML page", 502, "<html><head><title>502 Bad Gateway</title></head></html>", "502 502 Bad Gateway"],
    ["plain text", 503, "upstream\nunavailable", "503 upstream unavailable"],
    ["empty", 500, "", "500 (no text)"],
  ])("%s", (_, status, body, expected) => {
    expect(summarizeErrorBody(status, body)).toBe(expected);
  });
});
