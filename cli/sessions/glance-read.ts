/**
 * The one place a glance reads a session file's bytes: the plain file's head and tail, and a
 * compressed rollout's input. Every read names its position, so no byte is read twice by
 * accident, and every read is counted: tests hold `ls` and the no-path search to their bounds
 * by what was read, not by how long it took.
 */
import { readSync } from "node:fs";

/** Bytes read and reads made since the process started, and text a compressed file gave (a test takes the difference). */
export const glanceReads = { bytes: 0, calls: 0, text: 0 };

/** Reads into `buffer` from `position` until it is full or the file ends; the bytes read. */
export function readInto(fd: number, buffer: Uint8Array, position: number): number {
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(fd, buffer, done, buffer.length - done, position + done);
    glanceReads.calls++;
    glanceReads.bytes += read;
    if (read === 0) break;
    done += read;
  }
  return done;
}

/** `length` bytes from `position` (fewer where the file ends). */
export function readAt(fd: number, length: number, position: number): Uint8Array {
  const buffer = new Uint8Array(Math.max(0, length));
  return buffer.subarray(0, readInto(fd, buffer, position));
}
