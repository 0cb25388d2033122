import { describe, expect, test } from "bun:test";
import { buildRequest } from "../request.ts";
import type { ChatMessage, ChatRequest } from "../types.ts";
import { PROFILES } from "./choose.ts";
import type { ProviderId } from "./profile.ts";
import { reasoningAllowance, shapeRequest } from "./shape.ts";
import { BRIDGE_TEXT } from "./turn-rules.ts";

function plain(model: string): ChatRequest {
  return buildRequest({ model, systemPrompt: "You write handoffs.", context: [], instruction: "Write it.", maxOutputTokens: 1000 });
}

/** The fields a profile decides, of one shaped request. */
function decided(request: ChatRequest) {
  return {
    limit: request.max_tokens !== undefined ? `max_tokens=${request.max_tokens}` : `max_completion_tokens=${request.max_completion_tokens}`,
    streamOptions: request.stream_options !== undefined,
    role: request.messages[0]?.role,
    effort: request.reasoning_effort ?? request.reasoning?.effort,
  };
}

describe("shapeRequest: each provider's documented request", () => {
  test.each<[ProviderId, string, ReturnType<typeof decided>]>([
    ["openai", "gpt-5-mini", { limit: "max_completion_tokens=1000", streamOptions: true, role: "developer", effort: "low" }],
    ["openai", "o4-mini", { limit: "max_completion_tokens=1000", streamOptions: true, role: "developer", effort: "low" }],
    ["openai", "gpt-5-pro", { limit: "max_completion_tokens=1000", streamOptions: true, role: "developer", effort: undefined }],
    ["openai", "gpt-4.1-mini", { limit: "max_completion_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["openrouter", "openai/gpt-5", { limit: "max_tokens=1000", streamOptions: false, role: "system", effort: "low" }],
    ["openrouter", "anthropic/claude-sonnet-4.5", { limit: "max_tokens=1000", streamOptions: false, role: "system", effort: undefined }],
    ["anthropic", "claude-sonnet-4-5", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["google", "gemini-2.5-flash", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: "low" }],
    ["google", "gemini-2.0-flash", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["deepseek", "deepseek-reasoner", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: "low" }],
    ["deepseek", "deepseek-v4-flash", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: "low" }],
    ["deepseek", "deepseek-chat", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["groq", "openai/gpt-oss-20b", { limit: "max_completion_tokens=1000", streamOptions: true, role: "system", effort: "low" }],
    ["groq", "qwen/qwen3-32b", { limit: "max_completion_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["mistral", "magistral-medium-latest", { limit: "max_tokens=1000", streamOptions: false, role: "system", effort: undefined }],
    ["ollama", "qwen3:8b", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["vllm", "Qwen/Qwen3-8B", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["llamacpp", "model", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["lmstudio", "qwen/qwen3-8b", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
    ["generic", "gpt-5", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
  ])("%s, %s", (id, model, expected) => {
    expect(decided(shapeRequest(plain(model), PROFILES[id]))).toEqual(expected);
  });

  test("leaves everything else as it was, and the request it was given untouched", () => {
    const request = plain("gpt-5");
    const before = structuredClone(request);
    const shaped = shapeRequest(request, PROFILES.openai);
    expect(request).toEqual(before);
    expect(shaped.messages.slice(1)).toEqual(request.messages.slice(1));
    expect(shaped.messages[0]?.content).toBe(request.messages[0]?.content);
    expect(shaped.stream).toBe(true);
  });

  test("a request without an output limit gets none", () => {
    const request = buildRequest({ model: "gpt-5", systemPrompt: "s", context: [], instruction: "i" });
    const shaped = shapeRequest(request, PROFILES.openai);
    expect("max_tokens" in shaped || "max_completion_tokens" in shaped).toBe(false);
  });
});

describe("reasoningAllowance: room to think, for reasoning models only, by model family whatever the host", () => {
  test.each<[ProviderId, string, number, number]>([
    ["openai", "gpt-5", 128_000, 8192],
    ["openai", "gpt-4.1", 128_000, 0],
    ["deepseek", "deepseek-reasoner", 128_000, 8192],
    ["deepseek", "deepseek-v4-flash", 128_000, 8192],
    ["deepseek", "deepseek-v4-pro", 128_000, 8192],
    ["deepseek", "deepseek-chat", 128_000, 0],
    // An endpoint that documents nothing (Azure, LiteLLM, a proxy): the family decides.
    ["generic", "gpt-5-mini", 128_000, 16_384],
    ["generic", "azure/gpt-5", 128_000, 16_384],
    ["generic", "openai/o4-mini", 128_000, 16_384],
    ["generic", "o3", 128_000, 16_384],
    ["generic", "codex-mini-latest", 128_000, 16_384],
    ["generic", "gemini-2.5-pro", 128_000, 16_384],
    ["generic", "deepseek-v4-flash", 128_000, 16_384],
    ["generic", "qwen3-32b", 128_000, 16_384],
    ["generic", "gpt-4.1", 128_000, 0],
    ["generic", "gpt-4o-mini", 128_000, 0],
    ["generic", "mistral-small-latest", 128_000, 0],
    ["vllm", "openai/gpt-oss-120b", 128_000, 16_384],
    ["lmstudio", "openai/gpt-5-mini", 128_000, 16_384],
    ["openrouter", "deepseek/deepseek-v4-flash", 128_000, 8192],
    ["openrouter", "x-ai/grok-4:thinking", 128_000, 8192],
    ["openrouter", "meta-llama/llama-3.3-70b-instruct", 128_000, 0],
    ["openai", "gpt-5", 16_000, 4000],
    ["ollama", "qwen3:8b", 32_000, 8000],
    ["anthropic", "claude-opus-4-1", 200_000, 0],
    ["generic", "llama-3.3-70b", 128_000, 0],
  ])("%s %s in a %d-token window: %d", (id, model, window, expected) => {
    expect(reasoningAllowance(PROFILES[id], model, window)).toBe(expected);
  });
});

/** A request with `context` between its instructions and its final user turn. */
function withTurns(model: string, context: ChatMessage[]): ChatRequest {
  const request = plain(model);
  const [system, instruction] = [request.messages[0], request.messages.at(-1)];
  if (!system || !instruction) throw new Error("no system or instruction turn");
  return { ...request, messages: [system, ...context, instruction] };
}

const CALL: ChatMessage = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "call00001", type: "function", function: { name: "bash", arguments: "{}" } }],
};
const RESULT: ChatMessage = { role: "tool", tool_call_id: "call00001", content: "1 failed" };
const ASK: ChatMessage = { role: "user", content: "Fix it." };
const SAID: ChatMessage = { role: "assistant", content: "Fixed." };

/** The turns of a shaped request, one word each: `user`, `assistant`, `assistant+calls`, `tool`, `bridge`; `+rc` where `reasoning_content` is sent. */
function turns(request: ChatRequest): string[] {
  return request.messages.slice(1).map((m) => {
    if (m.role !== "assistant") return m.role;
    const word = m.content === BRIDGE_TEXT ? "bridge" : m.tool_calls ? "assistant+calls" : "assistant";
    return m.reasoning_content === "" ? `${word}+rc` : word;
  });
}

describe("shapeRequest: the turns in the order and shape each provider requires", () => {
  test.each<[string, ProviderId, string, ChatMessage[], string[]]>([
    [
      "Mistral, a session ending on a tool result",
      "mistral",
      "mistral-large-latest",
      [ASK, CALL, RESULT],
      ["user", "assistant+calls", "tool", "bridge", "user"],
    ],
    [
      "Mistral, a user speaking right after a tool result",
      "mistral",
      "mistral-small-latest",
      [ASK, CALL, RESULT, ASK, SAID],
      ["user", "assistant+calls", "tool", "bridge", "user", "assistant", "user"],
    ],
    [
      "Mistral, results already answered",
      "mistral",
      "mistral-small-latest",
      [ASK, CALL, RESULT, SAID],
      ["user", "assistant+calls", "tool", "assistant", "user"],
    ],
    ["Mistral, no tools at all", "mistral", "magistral-medium-latest", [ASK, SAID], ["user", "assistant", "user"]],
    [
      "OpenAI, a session ending on a tool result (no bridge)",
      "openai",
      "gpt-5-mini",
      [ASK, CALL, RESULT],
      ["user", "assistant+calls", "tool", "user"],
    ],
    [
      "generic, a session ending on a tool result (no bridge)",
      "generic",
      "llama-3.3-70b",
      [ASK, CALL, RESULT],
      ["user", "assistant+calls", "tool", "user"],
    ],
    [
      "DeepSeek thinking (v4-flash): every earlier assistant turn carries reasoning_content",
      "deepseek",
      "deepseek-v4-flash",
      [ASK, CALL, RESULT, SAID],
      ["user", "assistant+calls+rc", "tool", "assistant+rc", "user"],
    ],
    ["DeepSeek thinking (reasoner)", "deepseek", "deepseek-reasoner", [ASK, CALL, RESULT], ["user", "assistant+calls+rc", "tool", "user"]],
    [
      "DeepSeek non-thinking (chat): nothing added",
      "deepseek",
      "deepseek-chat",
      [ASK, CALL, RESULT, SAID],
      ["user", "assistant+calls", "tool", "assistant", "user"],
    ],
    [
      "Ollama, a reasoning model: nothing added",
      "ollama",
      "deepseek-r1:8b",
      [ASK, CALL, RESULT, SAID],
      ["user", "assistant+calls", "tool", "assistant", "user"],
    ],
  ])("%s", (_, id, model, context, expected) => {
    const request = withTurns(model, context);
    const before = structuredClone(request);
    expect(turns(shapeRequest(request, PROFILES[id]))).toEqual(expected);
    expect(request).toEqual(before);
  });
});
