import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { AgentError } from "../../core/index.ts";
import { fsReason } from "../io/fs-errors.ts";
import { CancelledError } from "../process/cancel.ts";
import { openStream, readStreamWhole } from "../io/stream-input.ts";
import { decompressIfZstd } from "../io/zstd.ts";

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
  /** Device and inode: with size and time, the identity recording checks (a file renamed over it is another file). */
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /**
   * Set when the session is read as a stream (stdin, a pipe, a path naming an open descriptor):
   * why there is no file to record into or to name as the new session's parent.
   */
  stream?: string;
}

/** What a path names when it is not a regular file, in words. */
export function describeNonFile(stats: Stats): string {
  if (stats.isDirectory()) return "it is a directory";
  if (stats.isFIFO()) return "it is a named pipe, not a regular file";
  if (stats.isSocket()) return "it is a socket, not a regular file";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "it is a device, not a regular file";
  return "not a regular file";
}

/** How much of a session file is read at a time; the buffer is reused, so this is all it costs. */
const CHUNK_BYTES = 1 << 20;

/** `/dev/fd/N` and `/proc/<pid>/fd/N`: a name for whatever a descriptor has open, not a file of its own. */
const DESCRIPTOR_PATH = /^\/(?:dev\/fd|proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/fd)\/\d+$/;
const STANDARD_STREAM = /^\/dev\/std(?:in|out|err)$/;

/**
 * Whether `path`, or a symbolic link on the way from it, names an open descriptor (`/dev/stdin`,
 * `/dev/fd/63` from `<(…)`, `/proc/self/fd/0`). Such a path reaches a file only by way of what
 * the shell had open: even when that is a regular file (`/dev/stdin < s.jsonl`), it is not a
 * place to write back to.
 */
function namesADescriptor(absolutePath: string): boolean {
  let current = absolutePath;
  for (let hops = 0; hops < 40; hops++) {
    if (DESCRIPTOR_PATH.test(current) || STANDARD_STREAM.test(current)) return true;
    try {
      // Folders first, so a link inside a linked folder (/dev/fd → /proc/self/fd) is seen for what it is.
      current = join(realpathSync(dirname(current)), basename(current));
      if (DESCRIPTOR_PATH.test(current)) return true;
      if (!lstatSync(current).isSymbolicLink()) return false;
      current = resolve(dirname(current), readlinkSync(current));
    } catch {
      return false;
    }
  }
  return false;
}

/** A named source that is read but never written back, and why; `undefined` for an ordinary file. */
function streamReason(path: string, stats: Stats): string | undefined {
  if (stats.isFIFO() || stats.isSocket()) return "it is a pipe";
  if (namesADescriptor(path)) return "it names an open descriptor";
  return undefined;
}

/** A session opened for reading: what it is, and its bytes. */
export interface OpenedSession {
  file: SessionFile;
  chunks: Iterable<Uint8Array>;
  /** Its size before it is parsed: a file's, or what a stream gave (compressed, when it is). */
  bytes: number;
}

/** A stream read whole, as an opened session. */
function streamRead(file: SessionFile, read: Uint8Array[], label: string): OpenedSession {
  return { file, chunks: decompressIfZstd(read, label), bytes: read.reduce((sum, chunk) => sum + chunk.length, 0) };
}

/** Where a named session is, and whether it is a stream; folders and devices are refused. */
function locate(path: string, cwd: string): { absolutePath: string; stats: Stats; stream: string | undefined } {
  const absolutePath = resolve(cwd, path);
  let stats: Stats;
  try {
    stats = statSync(absolutePath);
  } catch (error) {
    throw cannotOpen(path, error);
  }
  if (stats.isDirectory()) throw new AgentError("FILE", `${path}: is a directory, not a session file`, { file: path });
  // A terminal would wait for typing; /dev/zero never ends.
  if (stats.isCharacterDevice() || stats.isBlockDevice())
    throw new AgentError("FILE", `${path}: is a device, not a session file`, { file: path });
  return { absolutePath, stats, stream: streamReason(absolutePath, stats) };
}

