import { describe, expect, test } from "bun:test";
import { promptTokens } from "../../../fixtures/fake-openai.ts";
import { AgentError } from "../../errors.ts";
import { buildRequest } from "../../llm/request.ts";
import type { ChatRequest } from "../../llm/types.ts";
import { IMAGE_TOKENS } from "../../session/tokens.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "../prompt.ts";
import { computeBudget, defaultOutputReserve, estimateRequestTokens, MESSAGE_OVERHEAD, scaleAfterRefusal } from "./budget.ts";
import { workSession } from "./condense.testing.ts";

describe("computeBudget", () => {
  test.each([
    // window, output reserve, notes reserve, handoff prompt limit, notes prompt limit
    [128_000, undefined, 8192, 8192, Math.floor((128_000 - 8192) * 0.9), Math.floor((128_000 - 8192) * 0.9)],
    [32_000, undefined, 8000, 4000, 21_600, 25_200],
    [8_000, undefined, 2000, 1000, 5_400, 6_300],
    [32_000, 2_000, 2000, 2000, 27_000, 27_000],
  ])("a %d-token window with --max-output-tokens %p", (contextWindow, maxOutputTokens, outputReserve, notesReserve, promptLimit, notesPromptLimit) => {
    expect(computeBudget({ contextWindow, maxOutputTokens })).toEqual({ contextWindow, outputReserve, reasoningAllowance: 0, notesReserve, promptLimit, notesPromptLimit, halvings: 0 });
  });

  test("the output reserve defaults to a quarter of the window, at most 8192", () => {
    expect(defaultOutputReserve(4000)).toBe(1000);
    expect(defaultOutputReserve(1_000_000)).toBe(8192);
  });

  test("a refusal scales the limits and the notes down", () => {
    const full = computeBudget({ contextWindow: 32_000 });
    const half = computeBudget({ contextWindow: 32_000, halvings: 1, scale: 0.5 });
    expect(half.promptLimit).toBe(full.promptLimit / 2);
    expect(half.notesReserve).toBe(full.notesReserve / 2);
    expect(half.halvings).toBe(1);
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
        { role: "user", content: [{ type: "text", text: "y".repeat(8) }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "z".repeat(4) },
      ],
    };
    expect(estimateRequestTokens(request)).toBe(4 * MESSAGE_OVERHEAD + 10 + 2 + IMAGE_TOKENS + 4 + 1);
  });

  test("is never below the simple count a strict endpoint applies", () => {
    const request = buildRequest({ model: "m", systemPrompt: DEFAULT_SYSTEM_PROMPT, context: workSession({ rounds: 30, requestEvery: 5, resultChars: 900 }), instruction: renderInstruction() });
    expect(request.tools?.length).toBeGreaterThan(0);
    expect(estimateRequestTokens(request)).toBeGreaterThanOrEqual(promptTokens(request));
  });
});
