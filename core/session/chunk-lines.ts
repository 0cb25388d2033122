/**
 * Lines cut from a session's bytes, a chunk at a time as they are read (see lines.ts): decoded
 * one line at a time, and bounded, so no line (a crash's NUL bytes, a runaway output) takes
 * memory beyond its bound.
 */
import { passedOverLine, toRawLine, type LineCursor, type PassOver, type RawLine } from "./raw-line.ts";

const LF = 10;
const CR = 13;
const OPEN_BRACE = 0x7b;
const NUL = 0;
/**
 * How many lines `cutMany` cuts ahead at first, and at most (each batch twice the last), and
 * the bytes after which a batch ends. Small: lines cut ahead are held as text until handed out,
 * and text still held when the collector runs outlives it (bench load-claude-code, 40 MB: 256
 * lines a batch took peak RSS from 91 to 103 MB and more CPU; 32 lines, 92 MB and less CPU).
 */
const FIRST_BATCH = 8;
const MAX_BATCH = 32;
const MAX_BATCH_BYTES = 64 * 1024;
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

/** The lines of chunks of bytes (see lines.ts `readLines`). */
export class ChunkLines implements LineCursor {
  private readonly chunks: Iterator<Uint8Array>;
  private readonly exact: boolean;
  private readonly passOver: PassOver | undefined;
  private readonly maxLineBytes: number;
  // A decoder drops a leading byte-order mark from every text it decodes, unless told to keep it.
  private readonly decoder: TextDecoder;
  /** The chunk being cut, until its last line break; the next is asked for only then (a producer may reuse it). */
  private chunk: Uint8Array | undefined;
  private chunkHasNul = false;
  private start = 0;
  private line = 0;
  private carried: Uint8Array[] = []; // the start of a line that goes on in the next chunk
  private carriedBytes = 0;
  // Set while the current line is being dropped: why, and a sample of its start.
  private dropping: { reason: string; sample: string } | undefined;
  private ended = false;
  /** Lines cut ahead by `cutMany`, and the next of them to hand out. */
  private ready: RawLine[] = [];
  private readyAt = 0;
  private batch = FIRST_BATCH;

  constructor(chunks: Iterator<Uint8Array>, exact: boolean, passOver: PassOver | undefined, maxLineBytes: number) {
    this.chunks = chunks;
    this.exact = exact;
    this.passOver = passOver;
    this.maxLineBytes = maxLineBytes;
    this.decoder = new TextDecoder("utf-8", { ignoreBOM: exact });
  }

  next(): RawLine | undefined {
    if (this.readyAt < this.ready.length) return this.ready[this.readyAt++];
    for (;;) {
      const chunk = this.chunk;
      if (chunk === undefined) {
        if (this.ended) return undefined;
        const next = this.chunks.next();
        if (next.done === true) {
          this.ended = true;
          return this.lastLine();
        }
        this.chunk = next.value;
        this.start = 0;
        // One scan per chunk: a chunk without NUL bytes (nearly always) needs no look per line.
        this.chunkHasNul = next.value.indexOf(NUL) !== -1;
        continue;
      }
      if (!this.exact && !this.passOver && !this.chunkHasNul && !this.dropping && this.carried.length === 0 && this.cutMany(chunk))
        return this.ready[this.readyAt++];
      const start = this.start;
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      // The line's bytes in this chunk, looked at once (a view, not a copy).
      let part: Uint8Array | undefined;
      if (!this.dropping) {
        part = chunk.subarray(start, end);
        if (this.chunkHasNul && part.indexOf(NUL) !== -1)
          this.drop(part, "holds NUL bytes (a write cut short by a crash?); skipped unread");
        else if (this.carriedBytes + part.length > this.maxLineBytes)
          this.drop(part, `longer than ${formatBytes(this.maxLineBytes)}; skipped unread`);
      }
      if (lf === -1) {
        if (!this.dropping && start < chunk.length) {
          this.carried.push(chunk.slice(start)); // a copy: the chunk may be reused
          this.carriedBytes += chunk.length - start;
        }
        this.chunk = undefined;
        continue;
      }
      this.start = end + 1;
      const dropped = this.dropping;
      if (dropped) {
        this.dropping = undefined;
        return unusableLine(++this.line, dropped.sample, true, dropped.reason);
      }
      // Most lines lie within one chunk: only one that began in an earlier chunk is copied.
      const here = part ?? chunk.subarray(start, end);
      const bytes = this.carried.length === 0 ? here : concat(this.carried, here);
      const raw = this.passOver?.(bytes)
        ? passedOverLine(++this.line, bytes[bytes.length - 1] === CR, true)
        : this.exact
          ? toRawLine(++this.line, this.decoder.decode(bytes), true, true)
          : this.endedLine(bytes);
      if (this.carried.length > 0) {
        this.carried = [];
        this.carriedBytes = 0;
      }
      if (raw) return raw;
    }
  }

