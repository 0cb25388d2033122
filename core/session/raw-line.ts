/**
 * A line as the readers get it, and the little every line cutter shares (lines.ts cuts text and
 * hands bytes to chunk-lines.ts).
 */

/** One non-blank line of a JSON Lines file, with its 1-based line number. */
export interface RawLine {
  line: number;
  /** The line without what ends it and, read `exact`, without a leading byte-order mark. */
  text: string;
  /** False for a last line with no `\n` after it (a torn write, or a hand-edited file). */
  ended: boolean;
  /** What ended the line in the file: `\n`, `\r\n`, or, on a last line without a `\n`, `\r` or nothing. */
  eol: string;
  /** Read `exact`: the byte-order mark the line started with, else `""`. */
  bom?: string;
  /** Set when `passOver` recognised the line: it was not decoded, and `text` is `""`. */
  passedOver?: true;
  /**
   * Why the line is unusable, set when it was not kept whole (see `MAX_LINE_BYTES` in lines.ts,
   * NUL bytes): `text` is then at most a sample of its start, and readers skip the line with
   * this reason.
   */
  unusable?: string;
}

/** A session's lines one at a time, for a reader that takes every line: `next()` until `undefined`. */
export interface LineCursor {
  next(): RawLine | undefined;
  /** Stops reading chunks when the reader stops before the end (a file refused at its header); harmless after the end. */
  close(): void;
}

/** Recognises, from its UTF-8 bytes, a line the reader has no use for (see `SplitOptions.passOver`). */
export type PassOver = (line: Uint8Array) => boolean;

export function passedOverLine(line: number, crlf: boolean, ended: boolean): RawLine {
  return { line, text: "", ended, eol: lineEnd(crlf, ended), passedOver: true };
}

/** What ended a line, as one of four constant strings (a concatenation per line would allocate one per line). */
export function lineEnd(cr: boolean, ended: boolean): string {
  if (cr) return ended ? "\r\n" : "\r";
  return ended ? "\n" : "";
}

/** A decoded line as a reader gets it (its `\r` and, read `exact`, its byte-order mark apart); `undefined` for a blank one not read `exact`. */
export function toRawLine(line: number, raw: string, ended: boolean, exact: boolean): RawLine | undefined {
  const cr = raw.endsWith("\r");
  const eol = lineEnd(cr, ended);
  const text = cr ? raw.slice(0, -1) : raw;
  if (!exact) return text.trim() === "" ? undefined : { line, text, ended, eol };
  const bom = text.startsWith("\ufeff") ? "\ufeff" : "";
  return { line, text: text.slice(bom.length), ended, eol, bom };
}
