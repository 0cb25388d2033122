/** A count as people read it in our messages: digits grouped the same way on every machine (12,345). */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
