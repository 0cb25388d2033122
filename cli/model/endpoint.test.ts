import { describe, expect, test } from "bun:test";
import { retryDelayMs } from "./endpoint.ts";

describe("retryDelayMs: what the endpoint asked for, else a growing backoff", () => {
  test.each([
    ["retry-after-ms", { "retry-after-ms": "250" }, 250],
    ["retry-after in seconds", { "retry-after": "2" }, 2000],
    ["retry-after 0", { "retry-after": "0" }, 0],
    ["an absurd retry-after is capped at a minute", { "retry-after": "86400" }, 60_000],
    ["a negative retry-after-ms is ignored for retry-after", { "retry-after-ms": "-5", "retry-after": "1" }, 1000],
  ])("%s", (_, headers, expected) => {
    expect(retryDelayMs(new Headers(headers), 1)).toBe(expected);
  });

  test("an HTTP date in the past means now", () => {
    expect(retryDelayMs(new Headers({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" }), 1)).toBe(0);
  });

  test.each([
    [1, 375, 500],
    [2, 750, 1000],
    [3, 1500, 2000],
    [10, 6000, 8000],
  ])("no header, attempt %d: between %d and %d ms", (attempt, low, high) => {
    const delay = retryDelayMs(undefined, attempt);
    expect(delay).toBeGreaterThanOrEqual(low);
    expect(delay).toBeLessThanOrEqual(high);
  });
});
