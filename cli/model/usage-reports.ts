import type { Complete, HandoffResult } from "../../core/index.ts";

/**
 * Whether every request of one handoff said what it cost, for every engine alike. A request
 * whose usage was missing or not a count (core/llm/usage.ts) leaves the total unknown: a sum
 * that leaves it out would pass for the whole cost, so `--json` prints `usage: null` instead.
 */
export interface UsageReports {
  runs: number;
  withUsage: number;
}

/** `complete`, counting the answers and those that carried usage into `reported`. */
export function countingUsage(complete: Complete, reported: UsageReports): Complete {
  return async (request, options) => {
    const completion = await complete(request, options);
    reported.runs++;
    if (completion.usage) reported.withUsage++;
    return completion;
  };
}

/** Every answer said what it cost (and there was one). */
export function usageComplete(reported: UsageReports): boolean {
  return reported.runs > 0 && reported.withUsage === reported.runs;
}

/** A handoff's result, and whether the engine said what it cost. */
export type ReportedHandoffResult = HandoffResult & { usageReported: boolean };
