/**
 * The times on a rollout's lines, as the common model stores a message's time: milliseconds
 * since the epoch.
 */

/** Digits `from`..`to` (exclusive) of `text` as a number, or -1 when one is not an ASCII digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The time Codex writes on every line, `YYYY-MM-DDTHH:MM:SS.mmmZ`, read without `Date.parse`
 * (a measurable share of reading a long rollout). Only a date every month has (day ≤ 28) and a
 * year from 1970 on take this path, so `Date.UTC` gives exactly what `Date.parse` would; any
 * other text is left to `Date.parse`. time.test.ts compares the two on a table.
 */
function canonicalEpochMs(iso: string): number | undefined {
  if (iso.length !== 24 || iso[4] !== "-" || iso[7] !== "-" || iso[10] !== "T" || iso[13] !== ":" || iso[16] !== ":") return undefined;
  if (iso[19] !== "." || iso[23] !== "Z") return undefined;
  const year = digitsAt(iso, 0, 4);
  const month = digitsAt(iso, 5, 7);
  const day = digitsAt(iso, 8, 10);
  const hour = digitsAt(iso, 11, 13);
  const minute = digitsAt(iso, 14, 16);
  const second = digitsAt(iso, 17, 19);
  const millisecond = digitsAt(iso, 20, 23);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23) return undefined;
  if (minute < 0 || minute > 59 || second < 0 || second > 59 || millisecond < 0) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
}

/** An ISO time as milliseconds since the epoch, as `Date.parse` reads it; `undefined` when it is not a time. */
export function epochMs(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = canonicalEpochMs(iso) ?? Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}
