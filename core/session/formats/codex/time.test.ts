import { describe, expect, test } from "bun:test";
import { epochMs } from "./time.ts";

/** What the reader gave before the fast path: `Date.parse`, `undefined` when it is not a time. */
function byDateParse(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}

describe("a line's time reads as Date.parse reads it", () => {
  test.each([
    "2026-11-30T09:00:00.000Z",
    "2026-11-30T23:59:59.999Z",
    "1970-01-01T00:00:00.000Z",
    "1969-12-31T23:59:59.999Z",
    "0099-01-01T00:00:00.000Z",
    "2024-02-29T12:00:00.000Z",
    "2026-02-29T12:00:00.000Z",
    "2026-02-30T12:00:00.000Z",
    "2026-04-31T12:00:00.000Z",
    "2026-13-01T00:00:00.000Z",
    "2026-00-10T00:00:00.000Z",
    "2026-01-00T00:00:00.000Z",
    "2026-01-10T24:00:00.000Z",
    "2026-01-10T23:60:00.000Z",
    "2026-01-10T23:59:60.000Z",
    "2026-01-10T1a:00:00.000Z",
    "2026-01-10T10:00:00.00-Z",
    "2026-01-10T10:00:00.000+",
    "2026-01-10 10:00:00.000Z",
    "2026-01-10T10:00:00.000",
    "2026-01-10T10:00:00Z",
    "2026-01-10T10:00:00.123456Z",
    "2026-01-10T10:00:00.000+02:00",
    "+002026-01-10T10:00:00.000Z",
    "2026-01-10",
    "",
    "not a time",
    "２０２６-01-10T10:00:00.000Z",
  ])("%p", (iso) => {
    expect(epochMs(iso)).toBe(byDateParse(iso));
  });

  test("every day of a leap year and of a common one, at odd times", () => {
    for (const year of [2024, 2026]) {
      for (let day = 0; day < 366; day++) {
        const iso = new Date(Date.UTC(year, 0, 1) + day * 86_400_000 + 37_421_123).toISOString();
        expect(epochMs(iso)).toBe(byDateParse(iso));
      }
    }
  });

  test("no time at all", () => {
    expect(epochMs(undefined)).toBeUndefined();
  });
});
