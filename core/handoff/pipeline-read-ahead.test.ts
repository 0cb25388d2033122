import { describe, expect, test } from "bun:test";
import { answer, deps, exampleInput, FULL_DOCUMENT } from "../../fixtures/handoff-pipeline.ts";
import type { BranchAnalysis } from "../session/analyze.ts";
import type { Complete } from "../llm/types.ts";
import { runHandoff } from "./pipeline.ts";

/** The analysis with its Session Facts read through `read` (which may count, or throw). */
function watchingFacts(analysis: BranchAnalysis, read: () => void): BranchAnalysis {
  const watched = Object.defineProperties({}, Object.getOwnPropertyDescriptors(analysis)) as BranchAnalysis;
  return Object.defineProperty(watched, "facts", {
    get: () => {
      read();
      return analysis.facts;
    },
  });
}

/** A model that answers on the next turn of the event loop, telling `seen` what was read when it was asked and when it answered. */
function answeringLater(seen: { atRequest: number[]; atAnswer: number[] }, reads: () => number): Complete {
  return () => {
    seen.atRequest.push(reads());
    return new Promise((resolve) =>
      setTimeout(() => {
        seen.atAnswer.push(reads());
        resolve(answer(FULL_DOCUMENT));
      }, 0),
    );
  };
}

describe("runHandoff: Session Facts are read while the first request is out", () => {
  test("read after the request left and before its answer is read; the document holds them", async () => {
    let reads = 0;
    const input = exampleInput({ facts: true });
    const seen = { atRequest: [] as number[], atAnswer: [] as number[] };
    const result = await runHandoff(
      { ...input, analysis: watchingFacts(input.analysis, () => reads++) },
      deps(answeringLater(seen, () => reads)),
    );
    expect(seen).toEqual({ atRequest: [0], atAnswer: [1] });
    expect(result.document).toContain("## Session Facts");
  });

  test("--no-facts: never read, before or after the answer", async () => {
    let reads = 0;
    const input = exampleInput({ facts: false });
    const seen = { atRequest: [] as number[], atAnswer: [] as number[] };
    await runHandoff({ ...input, analysis: watchingFacts(input.analysis, () => reads++) }, deps(answeringLater(seen, () => reads)));
    expect(seen).toEqual({ atRequest: [0], atAnswer: [0] });
    expect(reads).toBe(0);
  });

  test("facts that cannot be read fail the handoff after the answer, with their own error, once the one request was sent", async () => {
    const input = exampleInput({ facts: true });
    const seen = { atRequest: [] as number[], atAnswer: [] as number[] };
    const failing = watchingFacts(input.analysis, () => {
      throw new Error("facts broke");
    });
    await expect(runHandoff({ ...input, analysis: failing }, deps(answeringLater(seen, () => 0)))).rejects.toThrow("facts broke");
    expect(seen).toEqual({ atRequest: [0], atAnswer: [0] });
  });
});
