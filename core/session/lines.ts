import { ChunkLines } from "./chunk-lines.ts";
import { passedOverLine, toRawLine, type LineCursor, type PassOver, type RawLine } from "./raw-line.ts";

export type { LineCursor, RawLine } from "./raw-line.ts";

/**
 * The longest line kept: a longer one is skipped unread, so one line (say a crash's gigabytes
 * of NUL bytes with no line break, or a runaway tool output) cannot take memory beyond it. Real
 * entries stay far below: a pasted image is a few MB, the 100 MB reader benchmark has lines
 * under 1 MB.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** What a reader may lower, for tests that must not build a file the bound's size. */
export interface LineLimits {
  maxLineBytes?: number;
}

export interface SplitOptions {
  /**
   * Every line as the file holds it, for a rewrite that must keep every byte: blank lines are
   * yielded too, and a byte-order mark is kept (in `bom`) instead of being dropped.
   */
  exact?: boolean;
  /**
   * Recognises, from its UTF-8 bytes, a line the reader has no use for (most of a Codex
   * rollout): it is not decoded, and comes with `passedOver`, so line numbers still count. Only
   * a line ended by its newline is offered: the last line without one may be torn, and torn
   * lines are parsed so they are reported. Text input is encoded for it, so both read alike.
   */
  passOver?: PassOver;
  /** Lines longer than this many bytes are skipped unread (default `MAX_LINE_BYTES`); chunked input only. */
  maxLineBytes?: number;
}

/**
 * A session file as UTF-8 bytes: all at once, or in chunks as they are read. A chunk may be
 * reused by its producer once the next one is asked for, so nothing here keeps a chunk.
 */
export type SessionBytes = Uint8Array | Iterable<Uint8Array>;

/**
 * Cuts JSON Lines on `\n`, tolerating `\r\n`, skipping blank lines; an `indexOf` loop rather
 * than `split`, so a 100 MB file is never copied into one array of strings.
 *
 * Bytes are decoded one line at a time. That keeps memory near the file's size: one string of a
 * whole file takes two bytes per character as soon as a single character in it is not Latin-1,
 * and chunks mean the whole file never has to be in memory as bytes either. A cursor, not a
 * generator: a resume per line cost the 1 MB session's read ~1 ms.
 */
export function readLines(input: string | SessionBytes, options: SplitOptions = {}): LineCursor {
  const exact = options.exact === true;
  if (typeof input === "string") return new TextLines(input, exact, options.passOver);
  const chunks = input instanceof Uint8Array ? [input] : input;
  return new ChunkLines(chunks[Symbol.iterator](), exact, options.passOver, options.maxLineBytes ?? MAX_LINE_BYTES);
}

/** The lines of `readLines`, as a generator: stopping it early stops reading chunks. */
export function* splitLines(input: string | SessionBytes, options: SplitOptions = {}): Generator<RawLine> {
  const lines = readLines(input, options);
  try {
    for (let raw = lines.next(); raw !== undefined; raw = lines.next()) yield raw;
  } finally {
    lines.close();
  }
}

class TextLines implements LineCursor {
  private readonly text: string;
  private readonly exact: boolean;
  private readonly passOver: PassOver | undefined;
  private readonly encoder: TextEncoder | undefined;
  private start = 0;
  private line = 0;

  constructor(text: string, exact: boolean, passOver: PassOver | undefined) {
    this.text = text;
    this.exact = exact;
    this.passOver = passOver;
    this.encoder = passOver ? new TextEncoder() : undefined;
  }

  next(): RawLine | undefined {
    const text = this.text;
    while (this.start <= text.length) {
      const start = this.start;
      const end = text.indexOf("\n", start);
      // A text that ends with its last line's `\n` has no line after it.
      if (end === -1 && start === text.length) break;
      const lineText = text.slice(start, end === -1 ? text.length : end);
      this.start = end === -1 ? text.length + 1 : end + 1;
      // A line without its newline may be torn (a crash cuts the file's last line): never passed over, so it is parsed and reported.
      const raw =
        this.encoder && end !== -1 && this.passOver?.(this.encoder.encode(lineText))
          ? passedOverLine(++this.line, lineText.endsWith("\r"), true)
          : toRawLine(++this.line, lineText, end !== -1, this.exact);
      if (raw) return raw;
    }
    return undefined;
  }

  close(): void {}
}
