/**
 * A count as people read it in our messages: digits grouped the same way on every machine
 * (12,345), as `toLocaleString("en-US")` writes it. Whole numbers are grouped here: the first
 * `toLocaleString` of a run loads the locale's data (about 15 ms of a handoff's start); the rare
 * other number (a fraction, -0, one past 2^53) still goes through it.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${grouped}` : grouped;
}

/**
 * A count with its noun as people read it: `1 message`, `2 messages`, `0 messages`, `12,345
 * tokens`. The one plural rule for every count we print; `many` for a noun whose plural is not
 * `one` + s (`1 entry`, `2 entries`).
 */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** `a pi session`, `an opencode session`: the article English puts before a name (by its first letter's sound, vowels only). */
export function withArticle(name: string): string {
  return `${/^[aeio]/i.test(name) ? "an" : "a"} ${name}`;
}