  close(): void {
    this.ready = [];
    this.readyAt = 0;
    if (this.ended) return;
    this.ended = true;
    this.chunk = undefined;
    this.chunks.return?.();
  }

  /**
   * The common case, cut in one loop: the whole lines of a chunk without NUL bytes, none too
   * long, read neither `exact` nor passing any over, a batch at a time (small first, so a head
   * of twenty lines decodes few more). What it stops at (a line the chunk does not end, one too
   * long) is left to `next`. Whether it made any line.
   */
  private cutMany(chunk: Uint8Array): boolean {
    const ready: RawLine[] = [];
    const batch = this.batch;
    this.batch = Math.min(batch * 2, MAX_BATCH);
    let start = this.start;
    let line = this.line;
    const stop = start + MAX_BATCH_BYTES;
    while (ready.length < batch && start < stop) {
      const lf = chunk.indexOf(LF, start);
      if (lf === -1 || lf - start > this.maxLineBytes) break;
      line++;
      const cr = lf > start && chunk[lf - 1] === CR;
      const text = this.decoder.decode(chunk.subarray(start, cr ? lf - 1 : lf));
      const first = chunk[start];
      start = lf + 1;
      // A line that starts with `{` (every JSON Lines record) has text without trimming it.
      if (first !== OPEN_BRACE && text.trim() === "") continue;
      ready.push({ line, text, ended: true, eol: cr ? "\r\n" : "\n" });
    }
    this.start = start;
    this.line = line;
    this.ready = ready;
    this.readyAt = 0;
    return ready.length > 0;
  }

  /**
   * `toRawLine` for an ended line read not `exact`, the bulk of a read, with the `\r` and the
   * blank line found in the bytes: fewer calls per line (they showed in the 1 MB session's profile).
   */
  private endedLine(bytes: Uint8Array): RawLine | undefined {
    const line = ++this.line;
    const cr = bytes[bytes.length - 1] === CR;
    const text = this.decoder.decode(cr ? bytes.subarray(0, bytes.length - 1) : bytes);
    // A line that starts with `{` (every JSON Lines record) has text without trimming it.
    if (bytes[0] !== OPEN_BRACE && text.trim() === "") return undefined;
    return { line, text, ended: true, eol: cr ? "\r\n" : "\n" };
  }

  private drop(start: Uint8Array, reason: string): void {
    const head = concat([...this.carried, start.subarray(0, SAMPLE_BYTES)]).subarray(0, SAMPLE_BYTES);
    const nul = head.indexOf(NUL);
    // A line of NUL bytes keeps its start and one NUL, so the binary-data check still sees it; a
    // line too long keeps nothing (a sample cut inside a character would look like binary data).
    this.dropping = { reason, sample: nul === -1 ? "" : `${this.decoder.decode(head.subarray(0, nul))}\u0000` };
    this.carried = [];
    this.carriedBytes = 0;
  }

  /** The line after the last line break, if any. */
  private lastLine(): RawLine | undefined {
    const dropped = this.dropping;
    if (dropped) {
      this.dropping = undefined;
      return unusableLine(++this.line, dropped.sample, false, dropped.reason);
    }
    const last = this.carried.length > 0 ? concat(this.carried) : undefined;
    this.carried = [];
    this.carriedBytes = 0;
    // The last line without its newline may be torn where a crash cut the file: it is never passed over, so it is parsed and reported.
    return last && toRawLine(++this.line, this.decoder.decode(last), false, this.exact);
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
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
