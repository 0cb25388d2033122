import { describe, expect, test } from "bun:test";
import { buildRequest } from "../request.ts";
import type { ChatRequest } from "../types.ts";
import { PROFILES } from "./choose.ts";
import type { ProviderId } from "./profile.ts";
import { reasoningAllowance, shapeRequest } from "./shape.ts";

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
    ["deepseek", "deepseek-reasoner", { limit: "max_tokens=1000", streamOptions: true, role: "system", effort: undefined }],
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

describe("reasoningAllowance: room to think, for reasoning models only", () => {
  test.each<[ProviderId, string, number, number]>([
    ["openai", "gpt-5", 128_000, 8192],
    ["openai", "gpt-4.1", 128_000, 0],
    ["deepseek", "deepseek-reasoner", 128_000, 16_384],
    ["deepseek", "deepseek-chat", 128_000, 0],
    ["openai", "gpt-5", 16_000, 4000],
    ["ollama", "qwen3:8b", 32_000, 8000],
    ["anthropic", "claude-opus-4-1", 200_000, 0],
    ["generic", "llama-3.3-70b", 128_000, 0],
  ])("%s %s in a %d-token window: %d", (id, model, window, expected) => {
    expect(reasoningAllowance(PROFILES[id], model, window)).toBe(expected);
  });
});
