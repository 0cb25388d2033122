import { closeSync, openSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { resolve } from "node:path";
import { AgentError } from "../core/index.ts";

export interface SessionFile {
  /** The path as the user gave it, for messages. */
  path: string;
  absolutePath: string;
  /**
   * The file itself, symlinks resolved: what recording writes to, so that a rewrite replaces
   * the session, not the link the user opened it through.
   */
  realPath: string;
  /** Hard links to the file; a rewrite (rename over it) would split them. */
  links: number;
  size: number;
  mtimeMs: number;
}

function describeFsError(error: unknown): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return error instanceof Error ? error.message : String(error);
}

/** How much of a session file is read at a time; the buffer is reused, so this is all it costs. */
const CHUNK_BYTES = 1 << 20;

/**
 * Opens a session file, refusing folders and unreadable paths with a clear message. Its bytes come
 * as chunks read on demand (at most the size it had when opened, so they match `file.size`), so
 * the whole file is never in memory at once; the file is closed when the chunks are read or
 * their reading is stopped.
 */
export function readSessionFile(path: string): { file: SessionFile; chunks: Generator<Uint8Array> } {
  const absolutePath = resolve(path);
  const fail = (error: unknown) => new AgentError("FILE", `${path}: ${describeFsError(error)}`, { file: path });
  let stats: Stats;
  try {
    stats = statSync(absolutePath);
  } catch (error) {
    throw fail(error);
  }
  if (stats.isDirectory()) throw new AgentError("FILE", `${path}: is a directory, not a session file`, { file: path });
  if (!stats.isFile()) throw new AgentError("FILE", `${path}: is not a regular file`, { file: path });
  let fd: number;
  let realPath: string;
  try {
    realPath = realpathSync(absolutePath);
    fd = openSync(absolutePath, "r");
  } catch (error) {
    throw fail(error);
  }
  const file = { path, absolutePath, realPath, links: stats.nlink, size: stats.size, mtimeMs: stats.mtimeMs };
  return { file, chunks: readChunks(fd, stats.size, fail) };
}

function* readChunks(fd: number, size: number, fail: (error: unknown) => AgentError): Generator<Uint8Array> {
  try {
    const buffer = new Uint8Array(Math.max(1, Math.min(CHUNK_BYTES, size)));
    for (let done = 0; done < size; ) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, Math.min(buffer.length, size - done), null);
      } catch (error) {
        throw fail(error);
      }
      if (read === 0) break; // the file shrank since it was opened
      done += read;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}
