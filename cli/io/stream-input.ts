/**
 * A session that comes as a stream (stdin, a named pipe, `<(…)`) can keep us waiting without
 * end: a named pipe nobody writes to yet, a producer gone quiet (`ssh host cat … |`). A signal
 * handler runs only when the event loop turns, so every such wait is asynchronous: the open and
 * each read run on the I/O threads, and Ctrl-C, SIGTERM and SIGHUP cancel at any moment. (A
 * blocking `open`/`read` on the main thread kept the run alive until the pipe closed, then
 * printed an error about the empty input after "Cancelled".)
 */
import { close, open, read } from "node:fs";
import { promisify } from "node:util";
import { AgentError } from "../../core/index.ts";
import { CancelledError } from "../process/cancel.ts";
import { errorCode, fsReason } from "./fs-errors.ts";
import { startsWithZstdMagic } from "./zstd.ts";

const openAsync = promisify(open);
const readAsync = promisify(read);
const closeAsync = promisify(close);

const CHUNK_BYTES = 1 << 20;
/** How long to wait before reading again a descriptor left non-blocking by whoever started us. */
const RETRY_MS = 10;

/** Opens a stream by its path (a named pipe, `/dev/fd/63`) without blocking the event loop, as a pipe with no writer would. */
export async function openStream(path: string, cancel: AbortSignal): Promise<number> {
  const fd = await openAsync(path, "r");
  if (cancel.aborted) {
    await closeAsync(fd);
    throw new CancelledError();
  }
  return fd;
}

/**
 * Reads a stream to its end, as chunks of their own (the stream cannot be read again, and the
 * reader of the session is synchronous). NUL bytes in its first chunk mean it is not text: an
 * endless stream of zeros (`cat /dev/zero |`) would never end its first line.
 */
export async function readStreamWhole(fd: number, label: string, cancel: AbortSignal, close: boolean): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(CHUNK_BYTES);
  try {
    for (;;) {
      if (cancel.aborted) throw new CancelledError();
      let read: number;
      try {
        read = (await readAsync(fd, buffer, 0, buffer.length, null)).bytesRead;
      } catch (error) {
        // stdin may have been left non-blocking by whoever started us: wait for the writer.
        if (errorCode(error) === "EAGAIN") {
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
          continue;
        }
        throw new AgentError("FILE", `${label}: ${fsReason(error)}`, { file: label });
      }
      if (read === 0) return chunks;
      const chunk = buffer.subarray(0, read);
      if (chunks.length === 0 && !startsWithZstdMagic(chunk) && chunk.includes(0))
        throw new AgentError("NOT_A_SESSION", `${label}: not a session: it looks like binary data`, { file: label });
      // A copy of what was read: the buffer is read into again, and a pipe gives 64 KiB at a time.
      chunks.push(chunk.slice());
    }
  } finally {
    if (close) await closeAsync(fd).catch(() => undefined);
  }
}
