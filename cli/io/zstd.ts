/**
 * Codex may keep a finished rollout compressed (`rollout-….jsonl.zst`, one zstd stream). Core
 * reads text only, so the bytes are decompressed here, where the file is read; a file is
 * recognised by the zstd magic number, not its name, so a renamed or piped one reads too.
 */
import { AgentError } from "../../core/index.ts";
import { MAX_GLANCE_RATIO, RATIO_AFTER_BYTES, stepperOf } from "./zstd-window.ts";
import { builtin } from "./builtins.ts";

/** The four bytes every zstd frame starts with (RFC 8878). */
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/**
 * The most a compressed session may grow to. zstd packs repetitive text thousands to one, so a
 * small file could otherwise fill the memory; a real rollout this large has never been seen.
 */
export const MAX_DECOMPRESSED_BYTES = 1 << 30;

/** A zstd frame, or a skippable frame (`0x184D2A5?`, little-endian) that may come first. */
export function startsWithZstdMagic(bytes: Uint8Array): boolean {
  const skippable = ((bytes[0] ?? 0) & 0xf0) === 0x50 && bytes[1] === 0x2a && bytes[2] === 0x4d && bytes[3] === 0x18;
  return skippable || MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * The session's bytes as they are, or decompressed when they are zstd. Uncompressed chunks pass
 * through one at a time (the file is never all in memory); a compressed file is read whole (it
 * is small), then inflated a chunk at a time, and refused at the first chunk past `limit` bytes
 * of text, or past 1,000 times the compressed bytes read so far (as `ls` judges a glance):
 * memory stays bounded by a chunk, never by what the file would inflate to.
 */
export function* decompressIfZstd(chunks: Iterable<Uint8Array>, label: string, limit = MAX_DECOMPRESSED_BYTES): Generator<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  try {
    // Chunks are reused by their producer: what is held on to is copied. A first chunk that
    // holds the magic (nearly always) is looked at where it is: two copies of its megabyte cost
    // the 1 MB session's read ~1 ms.
    const head: Uint8Array[] = [];
    let headLength = 0;
    let live: Uint8Array | undefined;
    while (headLength < MAGIC.length) {
      const next = iterator.next();
      if (next.done) break;
      if (head.length === 0 && next.value.length >= MAGIC.length) {
        live = next.value;
        break;
      }
      head.push(next.value.slice());
      headLength += next.value.length;
    }
    const start = live ?? Buffer.concat(head);
    if (!startsWithZstdMagic(start)) {
      if (start.length > 0) yield start;
      for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
      return;
    }
    const compressed: Uint8Array[] = [live ? live.slice() : start];
    for (let next = iterator.next(); !next.done; next = iterator.next()) compressed.push(next.value.slice());
    yield* inflate(Buffer.concat(compressed), label, limit);
  } finally {
    iterator.return?.();
  }
}

/** How much text is inflated at a time; the buffer is reused, so this is all it costs. */
const OUT_CHUNK = 1 << 20;

function* inflate(bytes: Uint8Array, label: string, limit: number): Generator<Uint8Array> {
  const fail = (reason: string) =>
    new AgentError("NOT_A_SESSION", `${label}: not a session: it is zstd-compressed and ${reason}`, { file: label });
  const tooLarge = () => fail(`decompresses to more than ${limit / (1 << 20)} MiB`);
  // The decoder returns what it could of a stream cut short, without a word: look first.
  if (!framesAreWhole(bytes)) throw fail("cut short (a copy still being written?)");
  // node:zlib is loaded only for a compressed file: loading it costs every other run ~5 ms.
  const { ZstdDecompress, zstdDecompressSync } = builtin("node:zlib");
  const decoder = new ZstdDecompress();
  // A damaged stream is reported through the stream's error event (the decoder then closes, and the next step throws).
  let damaged = false;
  decoder.on("error", () => {
    damaged = true;
  });
  const stepper = stepperOf(decoder);
  try {
    if (stepper === undefined) {
      // A runtime whose decoder cannot be stepped: the whole text at once, still bounded.
      try {
        yield zstdDecompressSync(bytes, { maxOutputLength: limit });
      } catch (error) {
        throw error instanceof RangeError ? tooLarge() : fail("damaged");
      }
      return;
    }
    const out = new Uint8Array(OUT_CHUNK);
    let inOff = 0;
    let inLeft = bytes.length;
    let total = 0;
    for (;;) {
      try {
        stepper.step.writeSync(0, bytes, inOff, inLeft, out, 0, OUT_CHUNK);
      } catch {
        throw fail("damaged");
      }
      if (damaged) throw fail("damaged");
      const [outLeft = 0, inAfter = 0] = stepper.state;
      const produced = OUT_CHUNK - outLeft;
      const progressed = produced > 0 || inAfter !== inLeft;
      inOff += inLeft - inAfter;
      inLeft = inAfter;
      total += produced;
      if (total > limit) throw tooLarge();
      // As for `ls`: no session log packs this tightly (real rollouts: ~10×); stop long before the size bound.
      if (total > RATIO_AFTER_BYTES && total > inOff * MAX_GLANCE_RATIO)
        throw fail(`decompresses to more than ${MAX_GLANCE_RATIO} times its size`);
      if (produced > 0) yield out.subarray(0, produced);
      // No input left: a step that filled the buffer may have more to give, an empty one is the end
      // (the frames were whole). An empty step with input left is a stream that stopped moving.
      if (inLeft === 0 && (outLeft > 0 || produced === 0)) return;
      if (!progressed) throw fail("damaged");
    }
  } finally {
    decoder.close();
  }
}

/**
 * Whether the bytes are whole zstd frames (RFC 8878 §3.1): each frame's header, then blocks
 * up to the one marked last, then its checksum if it has one; skippable frames by their size.
 * Only sizes are read, nothing is decompressed.
 */
export function framesAreWhole(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) return false;
    const magic = view.getUint32(at, true);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (at + 8 > bytes.length) return false;
      at += 8 + view.getUint32(at + 4, true);
      continue;
    }
    if (magic !== 0xfd2fb528 || at + 5 > bytes.length) return false;
    const descriptor = view.getUint8(at + 4);
    const contentSizeFlag = descriptor >> 6;
    const singleSegment = (descriptor >> 5) & 1;
    at +=
      5 +
      (singleSegment ? 0 : 1) +
      ([0, 1, 2, 4][descriptor & 3] ?? 0) +
      (contentSizeFlag === 0 ? singleSegment : ([0, 2, 4, 8][contentSizeFlag] ?? 0));
    for (let last = 0; !last; ) {
      if (at + 3 > bytes.length) return false;
      const header = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
      const type = (header >> 1) & 3;
      if (type === 3) return false; // reserved: not zstd
      last = header & 1;
      at += 3 + (type === 1 ? 1 : header >>> 3); // an RLE block stores its one byte
      if (at > bytes.length) return false;
    }
    if ((descriptor >> 2) & 1) at += 4; // content checksum
    if (at > bytes.length) return false;
  }
  return true;
}
