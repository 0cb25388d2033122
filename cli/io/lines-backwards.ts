import { closeSync, openSync, readSync, statSync } from "node:fs";

/** How much of the file is read at a time, from its end. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The lines of a file, newest first, read from its end a chunk at a time: a reader that stops at
 * the first line it wants (the newest usage) reads only the tail of a session of any size.
 * Lines are split at LF bytes, which UTF-8 never has inside a character.
 */
export function* linesBackwards(path: string): Generator<string, void, undefined> {
  const fd = openSync(path, "r");
  try {
    const size = statSync(path).size;
    let end = size;
    let carry: Buffer = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - CHUNK_BYTES);
      const chunk = Buffer.alloc(end - start);
      readSync(fd, chunk, 0, chunk.length, start);
      const text = Buffer.concat([chunk, carry]);
      let cut = text.length;
      // (A negative start would search from the end again: the loop stops at the chunk's start.)
      for (let at = cut > 0 ? text.lastIndexOf(10, cut - 1) : -1; at >= 0; at = cut > 0 ? text.lastIndexOf(10, cut - 1) : -1) {
        yield text.subarray(at + 1, cut).toString("utf8");
        cut = at;
      }
      carry = Buffer.from(text.subarray(0, cut));
      end = start;
    }
    // The first line (empty when the file starts with a line break).
    if (size > 0) yield carry.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
