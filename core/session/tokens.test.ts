import { describe, expect, test } from "bun:test";
import { loadFixture } from "../../fixtures/sessions/load.ts";
import type { ContextMessage } from "./messages.ts";
import { estimateMessageTokens, estimateTextQuarters, estimateTextTokens, estimateTokens, rememberingQuarters } from "./tokens.ts";

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
    // 271 tokens of text and one image at 1200.
    expect(analysis.estimatedTokens).toBe(1471);
  });
});

/** 4,000 characters of random base64 (a deterministic generator: the same bytes every run). */
function base64Text(chars: number): string {
  const bytes = new Uint8Array(Math.ceil((chars * 3) / 4));
  let x = 12345;
  for (let i = 0; i < bytes.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >> 16;
  }
  return Buffer.from(bytes).toString("base64").slice(0, chars);
}

describe("the estimate is not low for text a tokenizer takes in small pieces", () => {
  // The least tokens a character of each kind costs with today's tokenizers (cl100k, o200k,
  // Claude's), by their published behaviour: Chinese, Japanese and Korean about one a
  // character, emoji two or more, random base64 and hex one every two or three characters,
  // digits in groups of three. The old estimate (characters / 4) was a quarter of that.
  test.each([
    ["Chinese", "我们需要修复解析器中的错误，然后运行所有测试。".repeat(50), 1],
    ["Japanese", "パーサーのバグを直して、テストを全部実行してください。".repeat(50), 1],
    ["Korean", "파서의 버그를 고치고 모든 테스트를 실행하세요".repeat(50), 0.9],
    ["emoji", "🚀🔥✅😀👍🏽🎉".repeat(100), 2],
    ["a family emoji (joined by ZWJ)", "👨‍👩‍👧‍👦".repeat(100), 1.5],
    ["random base64", base64Text(4000), 0.6],
    ["hex digests", "3f9a0c7e5b2d41f8a6c09e7d3b1f5a2c ".repeat(100), 0.5],
    ["a long number", "31415926535897932384626433832795".repeat(100), 0.33],
  ])("%s: at least %s tokens a character", (_, text, perChar) => {
    const chars = [...text].length;
    expect(estimateTextTokens(text)).toBeGreaterThanOrEqual(Math.ceil(chars * perChar));
  });

  test.each([
    ["English prose", "The parser drops the last line when the file has no newline at the end. ".repeat(50)],
    ["code", "export function parse(text: string): Line[] {\n  return text.split('\\n').map(readLine);\n}\n".repeat(50)],
    ["a path", "/home/user/projects/agent/core/session/tokens.ts ".repeat(50)],
  ])("%s stays at about four characters a token", (_, text) => {
    const tokens = estimateTextTokens(text);
    expect(tokens).toBeGreaterThanOrEqual(Math.ceil(text.length / 4));
    expect(tokens).toBeLessThanOrEqual(Math.ceil(text.length / 3.5));
  });

  test("random text of every class, digit-free ASCII included, counts as the documented rule says", () => {
    // The rule written plainly (tokens.ts keeps a faster form of it): a word run by its digits,
    // each other character by its size. A fixed seed, so a failure reproduces.
    const reference = (text: string): number => {
      let quarters = 0;
      for (const [piece] of text.matchAll(/[A-Za-z0-9+=_-]+|[\s\S]/gu)) {
        if (/^[A-Za-z0-9+=_-]+$/.test(piece)) {
          const digits = piece.replace(/[^0-9]/g, "").length;
          quarters +=
            digits === piece.length
              ? Math.ceil((piece.length * 4) / 3)
              : piece.length >= 16 && digits > 0
                ? piece.length * 3
                : piece.length;
        } else {
          const code = piece.codePointAt(0) ?? 0;
          quarters += code < 128 ? 1 : code < 0x800 ? 2 : code > 0xffff ? 12 : 6;
        }
      }
      return quarters;
    };
    const alphabet = ["a", "Z", "0", "9", "+", "-", "=", "_", " ", "\n", ".", "é", "我", "😀", "\u0080", "\uffff", "\ud800", "x"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 5000; n++) {
      let text = "";
      for (let i = next() % 40; i > 0; i--) text += alphabet[next() % (n % 2 === 0 ? 11 : alphabet.length)];
      expect({ text, quarters: estimateTextQuarters(text) }).toEqual({ text, quarters: reference(text) });
    }
    // Longer texts, mostly word characters: runs of 16 and more, digits at either end, a lone low surrogate.
    const wordy = ["a", "Z", "0", "9", "+", "-", "=", "_", "q", "7", " ", "é", "\udc00", "😀"];
    for (let n = 0; n < 1000; n++) {
      let text = "";
      for (let i = next() % 400; i > 0; i--) text += wordy[next() % (n % 3 === 0 ? 10 : n % 3 === 1 ? 11 : wordy.length)];
      expect({ text, quarters: estimateTextQuarters(text) }).toEqual({ text, quarters: reference(text) });
    }
  });

  test("never below characters / 4, for any text", () => {
    for (const text of ["", "a", "é", "我", "😀", "\u{10FFFF}", "\ud800", "x1".repeat(20), "0".repeat(7)])
      expect(estimateTextTokens(text)).toBeGreaterThanOrEqual(Math.ceil(text.length / 4));
  });

  test("a message, a request and a text count the same text alike (one estimate)", () => {
    const text = "修复 the parser 🚀 ".repeat(40) + base64Text(400);
    const message = userWith([{ type: "text", text }]);
    expect(estimateMessageTokens(message)).toBe(estimateTextTokens(text));
  });

  test("a run's memo counts every text as counting afresh does: the same text, a copy, one that differs in a character", () => {
    const long = "修复 the parser 🚀 ".repeat(40) + base64Text(400);
    const texts = ["", "short 123", long, `${long}`.slice(0), `${long.slice(0, -1)}x`, `${long}9`, "0".repeat(300), "a".repeat(300)];
    const quarters = rememberingQuarters();
    for (const pass of [1, 2])
      expect({ pass, counts: texts.map((text) => quarters(text)) }).toEqual({ pass, counts: texts.map(estimateTextQuarters) });
    const context = [userWith([{ type: "text", text: long }]), assistantWith([{ type: "text", text: `${long}!` }])];
    expect(estimateTokens(context, quarters)).toBe(estimateTokens(context));
  });
});
