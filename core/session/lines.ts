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
   * Why the line is unusable, set when it was not kept whole (see `MAX_LINE_BYTES`, NUL bytes):
   * `text` is then at most a sample of its start, and readers skip the line with this reason.
   */
  unusable?: string;
}

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
  passOver?: (line: Uint8Array) => boolean;
  /** Lines longer than this many bytes are skipped unread (default `MAX_LINE_BYTES`); chunked input only. */
  maxLineBytes?: number;
}

/**
 * A session file as UTF-8 bytes: all at once, or in chunks as they are read. A chunk may be
 * reused by its producer once the next one is asked for, so nothing here keeps a chunk.
 */
export type SessionBytes = Uint8Array | Iterable<Uint8Array>;

const LF = 10;
const CR = 13;

/**
 * Splits JSON Lines on `\n`, tolerating `\r\n`, skipping blank lines; an `indexOf` loop rather
 * than `split`, so a 100 MB file is never copied into one array of strings.
 *
 * Bytes are decoded one line at a time. That keeps memory near the file's size: one string of a
 * whole file takes two bytes per character as soon as a single character in it is not Latin-1,
 * and chunks mean the whole file never has to be in memory as bytes either.
 */
export function splitLines(input: string | SessionBytes, options: SplitOptions = {}): Generator<RawLine> {
  const exact = options.exact === true;
  // The generator itself, not one delegating to it: a `yield*` would add a resume per line.
  if (typeof input === "string") return splitText(input, exact, options.passOver);
  return splitChunks(input instanceof Uint8Array ? [input] : input, exact, options.passOver, options.maxLineBytes ?? MAX_LINE_BYTES);
}

type PassOver = SplitOptions["passOver"];

function passedOverLine(line: number, crlf: boolean, ended: boolean): RawLine {
  return { line, text: "", ended, eol: lineEnd(crlf, ended), passedOver: true };
}

/** What ended a line, as one of four constant strings (a concatenation per line would allocate one per line). */
function lineEnd(cr: boolean, ended: boolean): string {
  if (cr) return ended ? "\r\n" : "\r";
  return ended ? "\n" : "";
}

function* splitText(text: string, exact: boolean, passOver: PassOver): Generator<RawLine> {
  const encoder = passOver ? new TextEncoder() : undefined;
  let line = 0;
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf("\n", start);
    // A text that ends with its last line's `\n` has no line after it.
    if (end === -1 && start === text.length) break;
    const lineText = text.slice(start, end === -1 ? text.length : end);
    // A line without its newline may be torn (a crash cuts the file's last line): never passed over, so it is parsed and reported.
    const raw =
      encoder && end !== -1 && passOver?.(encoder.encode(lineText))
        ? passedOverLine(++line, lineText.endsWith("\r"), end !== -1)
        : toRawLine(++line, lineText, end !== -1, exact);
    if (raw) yield raw;
    if (end === -1) break;
    start = end + 1;
  }
}

const NUL = 0;
/** How much of a line of NUL bytes' start is looked at for its sample (the binary-data check). */
const SAMPLE_BYTES = 1024;

/**
 * A line not kept whole: past `maxLineBytes`, or holding NUL bytes, which JSON text never does
 * (a crash can leave a file's tail as NUL bytes with no line break). Its bytes are dropped as
 * they come, up to its line break, so memory stays bounded whatever its length.
 */
function unusableLine(line: number, sample: string, ended: boolean, reason: string): RawLine {
  return { line, text: sample, ended, eol: ended ? "\n" : "", unusable: reason };
}

function* splitChunks(chunks: Iterable<Uint8Array>, exact: boolean, passOver: PassOver, maxLineBytes: number): Generator<RawLine> {
  // A decoder drops a leading byte-order mark from every text it decodes, unless told to keep it.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: exact });
  let line = 0;
  let carried: Uint8Array[] = []; // the start of a line that goes on in the next chunk
  let carriedBytes = 0;
  // Set while the current line is being dropped: why, and a sample of its start.
  let dropping: { reason: string; sample: string } | undefined;
  const drop = (start: Uint8Array, reason: string) => {
    const head = concat([...carried, start.subarray(0, SAMPLE_BYTES)]).subarray(0, SAMPLE_BYTES);
    const nul = head.indexOf(NUL);
    // A line of NUL bytes keeps its start and one NUL, so the binary-data check still sees it; a
    // line too long keeps nothing (a sample cut inside a character would look like binary data).
    dropping = { reason, sample: nul === -1 ? "" : `${decoder.decode(head.subarray(0, nul))}\u0000` };
    carried = [];
    carriedBytes = 0;
  };
  for (const chunk of chunks) {
    // One scan per chunk: a chunk without NUL bytes (nearly always) needs no look per line.
    const hasNul = chunk.indexOf(NUL) !== -1;
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      // The line's bytes in this chunk, looked at once (a view, not a copy).
      let part: Uint8Array | undefined;
      if (!dropping) {
        part = chunk.subarray(start, end);
        if (hasNul && part.indexOf(NUL) !== -1) drop(part, "holds NUL bytes (a write cut short by a crash?); skipped unread");
        else if (carriedBytes + part.length > maxLineBytes) drop(part, `longer than ${formatBytes(maxLineBytes)}; skipped unread`);
      }
      if (lf === -1) {
        if (!dropping && start < chunk.length) {
          carried.push(chunk.slice(start)); // a copy: the chunk may be reused
          carriedBytes += chunk.length - start;
        }
        break;
      }
      if (dropping) {
        yield unusableLine(++line, dropping.sample, true, dropping.reason);
        dropping = undefined;
      } else {
        // Most lines lie within one chunk: only one that began in an earlier chunk is copied.
        const here = part ?? chunk.subarray(start, end);
        const bytes = carried.length === 0 ? here : concat(carried, here);
        const raw = passOver?.(bytes)
          ? passedOverLine(++line, bytes[bytes.length - 1] === CR, true)
          : toRawLine(++line, decoder.decode(bytes), true, exact);
        if (carried.length > 0) {
          carried = [];
          carriedBytes = 0;
        }
        if (raw) yield raw;
      }
      start = end + 1;
    }
  }
  if (dropping) {
    yield unusableLine(++line, dropping.sample, false, dropping.reason);
    return;
  }
  const last = carried.length > 0 ? concat(carried) : undefined;
  // The last line without its newline may be torn where a crash cut the file: it is never passed over, so it is parsed and reported.
  const raw = last && toRawLine(++line, decoder.decode(last), false, exact);
  if (raw) yield raw;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function toRawLine(line: number, raw: string, ended: boolean, exact: boolean): RawLine | undefined {
  const cr = raw.endsWith("\r");
  const eol = lineEnd(cr, ended);
  const text = cr ? raw.slice(0, -1) : raw;
  if (!exact) return text.trim() === "" ? undefined : { line, text, ended, eol };
  const bom = text.startsWith("\ufeff") ? "\ufeff" : "";
  return { line, text: text.slice(bom.length), ended, eol, bom };
}

/** The parts and the tail as one array; no copy when there is only the tail. */
function concat(parts: readonly Uint8Array[], tail?: Uint8Array): Uint8Array {
  const all = tail ? [...parts, tail] : parts;
  if (all.length === 1 && all[0]) return all[0];
  let length = 0;
  for (const part of all) length += part.length;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of all) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
