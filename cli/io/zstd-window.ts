/**
 * A glance into a compressed rollout without holding its text: the first bytes (for the header
 * and the first request) and the last ones (the size, for an estimate), streamed through a small
 * buffer. A zstd file packs repetitive text tens of thousands to one, so a 34 KB file can hold a
 * gigabyte; decompressing stops at a cap, and the listing then says the size is unknown.
 */
import { glanceReads, readInto } from "../sessions/glance-read.ts";
import { builtin } from "./builtins.ts";

/** Past this much text, a compressed file is not read to its end for a glance. */
export const MAX_GLANCE_TEXT_BYTES = 256 * 1024 * 1024;
/** Text this many times larger than the compressed bytes read so far is no session log (real rollouts: ~10×). */
export const MAX_GLANCE_RATIO = 1000;
/** The ratio is judged only once this much text came out (a small file's header can compress oddly). */
export const RATIO_AFTER_BYTES = 8 * 1024 * 1024;
const IN_CHUNK = 64 * 1024;
const OUT_CHUNK = 64 * 1024;

export interface TextWindow {
  /** The first `headBytes` of the text (fewer when it is shorter). */
  head: Uint8Array;
  /** The last `tailBytes` of the text; undefined when it was not read to its end. */
  tail: Uint8Array | undefined;
  /** The text's whole size; undefined when it was not read to its end. */
  textBytes: number | undefined;
  /** Why it was not read to its end (for `--verbose`). */
  gaveUp: string | undefined;
}

/** The streaming decoder's native step (`writeSync` into a fixed output buffer), as node:zlib's own sync calls use it. */
export interface Step {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
}

export function stepperOf(decoder: object): { step: Step; state: Uint32Array } | undefined {
  const handle: unknown = Reflect.get(decoder, "_handle");
  const state: unknown = Reflect.get(decoder, "_writeState");
  if (typeof handle !== "object" || handle === null || !(state instanceof Uint32Array)) return undefined;
  const writeSync: unknown = Reflect.get(handle, "writeSync");
  if (typeof writeSync !== "function") return undefined;
  return { step: { writeSync: (...args) => writeSync.apply(handle, args) }, state };
}

/** Keeps the last `size` bytes written to it. */
class Tail {
  private buffer: Uint8Array;
  private length = 0;
  constructor(private readonly size: number) {
    this.buffer = new Uint8Array(size * 2);
  }
  push(bytes: Uint8Array): void {
    if (bytes.length >= this.size) {
      this.buffer.set(bytes.subarray(bytes.length - this.size));
      this.length = this.size;
      return;
    }
    if (this.length + bytes.length > this.buffer.length) {
      this.buffer.copyWithin(0, this.length - this.size, this.length);
      this.length = this.size;
    }
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  bytes(): Uint8Array {
    return this.buffer.slice(Math.max(0, this.length - this.size), this.length);
  }
}

export interface WindowBounds {
  headBytes: number;
  tailBytes: number;
  /** The text's first line must end within this many bytes, or the window is given up on there. */
  firstLineBytes: number;
}

/**
 * The ends of a zstd file's text, decompressed a chunk at a time: `start` is what the caller read
 * of the file already (from its first byte), the rest is read from `fd` after it, each byte once.
 * Reading stops at `MAX_GLANCE_TEXT_BYTES` of text, at a ratio no session log reaches, and where
 * the first line has gone on past `firstLineBytes`; then only the head is known.
 * Undefined when the decoder cannot be driven this way (nothing is decompressed then).
 */
export function zstdWindow(fd: number, start: Uint8Array, bounds: WindowBounds): TextWindow | undefined {
  const { headBytes, tailBytes, firstLineBytes } = bounds;
  // Loaded only for a compressed file (see zstd.ts).
  const decoder = new (builtin("node:zlib").ZstdDecompress)();
  const stepper = stepperOf(decoder);
  if (stepper === undefined) return undefined;
  // A damaged stream is reported through the stream's error event, after the step that found it
  // threw: heard here, or it would end the process as an error nobody listened for.
  let damaged = false;
  decoder.on("error", () => {
    damaged = true;
  });
  try {
    const buffer = new Uint8Array(IN_CHUNK);
    const out = new Uint8Array(OUT_CHUNK);
    const head = new Uint8Array(headBytes);
    const tail = new Tail(tailBytes);
    let headLength = 0;
    let firstLineEnded = false;
    let total = 0;
    let consumed = 0;
    let position = start.length;
    const partial = (gaveUp: string) => ({ head: head.slice(0, headLength), tail: undefined, textBytes: undefined, gaveUp });
    for (let input = start; ; ) {
      if (input.length === 0) {
        input = buffer.subarray(0, readInto(fd, buffer, position));
        position += input.length;
        if (input.length === 0) break;
      }
      let inOff = 0;
      let inLeft = input.length;
      // One input chunk can hold far more text than the buffer: step until it is used up and the buffer is not filled.
      for (;;) {
        try {
          stepper.step.writeSync(0, input, inOff, inLeft, out, 0, OUT_CHUNK);
        } catch {
          damaged = true;
        }
        if (damaged) return partial("is damaged");
        const [outLeft = 0, inAfter = 0] = stepper.state;
        const produced = OUT_CHUNK - outLeft;
        consumed += inLeft - inAfter;
        inOff += inLeft - inAfter;
        const progressed = produced > 0 || inAfter !== inLeft;
        inLeft = inAfter;
        const chunk = out.subarray(0, produced);
        if (headLength < headBytes) {
          const take = Math.min(headBytes - headLength, produced);
          head.set(chunk.subarray(0, take), headLength);
          headLength += take;
        }
        firstLineEnded ||= chunk.subarray(0, Math.max(0, firstLineBytes - total)).includes(10);
        tail.push(chunk);
        total += produced;
        glanceReads.text += produced;
        const gaveUp =
          total >= firstLineBytes && !firstLineEnded
            ? `has no line break in its first ${firstLineBytes / 1024} KiB of text`
            : total > MAX_GLANCE_TEXT_BYTES
              ? `decompresses to more than ${MAX_GLANCE_TEXT_BYTES / (1 << 20)} MiB`
              : total > RATIO_AFTER_BYTES && total > consumed * MAX_GLANCE_RATIO
                ? `decompresses to more than ${MAX_GLANCE_RATIO} times its size`
                : undefined;
        if (gaveUp) return partial(gaveUp);
        // This chunk is used up: a step that filled the buffer may have more to give, an empty one wants the next chunk.
        if (inLeft === 0 && (outLeft > 0 || produced === 0)) break;
        // A damaged stream stops moving with input left: what came out so far is all there is.
        if (!progressed) return partial("is damaged");
      }
      input = input.subarray(input.length);
    }
    return { head: head.slice(0, headLength), tail: tail.bytes(), textBytes: total, gaveUp: undefined };
  } finally {
    decoder.close();
  }
}
