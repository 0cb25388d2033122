import { splitLines, type RawLine, type SessionBytes } from "../lines.ts";

/** How many of a file's first lines a format sees to recognise it. */
export const HEAD_LINES = 20;

/** Past this many bytes, a head with one whole line is enough (lines of agent files can be large). */
const HEAD_BYTES = 1 << 20;

/** A file's first lines, and the whole file still to be read from its start. */
export interface PeekedSession {
  head: RawLine[];
  input: string | SessionBytes;
  /** Stops reading a file whose chunks were never read to the end (when it is refused, say). */
  close: () => void;
}

/** Whether bytes `[start, end)` hold more than spaces, tabs and carriage returns. */
function hasText(chunk: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = chunk[i];
    if (byte !== 32 && byte !== 9 && byte !== 13) return true;
  }
  return false;
}

/**
 * How many lines with text a chunk ends (blank ones are no line of the head), counting no
 * further than `wanted`: a megabyte chunk of a thousand lines need not be looked through for the
 * head's twenty. `open.text` says whether the line still open at its start already has some,
 * and is updated for the next chunk.
 */
function countTextLines(chunk: Uint8Array, open: { text: boolean }, wanted: number): number {
  let count = 0;
  for (let start = 0; ; ) {
    const lf = chunk.indexOf(10, start);
    const end = lf === -1 ? chunk.length : lf;
    if (!open.text) open.text = hasText(chunk, start, end);
    if (lf === -1) return count;
    if (open.text) count++;
    open.text = false;
    if (count === wanted) return count;
    start = lf + 1;
  }
}

/** The chunks held first, then the rest; reading it to its end or stopping it stops `rest` too. */
function* replay(held: Uint8Array[], rest: Iterator<Uint8Array>): Generator<Uint8Array> {
  try {
    // Handed over and forgotten one by one, so a large head is not kept for the whole read.
    for (let chunk = held.shift(); chunk !== undefined; chunk = held.shift()) yield chunk;
    for (let next = rest.next(); next.done !== true; next = rest.next()) yield next.value;
  } finally {
    rest.return?.();
  }
}

/**
 * The first `HEAD_LINES` lines of a session (blank lines left out) without losing them for the
 * read that follows: the chunks read to find them are handed to the reader again before the
 * rest (copied when more had to be read after them: a producer may reuse a chunk). Usually the
 * first chunk holds them all, and nothing is copied (a copy showed as 10% more peak memory on
 * `bun run bench load`). Only whole lines are in the head, except a last line the file ends
 * without `\n`.
 */
export function peekHead(input: string | SessionBytes): PeekedSession {
  if (typeof input === "string" || input instanceof Uint8Array) {
    return { head: take(splitLines(input), HEAD_LINES), input, close: () => {} };
  }
  const rest = input[Symbol.iterator]();
  // The chunks read so far: copies, and last the producer's own, valid until the next is asked for.
  const held: Uint8Array[] = [];
  let live: Uint8Array | undefined;
  const open = { text: false };
  let lines = 0;
  let bytes = 0;
  let ended = false;
  while (lines < HEAD_LINES && !(bytes >= HEAD_BYTES && lines > 0)) {
    if (live) held.push(live.slice());
    live = undefined;
    const next = rest.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    live = next.value;
    lines += countTextLines(live, open, HEAD_LINES - lines);
    bytes += live.length;
  }
  if (live) held.push(live);
  const head = take(splitLines(held), HEAD_LINES).filter((line) => line.ended || ended);
  return { head, input: replay(held, rest), close: () => rest.return?.() };
}

function take(lines: Generator<RawLine>, count: number): RawLine[] {
  const out: RawLine[] = [];
  for (const line of lines) {
    out.push(line);
    if (out.length === count) break;
  }
  return out;
}
