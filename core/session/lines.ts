/** One non-blank line of a JSON Lines file, with its 1-based line number. */
export interface RawLine {
  line: number;
  text: string;
  /** False for a last line with no `\n` after it (a torn write, or a hand-edited file). */
  ended: boolean;
}

/**
 * A session file as UTF-8 bytes: all at once, or in chunks as they are read. A chunk may be
 * reused by its producer once the next one is asked for, so nothing here keeps a chunk.
 */
export type SessionBytes = Uint8Array | Iterable<Uint8Array>;

const LF = 10;

/**
 * Splits JSON Lines on `\n`, tolerating `\r\n`, skipping blank lines; an `indexOf` loop rather
 * than `split`, so a 100 MB file is never copied into one array of strings.
 *
 * Bytes are decoded one line at a time. That keeps memory near the file's size: one string of a
 * whole file takes two bytes per character as soon as a single character in it is not Latin-1,
 * and chunks mean the whole file never has to be in memory as bytes either.
 */
export function* splitLines(input: string | SessionBytes): Generator<RawLine> {
  if (typeof input === "string") yield* splitText(input);
  else yield* splitChunks(input instanceof Uint8Array ? [input] : input);
}

function* splitText(text: string): Generator<RawLine> {
  let line = 0;
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf("\n", start);
    const raw = toRawLine(++line, text.slice(start, end === -1 ? text.length : end), end !== -1);
    if (raw) yield raw;
    if (end === -1) break;
    start = end + 1;
  }
}

function* splitChunks(chunks: Iterable<Uint8Array>): Generator<RawLine> {
  const decoder = new TextDecoder();
  let line = 0;
  let carried: Uint8Array[] = []; // the start of a line that goes on in the next chunk
  for (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
      const raw = toRawLine(++line, decoder.decode(concat(carried, chunk.subarray(start, end))), true);
      carried = [];
      if (raw) yield raw;
      start = end + 1;
    }
    if (start < chunk.length) carried.push(chunk.slice(start)); // a copy: the chunk may be reused
  }
  const raw = carried.length > 0 ? toRawLine(++line, decoder.decode(concat(carried)), false) : undefined;
  if (raw) yield raw;
}

function toRawLine(line: number, raw: string, ended: boolean): RawLine | undefined {
  const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  return text.trim() === "" ? undefined : { line, text, ended };
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
