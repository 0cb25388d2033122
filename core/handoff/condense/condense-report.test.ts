import { describe, expect, test } from "bun:test";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "../prompt.ts";
import { workSession } from "./condense.testing.ts";
import { planCondensation } from "./plan.ts";
import { describeCondensed, describePlan, reportCondensed, type CondenseReport } from "./condense-report.ts";

const REPORT: CondenseReport = {
  contextWindow: 32_000,
  halvings: 0,
  tokensBefore: 119_529,
  tokensAfter: 16_553,
  toolResultsShortened: 25,
  imagesReplaced: 0,
  turnsFolded: 423,
  messagesFolded: 730,
  messagesShortened: 0,
  notesRequests: 5,
  requests: 6,
  tokensSent: 106_219,
};

describe("describeCondensed", () => {
  test("says in one line what was condensed, with counts", () => {
    expect(describeCondensed(REPORT)).toEqual([
      "condensed the context from ~119,529 to ~16,553 tokens for a 32,000-token window: 25 tool results shortened to head and tail, " +
        "the oldest 730 messages (423 turns) folded into notes; 6 requests (~106,219 prompt tokens in all)",
    ]);
  });

  test("adds a line when the endpoint refused and the budget was halved", () => {
    const lines = describeCondensed({ ...REPORT, halvings: 2, imagesReplaced: 1, messagesShortened: 3 });
    expect(lines[0]).toContain("1 image left out");
    expect(lines[0]).toContain("3 messages too large for one notes request cut to fit");
    expect(lines[1]).toBe(
      "the endpoint refused a request as larger than its window, so the budget was halved twice and the handoff planned again; is --context-window right for this model?",
    );
  });
});

describe("describePlan", () => {
  const setup = { model: "m", systemPrompt: DEFAULT_SYSTEM_PROMPT, instruction: renderInstruction() };

  test("names the budget, both stages and every request, and warns of placeholder notes", () => {
    const plan = planCondensation({
      ...setup,
      context: workSession({ rounds: 60, requestEvery: 6, resultChars: 3000 }),
      contextWindow: 16_000,
    });
    expect(plan.chunks).toHaveLength(4);
    // The session: 60 rounds with a request every 6th (10 requests), 80 tool results of 3000 or
    // 12,000 characters; ~97,111 tokens by our estimate. The window: 16,000 − 4000 (a quarter, kept
    // for the document) = 12,000, less the 10% margin = 10,800; notes are at most 16,000 / 8 = 2000.
    expect(describePlan(plan, [100, 100, 100, 100, 200])).toEqual([
      "context ~97,111 tokens; a request may carry ~10,800 of the 16,000-token window (4,000 kept for the document, 10% margin for our estimate)",
      "stage 1 (tool results at most ~500 tokens each): 80 tool results shortened to head and tail",
      "stage 2: the oldest 132 messages (66 turns) folded into notes, over 4 requests; the latest 28 messages go verbatim",
      "request 1 of 5: notes on part 1 of 4, ~100 tokens",
      "request 2 of 5: notes on part 2 of 4, ~100 tokens, notes counted at their limit of 2,000",
      "request 3 of 5: notes on part 3 of 4, ~100 tokens, notes counted at their limit of 2,000",
      "request 4 of 5: notes on part 4 of 4, ~100 tokens, notes counted at their limit of 2,000",
      "request 5 of 5: the handoff document, ~200 tokens, notes counted at their limit of 2,000",
      "the requests printed after the first show placeholder notes: the real notes are written by the requests before them",
    ]);
  });

  test("a plan that fits says so, and reports tokens after equal to before", () => {
    const plan = planCondensation({
      ...setup,
      context: workSession({ rounds: 4, requestEvery: 2, resultChars: 100 }),
      contextWindow: 128_000,
    });
    expect(describePlan(plan, [50]).at(-1)).toBe("it fits: nothing is condensed");
    const report = reportCondensed(plan, undefined, { requests: 1, tokensSent: 50 });
    expect([report.tokensBefore, report.tokensAfter]).toEqual([262, 262]);
  });
});
