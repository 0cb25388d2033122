import { describe, expect, test } from "bun:test";
import { readDelta, readUsage } from "./stream.ts";

describe("readDelta: the answer, and reasoning kept apart, from every provider's delta", () => {
  test.each([
    ["plain content (OpenAI)", { content: "Hello" }, { text: "Hello", reasoning: "" }],
    ["DeepSeek's reasoning_content", { content: null, reasoning_content: "Let me think" }, { text: "", reasoning: "Let me think" }],
    ["Ollama's and OpenRouter's reasoning", { content: "", reasoning: "We need" }, { text: "", reasoning: "We need" }],
    ["both fields at once", { content: "A", reasoning: "r1", reasoning_content: "r2" }, { text: "A", reasoning: "r2r1" }],
    [
      "Mistral's content parts",
      {
        content: [
          { type: "thinking", thinking: [{ type: "text", text: "hmm" }] },
          { type: "text", text: "## Goal" },
        ],
      },
      { text: "## Goal", reasoning: "hmm" },
    ],
    [
      "an unknown part type is not text",
      {
        content: [
          { type: "image", url: "x" },
          { type: "text", text: "ok" },
        ],
      },
      { text: "ok", reasoning: "" },
    ],
    ["no delta", undefined, { text: "", reasoning: "" }],
    ["a role-only delta", { role: "assistant" }, { text: "", reasoning: "" }],
  ])("%s", (_, delta, expected) => {
    expect(readDelta(delta)).toEqual(expected);
  });
});

describe("readUsage", () => {
  test.each([
    [
      "OpenAI, with reasoning tokens",
      { usage: { prompt_tokens: 10, completion_tokens: 50, completion_tokens_details: { reasoning_tokens: 40 } } },
      { inputTokens: 10, outputTokens: 50, reasoningTokens: 40 },
    ],
    ["no details", { usage: { prompt_tokens: 10, completion_tokens: 5 } }, { inputTokens: 10, outputTokens: 5 }],
    ["Groq's x_groq.usage", { x_groq: { usage: { prompt_tokens: 3, completion_tokens: 4 } } }, { inputTokens: 3, outputTokens: 4 }],
    ["null usage on an ordinary chunk", { usage: null }, undefined],
    ["a count that is not one: no usage", { usage: { prompt_tokens: "x", completion_tokens: 1 } }, undefined],
    ["a negative count", { usage: { prompt_tokens: 3, completion_tokens: -1 } }, undefined],
    ["1e308", { usage: { prompt_tokens: 3, completion_tokens: 1e308 } }, undefined],
    [
      "a bad reasoning count drops only it",
      { usage: { prompt_tokens: 3, completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 0.5 } } },
      { inputTokens: 3, outputTokens: 4 },
    ],
  ])("%s", (_, chunk, expected) => {
    expect(readUsage(chunk)).toEqual(expected);
  });
});
