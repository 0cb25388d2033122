import { describe, expect, test } from "bun:test";
import { promptTokens } from "../../../fixtures/fake-openai.ts";
import { AgentError } from "../../errors.ts";
import { buildRequest } from "../../llm/request.ts";
import type { ChatRequest } from "../../llm/types.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "../prompt.ts";
import { computeBudget, defaultOutputReserve, estimateRequestTokens, scaleAfterRefusal } from "./budget.ts";
import { rememberingQuarters } from "../../session/tokens.ts";
import { workSession } from "./condense.testing.ts";

describe("computeBudget", () => {
  test.each([
    // window, output reserve, notes reserve, handoff prompt limit, notes prompt limit.
    // 128,000: reserve min(8192, 128,000 / 4) = 8192; notes min(8192, 128,000 / 8) = 8192;
    // both limits (128,000 − 8192) × 0.9 = 107,827.2 → 107,827.
    [128_000, undefined, 8192, 8192, 107_827, 107_827],
    // 32,000: reserve 32,000 / 4 = 8000, notes 32,000 / 8 = 4000; (32,000 − 8000) × 0.9 = 21,600; (32,000 − 4000) × 0.9 = 25,200.
    [32_000, undefined, 8000, 4000, 21_600, 25_200],
    // 8000: reserve 2000, notes 1000; (8000 − 2000) × 0.9 = 5400; (8000 − 1000) × 0.9 = 6300.
    [8_000, undefined, 2000, 1000, 5_400, 6_300],
    // --max-output-tokens 2000 is the reserve and caps the notes: (32,000 − 2000) × 0.9 = 27,000 for both.
    [32_000, 2_000, 2000, 2000, 27_000, 27_000],
  ])(
    "a %d-token window with --max-output-tokens %p",
    (contextWindow, maxOutputTokens, outputReserve, notesReserve, promptLimit, notesPromptLimit) => {
      expect(computeBudget({ contextWindow, maxOutputTokens })).toEqual({
        contextWindow,
        outputReserve,
        reasoningAllowance: 0,
        notesReserve,
        promptLimit,
        notesPromptLimit,
        halvings: 0,
      });
    },
  );

  test("the output reserve defaults to a quarter of the window, at most 8192", () => {
    expect(defaultOutputReserve(4000)).toBe(1000);
    expect(defaultOutputReserve(1_000_000)).toBe(8192);
  });

  test("a refusal scales the limits and the notes down", () => {
    const half = computeBudget({ contextWindow: 32_000, halvings: 1, scale: 0.5 });
    // Unscaled: 21,600 and 25,200 (see the table above), notes 4000.
    // Halved: notes 4000 × 0.5 = 2000; (32,000 − 8000) × 0.9 × 0.5 = 10,800; (32,000 − 2000) × 0.9 × 0.5 = 13,500.
    expect(half).toEqual({
      contextWindow: 32_000,
      outputReserve: 8000,
      reasoningAllowance: 0,
      notesReserve: 2000,
      promptLimit: 10_800,
      notesPromptLimit: 13_500,
      halvings: 1,
    });
  });

  test("the next scale is half the refused request, or half the limit when the request filled it", () => {
    expect(scaleAfterRefusal(1, 20_000, 20_000)).toBe(0.5);
    expect(scaleAfterRefusal(1, 30_000, 20_000)).toBe(0.5);
    expect(scaleAfterRefusal(1, 5_000, 20_000)).toBe(0.125);
    expect(scaleAfterRefusal(0.5, 10_000, 10_000)).toBe(0.25);
  });

  test("an output cap as large as the window is a usage error", () => {
    expect(() => computeBudget({ contextWindow: 8000, maxOutputTokens: 8000 })).toThrow(AgentError);
    expect(() => computeBudget({ contextWindow: 8000, maxOutputTokens: 8000 })).toThrow("--max-output-tokens 8000 leaves no room");
  });
});

describe("estimateRequestTokens", () => {
  const base: ChatRequest = { model: "m", messages: [], stream: true, stream_options: { include_usage: true } };

  test("counts text, tool calls, images and a fixed cost per message", () => {
    const request: ChatRequest = {
      ...base,
      messages: [
        { role: "system", content: "x".repeat(40) },
        {
          role: "user",
          content: [
            { type: "text", text: "y".repeat(8) },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "z".repeat(4) },
      ],
    };
    // 4 messages × 4 framing tokens = 16; 40 chars / 4 = 10; 8 chars / 4 = 2; one image 1200;
    // the call's name and arguments, "read" + '{"path":"a"}' = 16 chars / 4 = 4; 4 chars / 4 = 1.
    expect(estimateRequestTokens(request)).toBe(1233);
  });

  test("a run's memo gives every request the count a fresh one gives: measured again, a copy, a message changed, a message added", () => {
    const request = buildRequest({
      model: "m",
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      context: workSession({ rounds: 12, requestEvery: 3, resultChars: 700 }),
      instruction: renderInstruction(),
    });
    const changed: ChatRequest = {
      ...request,
      messages: request.messages.map((m, i) => (i === 1 ? { role: "user", content: "other words 42" } : m)),
    };
    const added: ChatRequest = { ...request, messages: [...request.messages, { role: "user", content: "one more 7" }], tools: undefined };
    // The same list of messages with other tools, or none: the provider's shape and the guard make such copies.
    const otherTools: ChatRequest = { ...request, tools: [...(request.tools ?? []), ...(request.tools ?? [])] };
    const noTools: ChatRequest = { ...request, tools: undefined, tool_choice: undefined };
    const memo = rememberingQuarters();
    for (const pass of [1, 2])
      for (const [name, r] of [
        ["request", request],
        ["copy", structuredClone(request)],
        ["changed", changed],
        ["added", added],
        ["the same messages, other tools", otherTools],
        ["the same messages, no tools", noTools],
      ] as const)
        expect({ pass, name, tokens: estimateRequestTokens(r, memo) }).toEqual({ pass, name, tokens: estimateRequestTokens(r) });
    expect(estimateRequestTokens(changed)).not.toBe(estimateRequestTokens(request));
  });

  test("is never below the simple count a strict endpoint applies", () => {
    const request = buildRequest({
      model: "m",
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      context: workSession({ rounds: 30, requestEvery: 5, resultChars: 900 }),
      instruction: renderInstruction(),
    });
    expect(request.tools?.length).toBeGreaterThan(0);
    expect(estimateRequestTokens(request)).toBeGreaterThanOrEqual(promptTokens(request));
  });
});
