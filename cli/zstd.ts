/**
 * Codex may keep a finished rollout compressed (`rollout-….jsonl.zst`, one zstd stream). Core
 * reads text only, so the bytes are decompressed here, where the file is read; a file is
 * recognised by the zstd magic number, not its name, so a renamed or piped one reads too.
 */
import { zstdDecompressSync } from "node:zlib";
import { AgentError } from "../core/index.ts";

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
 * through one at a time (the file is never all in memory); a compressed file is read whole,
 * then decompressed at once, up to `MAX_DECOMPRESSED_BYTES`.
 */
export function* decompressIfZstd(chunks: Iterable<Uint8Array>, label: string, limit = MAX_DECOMPRESSED_BYTES): Generator<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  try {
    // Chunks are reused by their producer: what is held on to is copied.
    const head: Uint8Array[] = [];
    let headLength = 0;
    while (headLength < MAGIC.length) {
      const next = iterator.next();
      if (next.done) break;
      head.push(next.value.slice());
      headLength += next.value.length;
    }
    const start = Buffer.concat(head);
    if (!startsWithZstdMagic(start)) {
      if (start.length > 0) yield start;
      for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
      return;
    }
    const compressed: Uint8Array[] = [start];
    for (let next = iterator.next(); !next.done; next = iterator.next()) compressed.push(next.value.slice());
    yield decompress(Buffer.concat(compressed), label, limit);
  } finally {
    iterator.return?.();
  }
}

function decompress(bytes: Buffer, label: string, limit: number): Uint8Array {
  const fail = (reason: string) =>
    new AgentError("NOT_A_SESSION", `${label}: not a session: it is zstd-compressed and ${reason}`, { file: label });
  // The decoder returns what it could of a stream cut short, without a word: look first.
  if (!framesAreWhole(bytes)) throw fail("cut short (a copy still being written?)");
  try {
    return zstdDecompressSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    throw fail(error instanceof RangeError ? `decompresses to more than ${limit / (1 << 20)} MiB` : "damaged");
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
