import { closeSync, fchmodSync, fchownSync, fsyncSync, openSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { AgentError } from "../../core/index.ts";
import { fileError, fsReason } from "./fs-errors.ts";

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * One run's temp files: those created and not yet renamed or removed, for cleanup on any exit
 * path (the run's end, and the process's exit when it ends at once). `pid` makes their names
 * unique to the process.
 */
export class TempFiles {
  private readonly live = new Set<string>();

  constructor(readonly pid: number) {}

  /** Remembers a temp file until it is renamed or removed. */
  track(temp: string): void {
    this.live.add(temp);
  }

  /** Removes a temp file (already renamed or linked away is fine) and forgets it. */
  discard(temp: string): void {
    unlinkQuietly(temp);
    this.live.delete(temp);
  }

  removeAll(): void {
    for (const path of this.live) unlinkQuietly(path);
    this.live.clear();
  }
}

/**
 * Writes every byte or throws. `writeSync` may write less than asked (a nearly full disk) and
 * say so only in its return value; a short write must never pass for a whole one.
 */
export function writeAll(fd: number, content: string): void {
  const bytes = Buffer.from(content, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw Object.assign(new Error("short write"), { code: "ENOSPC" });
    offset += written;
  }
}

/** The longest file name most file systems take, in bytes (NAME_MAX). */
export const NAME_MAX_BYTES = 255;

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never cutting a character in two. */
export function fitBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * A fresh temp name beside `finalPath`: hidden, unique to this process, and never longer than
 * NAME_MAX whatever the final name's length (a legal 255-byte name must still be writable).
 */
function tempNameFor(finalPath: string, pid: number): string {
  const suffix = `.${pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  const room = NAME_MAX_BYTES - 1 - Buffer.byteLength(suffix, "utf8");
  return join(dirname(finalPath), `.${fitBytes(basename(finalPath), room)}${suffix}`);
}

/** Who owns a file and what its mode is, for a replacement that must look like the original. */
export interface Ownership {
  uid: number;
  gid: number;
  mode: number;
}

/** Gives the open temp file the original's owner, group and exact mode (the umask does not apply). */
function takeOwnership(fd: number, finalPath: string, owner: Ownership): void {
  try {
    // Owner first: changing it clears set-id bits, which the mode then puts back.
    fchownSync(fd, owner.uid, owner.gid);
  } catch (error) {
    throw new AgentError(
      "FILE",
      `${finalPath}: the rewrite could not keep its owner (uid ${owner.uid}, gid ${owner.gid}): ${fsReason(error)}`,
      { file: finalPath },
    );
  }
  fchmodSync(fd, owner.mode);
}

/**
 * A file's content: all of it, or a producer that hands it over piece by piece through `write`
 * (so a large file is never one string in memory) and returns false to abandon the file.
 */
export type Content = string | ((write: (text: string) => void) => boolean);

/** Pieces are gathered up to this many characters before one write. */
const BATCH_CHARS = 1 << 20;

/** Writes `content` to `fd`; false when its producer abandoned it. */
function writeContent(fd: number, content: Content): boolean {
  if (typeof content === "string") {
    writeAll(fd, content);
    return true;
  }
  let batch: string[] = [];
  let size = 0;
  const flush = () => {
    writeAll(fd, batch.join(""));
    batch = [];
    size = 0;
  };
  const complete = content((text) => {
    batch.push(text);
    size += text.length;
    if (size >= BATCH_CHARS) flush();
  });
  if (complete) flush();
  return complete;
}

/**
 * Writes a temp file beside `finalPath`, whole and synced: mode 0600 and ours, or with `owner`,
 * the owner, group and mode given. Returns its path, or `undefined` when the content's producer
 * abandoned it; removes it on failure or abandon.
 */
export function writeTemp(temps: TempFiles, finalPath: string, content: Content, owner?: Ownership): string | undefined {
  const temp = tempNameFor(finalPath, temps.pid);
  temps.track(temp);
  let complete: boolean;
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      if (owner) takeOwnership(fd, finalPath, owner);
      complete = writeContent(fd, content);
      if (complete) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    temps.discard(temp);
    throw fileError(finalPath, error);
  }
  if (complete) return temp;
  temps.discard(temp);
  return undefined;
}
