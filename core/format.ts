/** A count as people read it in our messages: digits grouped the same way on every machine (12,345). */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * A count with its noun as people read it: `1 message`, `2 messages`, `0 messages`, `12,345
 * tokens`. The one plural rule for every count we print; `many` for a noun whose plural is not
 * `one` + s (`1 entry`, `2 entries`).
 */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
