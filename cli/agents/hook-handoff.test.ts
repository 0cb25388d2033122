import { describe, expect, test } from "bun:test";
import { silenceLimitMs } from "../model/endpoint.ts";
import { DEFAULT_RETRIES } from "../flags/options.ts";
import { retriesFor, timeoutFor } from "./hook-handoff.ts";

/**
 * `--retries 0` exactly when the model port's silence limit (its share of the handoff's --timeout)
 * is more than half the hook's share: a stalled first answer would leave the retry less time than
 * it waited. The edge is a share of twice the silence limit: 120 s (the limit's floor of 60 s),
 * where the retry has exactly the half it waited, and is kept.
 */

const NO_RETRY = ["--retries", "0"];

/** The hook's share in seconds, and whether the handoff runs with --retries 0. */
const EDGES: [number, boolean][] = [
  [9, true],
  [60, true],
  [119, true],
  [119.999, true],
  [120, false],
  [120.001, false],
  [121, false],
  [525, false],
  [585, false],
];

describe("the hook's handoff: no retry of a stalled model the share leaves no time for", () => {
  for (const [seconds, none] of EDGES)
    test(`a share of ${seconds} s: ${none ? "--retries 0" : "the retries stay"}`, () => {
      expect(retriesFor(seconds, timeoutFor(seconds))).toEqual(none ? NO_RETRY : []);
    });

  test("at the edge the silence limit is exactly half the share, on either side by a millisecond", () => {
    const at = 120;
    expect(silenceLimitMs(timeoutFor(at) * 1000, DEFAULT_RETRIES)).toBe((at * 1000) / 2);
    expect(silenceLimitMs(timeoutFor(at - 0.001) * 1000, DEFAULT_RETRIES)).toBeGreaterThan(((at - 0.001) * 1000) / 2);
    expect(silenceLimitMs(timeoutFor(at + 0.001) * 1000, DEFAULT_RETRIES)).toBeLessThan(((at + 0.001) * 1000) / 2);
  });
});
