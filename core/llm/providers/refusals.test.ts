import { describe, expect, test } from "bun:test";
import { PROFILES } from "./choose.ts";
import { classifyRefusal } from "./refusals.ts";

/** Error bodies as each provider sends them (sources beside the profiles in hosted.ts and local.ts). */
const CONTEXT_BODIES: [string, number, string][] = [
  [
    "OpenAI",
    400,
    `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
  ],
  [
    "OpenAI, newer",
    400,
    `{"error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model. Please adjust your input and try again.","param":"input"}}`,
  ],
  [
    "OpenRouter",
    400,
    `{"error":{"code":400,"message":"This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the \\"middle-out\\" transform to compress your prompt automatically."}}`,
  ],
  [
    "Anthropic",
    400,
    `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_011"}`,
  ],
  [
    "Anthropic, with max_tokens",
    400,
    `{"type":"error","error":{"type":"invalid_request_error","message":"input length and \`max_tokens\` exceed context limit: 199759 + 8192 > 200000, decrease input length or \`max_tokens\` and try again"}}`,
  ],
  [
    "Google",
    400,
    `[{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]`,
  ],
  [
    "DeepSeek",
    400,
    `{"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 131329 tokens (123137 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
  ],
  [
    "Groq",
    400,
    `{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
  ],
  [
    "vLLM, old shape",
    400,
    `{"object":"error","message":"This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`,
  ],
  [
    "vLLM, new wording",
    400,
    `{"error":{"message":"This model's maximum context length is 2048 tokens. However, your request has 8 input tokens plus 2045 'max_tokens'. Please reduce one or the other. (parameter=input_tokens, max_tokens, value=(8, 2045))","type":"BadRequestError","param":"input_tokens, max_tokens","code":400}}`,
  ],
  [
    "vLLM, decoder prompt",
    400,
    `{"object":"error","message":"The decoder prompt (length 5000) is longer than the maximum model length of 4096.","type":"BadRequestError","code":400}`,
  ],
  [
    "llama.cpp",
    400,
    `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}`,
  ],
  [
    "llama.cpp, as 500",
    500,
    `{"error":{"code":500,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":1407,"n_ctx":256}}`,
  ],
  [
    "LM Studio",
    400,
    `{"error":"Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}`,
  ],
  [
    "LM Studio, n_keep",
    400,
    `{"error":"The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 10247 >= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter prompt."}`,
  ],
  ["Ollama", 400, `{"error":"input exceeds context length"}`],
];

describe("classifyRefusal: a prompt over the window, in every provider's words", () => {
  test.each(CONTEXT_BODIES)("%s", (_, status, body) => {
    expect(classifyRefusal(status, body)).toEqual({ kind: "context_length" });
  });

  test("every wording a profile quotes is recognised", () => {
    for (const profile of Object.values(PROFILES)) {
      for (const wording of profile.contextLengthWording)
        expect([profile.id, classifyRefusal(400, wording)]).toEqual([profile.id, { kind: "context_length" }]);
    }
  });

  test.each([
    [
      "a rate limit about tokens per minute",
      429,
      `{"error":{"message":"Rate limit reached: too many tokens per minute","code":"rate_limit_exceeded"}}`,
    ],
    ["a server error", 502, "upstream context window exploded"],
    ["a success status", 200, "maximum context length"],
  ])("not a window: %s", (_, status, body) => {
    expect(classifyRefusal(status, body)).toBeUndefined();
  });
});

describe("classifyRefusal: the one parameter an endpoint refused", () => {
  test.each([
    [
      "OpenAI's max_tokens",
      400,
      `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`,
      "max_tokens",
    ],
    [
      "OpenAI's temperature",
      400,
      `{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`,
      "temperature",
    ],
    [
      "OpenAI's system role on o1-mini",
      400,
      `{"error":{"message":"Unsupported value: 'messages[0].role' does not support 'system' with this model.","type":"invalid_request_error","param":"messages[0].role","code":"unsupported_value"}}`,
      "messages[0].role",
    ],
    [
      "Mistral's stream_options",
      422,
      `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true}]},"type":"invalid_request_error","param":null,"code":null}`,
      "stream_options",
    ],
    [
      "Mistral's max_completion_tokens",
      422,
      `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","max_completion_tokens"],"msg":"Extra inputs are not permitted","input":32000}]},"type":"invalid_request_error","param":null,"code":null}`,
      "max_completion_tokens",
    ],
    [
      "a proxy's unrecognised argument",
      400,
      `{"error":{"message":"Unrecognized request argument supplied: max_completion_tokens"}}`,
      "max_completion_tokens",
    ],
    [
      "Google's unknown name",
      400,
      `[{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \\"stream_options\\": Cannot find field.","status":"INVALID_ARGUMENT"}}]`,
      "stream_options",
    ],
    ["tools not supported", 400, `{"error":{"message":"tools is not supported in this model.","type":"invalid_request_error"}}`, "tools"],
    [
      "only auto tool choice",
      400,
      `{"object":"error","message":"Only 'auto' tool_choice is supported","type":"BadRequestError","code":400}`,
      "tool_choice",
    ],
    [
      "a param and code pair alone",
      400,
      `{"error":{"message":"nope","param":"reasoning_effort","code":"unsupported_value"}}`,
      "reasoning_effort",
    ],
    // Rules about the turns, not one parameter (turns.ts).
    [
      "Mistral's role order",
      400,
      `{"object":"error","message":"Unexpected role 'user' after role 'tool'","type":"invalid_request_message_order","param":null,"code":"3230"}`,
      "messages[].role",
    ],
    [
      "vLLM serving a Mistral model",
      400,
      `{"error":{"message":"Unexpected role 'user' after role 'tool'","type":"BadRequestError","param":null,"code":400}}`,
      "messages[].role",
    ],
    [
      "Mistral's role order through OpenRouter",
      400,
      `{"error":{"code":400,"message":"Provider returned error","metadata":{"raw":"{\\"object\\":\\"error\\",\\"message\\":\\"Unexpected role 'user' after role 'tool'\\",\\"type\\":\\"invalid_request_message_order\\",\\"param\\":null,\\"code\\":\\"3230\\"}","provider_name":"Mistral"}}}`,
      "messages[].role",
    ],
    [
      "DeepSeek's thinking mode",
      400,
      `{"error":{"message":"The reasoning_content in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
      "messages[].reasoning_content",
    ],
    [
      "DeepSeek's thinking mode, in backticks",
      400,
      `{"error":{"message":"The \`reasoning_content\` in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
      "messages[].reasoning_content",
    ],
  ])("%s", (_, status, body, param) => {
    expect(classifyRefusal(status, body)).toEqual({ kind: "unsupported_parameter", param });
  });

  test.each([
    ["a model that does not exist", 404, `{"error":{"message":"The model 'nope' does not exist"}}`],
    ["an invalid key", 401, `{"error":{"message":"Incorrect API key provided"}}`],
    ["a 400 that names nothing", 400, `{"error":{"message":"model 'nope' does not exist"}}`],
  ])("nothing to retry: %s", (_, status, body) => {
    expect(classifyRefusal(status, body)).toBeUndefined();
  });
});
