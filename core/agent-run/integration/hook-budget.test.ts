import { describe, expect, test } from "bun:test";
import { estimateSeconds, ranOutLine, splitHookBudget, tooLongLine } from "./hook-budget.ts";

describe("the hook's budget", () => {
  // [the hook's seconds, the engine's share]: the offline engine keeps a quarter, at most a minute.
  test.each([
    [585, 525],
    [120, 90],
    [8, 6],
  ])("%p s: the engine has %p s", (seconds, engine) => {
    expect(splitHookBudget(seconds)).toEqual({ seconds, engineSeconds: engine });
  });

  // [requests, input tokens, seconds]: the first request's own time is what the bound while it runs covers.
  test.each([
    [1, 0, 0],
    [1, 150_000, 100],
    [4, 600_000, 400 + 180],
  ])("%p requests, %p tokens: ~%p s", (requests, inputTokens, seconds) => {
    expect(estimateSeconds({ requests, inputTokens })).toBe(seconds);
  });

  test("the lines name the engine, the plan and the seconds", () => {
    const budget = splitHookBudget(585);
    expect(tooLongLine("claude-code", { requests: 4, inputTokens: 600_000 }, budget)).toBe(
      "The offline engine wrote the document: this session is too long for claude-code to finish within the hook's time (4 runs, ~600,000 input tokens: ~580 s, more than the 525 s it has).",
    );
    expect(tooLongLine("llm", { requests: 2, inputTokens: 900_000 }, budget)).toContain(
      "too long for the model to finish within the hook's time (2 requests,",
    );
    expect(ranOutLine("codex", budget)).toBe(
      "The offline engine wrote the document: codex had not finished within the 525 s the hook gives it, and was stopped.",
    );
  });
});
