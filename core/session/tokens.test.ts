import { describe, expect, test } from "bun:test";
import { loadFixture } from "../../fixtures/sessions/load.ts";
import type { ContextMessage } from "./messages.ts";
import { estimateMessageTokens, estimateTextTokens, estimateTokens } from "./tokens.ts";

const userWith = (content: Extract<ContextMessage, { role: "user" }>["content"]): ContextMessage => ({
  role: "user",
  kind: "user",
  content,
  entryId: "e",
});
const assistantWith = (content: Extract<ContextMessage, { role: "assistant" }>["content"]): ContextMessage => ({
  role: "assistant",
  content,
  provider: "p",
  model: "m",
  stopReason: "stop",
  entryId: "e",
});

describe("token estimates", () => {
  test.each([
    { text: "", tokens: 0 },
    { text: "abc", tokens: 1 },
    { text: "abcd", tokens: 1 },
    { text: "abcde", tokens: 2 },
    { text: "x".repeat(4000), tokens: 1000 },
  ])("$tokens tokens for $text.length characters of text", ({ text, tokens }) => {
    expect(estimateTextTokens(text)).toBe(tokens);
  });

  test.each([
    {
      name: "text blocks add their characters",
      message: userWith([
        { type: "text", text: "abcd" },
        { type: "text", text: "efgh" },
      ]),
      tokens: 2,
    },
    {
      name: "an image costs a fixed amount",
      message: userWith([{ type: "image", data: "A".repeat(100_000), mimeType: "image/png" }]),
      tokens: 1200,
    },
    {
      name: "text and two images",
      message: userWith([
        { type: "text", text: "abcdefgh" },
        { type: "image", data: "A", mimeType: "image/png" },
        { type: "image", data: "B", mimeType: "image/png" },
      ]),
      tokens: 2402,
    },
    { name: "reasoning is not sent, so not counted", message: assistantWith([{ type: "thinking", thinking: "x".repeat(400) }]), tokens: 0 },
    // "read" (4) + {"path":"a.ts"} (15) = 19 characters
    {
      name: "a tool call counts its name and JSON arguments",
      message: assistantWith([{ type: "toolCall", id: "c", name: "read", arguments: { path: "a.ts" } }]),
      tokens: 5,
    },
  ])("$name", ({ message, tokens }) => {
    expect(estimateMessageTokens(message)).toBe(tokens);
  });

  test("a context costs the sum of its messages", () => {
    const messages = [userWith([{ type: "text", text: "abcde" }]), userWith([{ type: "text", text: "abcde" }])];
    expect(estimateTokens(messages)).toBe(4);
    expect(estimateTokens([])).toBe(0);
  });

  test("the richest fixture: its text plus one image", () => {
    const { analysis } = loadFixture("v3-branches.jsonl");
    // 268 tokens of text and one image at 1200.
    expect(analysis.estimatedTokens).toBe(1468);
  });
});