function cannotOpen(path: string, error: unknown): AgentError {
  return new AgentError("FILE", `${path}: ${fsReason(error)}`, { file: path });
}

/**
 * Opens a session for reading: a file, or a stream (`-` for stdin, a pipe, a path such as
 * `/dev/stdin` that names an open descriptor). Folders, devices and unreadable paths are refused
 * with a clear message. A file's bytes come as chunks read on demand (at most the size it had
 * when opened, so they match `file.size`), so the whole file is never in memory at once; a
 * stream is read whole first, waiting asynchronously (see stream-input.ts), so a signal cancels
 * the wait. A zstd-compressed session (Codex's `.jsonl.zst`) comes decompressed.
 */
export async function openSessionInput(
  path: string,
  cancel: AbortSignal,
  io: { cwd: string; stdin: { fd: number; isTTY?: boolean | undefined } },
): Promise<OpenedSession> {
  if (path === "-") {
    // A person at a terminal would be left waiting for a session to be typed in.
    if (io.stdin.isTTY)
      throw new AgentError("USAGE", "-: stdin is a terminal; pipe or redirect a session into it (agent handoff - < session.jsonl)");
    const file = {
      path: "-",
      absolutePath: "stdin",
      realPath: "stdin",
      links: 0,
      dev: 0,
      ino: 0,
      size: 0,
      mtimeMs: 0,
      stream: "it was read from stdin",
    };
    return streamRead(file, await readStreamWhole(io.stdin.fd, "-", cancel, false), "-");
  }
  const located = locate(path, io.cwd);
  const { absolutePath, stats, stream } = located;
  if (!stream) {
    // Opened from what was located, not located again (a stat and a walk of the path's links).
    const opened = openLocated(path, located);
    return { ...opened, bytes: opened.file.size };
  }
  let fd: number;
  try {
    fd = await openStream(absolutePath, cancel);
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    throw cannotOpen(path, error);
  }
  const { nlink: links, dev, ino, mtimeMs } = stats;
  const file = { path, absolutePath, realPath: absolutePath, links, dev, ino, size: 0, mtimeMs, stream };
  return streamRead(file, await readStreamWhole(fd, path, cancel, true), path);
}

/**
 * Opens a session file (a regular file; see `openSessionInput` for streams) and reads it in
 * chunks, synchronously: a regular file never keeps a read waiting. A relative `path` is taken
 * from `cwd` (the run's folder); paths found on disk are absolute and need none.
 */
export function readSessionFile(path: string, cwd = "/"): { file: SessionFile; chunks: Generator<Uint8Array> } {
  return openLocated(path, locate(path, cwd));
}

function openLocated(path: string, located: ReturnType<typeof locate>): { file: SessionFile; chunks: Generator<Uint8Array> } {
  const { absolutePath, stream } = located;
  if (stream) throw new AgentError("FILE", `${path}: ${stream}, not a regular file`, { file: path });
  let stats = located.stats;
  let fd: number;
  let realPath: string;
  try {
    realPath = realpathSync(absolutePath);
    fd = openSync(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
    // What was opened is what recording must find unchanged, not what the path named a moment before.
    stats = fstatSync(fd);
  } catch (error) {
    throw cannotOpen(path, error);
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw new AgentError("FILE", `${path}: ${describeNonFile(stats)}`, { file: path });
  }
  const { nlink: links, dev, ino, size, mtimeMs } = stats;
  const file = { path, absolutePath, realPath, links, dev, ino, size, mtimeMs };
  return { file, chunks: decompressIfZstd(readChunks(fd, size, path), path) };
}

/** Reads `size` bytes of a file (fewer if it shrank since it was opened), a chunk at a time into one reused buffer. */
function* readChunks(fd: number, size: number, label: string): Generator<Uint8Array> {
  try {
    const buffer = new Uint8Array(Math.max(1, Math.min(CHUNK_BYTES, size)));
    for (let done = 0; done < size; ) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, Math.min(buffer.length, size - done), null);
      } catch (error) {
        throw cannotOpen(label, error);
      }
      if (read === 0) break; // a file that shrank since it was opened
      done += read;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}
