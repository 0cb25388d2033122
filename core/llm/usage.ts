import type { TokenUsage } from "./types.ts";

/**
 * The one rule for token counts any engine reports (the model endpoint's stream, Claude Code,
 * Codex, pi, omp): a count is a non-negative integer no larger than `MAX_TOKEN_COUNT`. Anything
 * else (negative, fractional, `1e308`, a string) is not a count, and usage holding one is not
 * reported at all: numbers we cannot trust are never passed on to `--json` or a session file.
 */

/**
 * Far above any context window or any one run's total (the largest windows are a few million
 * tokens): past it a count is noise, not usage.
 */
export const MAX_TOKEN_COUNT = 10_000_000_000;

export function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_TOKEN_COUNT;
}

/**
 * The sum of the token counts reported under `keys` (one left out counts 0), or undefined when
 * one is not a count or the sum is past `MAX_TOKEN_COUNT`.
 */
export function tokenSum(fields: Readonly<Record<string, unknown>>, keys: readonly string[]): number | undefined {
  let sum = 0;
  for (const key of keys) {
    const value = fields[key];
    if (value === undefined) continue;
    if (!isTokenCount(value)) return undefined;
    sum += value;
  }
  return isTokenCount(sum) ? sum : undefined;
}

/** Usage from the reported input and output; not reported when either is not a count. */
export function checkedUsage(input: number | undefined, output: number | undefined): TokenUsage | undefined {
  if (input === undefined || output === undefined || !isTokenCount(input + output)) return undefined;
  return { inputTokens: input, outputTokens: output };
}
