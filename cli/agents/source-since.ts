import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { HEAD_BYTES } from "../../core/index.ts";

/** How much of the file is read at a time. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Whether a line the agent appended to its session after `offset` (the size it had when the hook
 * before a compaction read it) passes `test`: only what is new is read, whatever the session's size.
 * A line that was being written at `offset` is read whole: the read starts at the line break
 * before it. A file that cannot be read answers false (the caller's guard then keeps what it has).
 */
export function lineSince(path: string, offset: number, test: (line: string) => boolean): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    let at = lineStartBefore(fd, Math.min(offset, size));
    let carry: Buffer = Buffer.alloc(0);
    while (at < size) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, size - at));
      const read = readSync(fd, chunk, 0, chunk.length, at);
      if (read === 0) break;
      at += read;
      const text = Buffer.concat([carry, chunk.subarray(0, read)]);
      let start = 0;
      for (let end = text.indexOf(10); end >= 0; end = text.indexOf(10, start)) {
        if (test(text.subarray(start, end).toString("utf8"))) return true;
        start = end + 1;
      }
      carry = Buffer.from(text.subarray(start));
    }
    return carry.length > 0 && test(carry.toString("utf8"));
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The SHA-256 (hex) of the first and the last `HEAD_BYTES` of the file's first `bytes` bytes,
 * or undefined when it has fewer or cannot be read: what tells the source a mark was written for
 * from another file at its path (replaced, rotated, or truncated and grown again past that size),
 * reading 8 KB whatever the session's size.
 */
export function prefixDigest(path: string, bytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const hasher = new Bun.CryptoHasher("sha256");
    const head = Math.min(bytes, HEAD_BYTES);
    const tailFrom = Math.max(head, bytes - HEAD_BYTES);
    for (const [from, to] of [
      [0, head],
      [tailFrom, bytes],
    ] as const) {
      const part = Buffer.alloc(to - from);
      let got = 0;
      while (got < part.length) {
        const read = readSync(fd, part, got, part.length - got, from + got);
        if (read === 0) return undefined;
        got += read;
      }
      hasher.update(part);
    }
    return hasher.digest("hex");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The start of the line `offset` falls in (just after the line break before it), looking back at most one chunk. */
function lineStartBefore(fd: number, offset: number): number {
  if (offset === 0) return 0;
  const from = Math.max(0, offset - CHUNK_BYTES);
  const chunk = Buffer.alloc(offset - from);
  readSync(fd, chunk, 0, chunk.length, from);
  const lf = chunk.lastIndexOf(10);
  return lf >= 0 ? from + lf + 1 : from;
}
