/**
 * Which lines of markdown are fenced code. A fence opens at a line starting with three or more
 * backticks or tildes and closes at a line starting with at least as many of the same mark;
 * other marks inside (a ~~~ in a ``` block) are code. Shared so every reader agrees on what is
 * prose: the offline engine's sentence picker, its summary reader, and the facts-section finder.
 */
export function markFencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = [];
  let open: string | undefined;
  for (const line of lines) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined && marker !== undefined) open = marker;
    else if (open !== undefined && marker?.startsWith(open) === true) {
      fenced.push(true);
      open = undefined;
      continue;
    }
    fenced.push(open !== undefined);
  }
  return fenced;
}
