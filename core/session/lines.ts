/** One non-blank line of a JSON Lines file, with its 1-based line number. */
export interface RawLine {
  line: number;
  text: string;
}

/**
 * Splits JSON Lines text on `\n`, tolerating `\r\n`, skipping blank lines. Written as an
 * `indexOf` loop rather than `split` so that a 100 MB file is not copied into one huge array
 * of strings before we look at it.
 */
export function* splitLines(text: string): Generator<RawLine> {
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    line++;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
    if (stop > start) {
      const slice = text.slice(start, stop);
      if (slice.trim() !== "") yield { line, text: slice };
    }
    start = end + 1;
  }
}
