import { closeSync, fchmodSync, fchownSync, fsyncSync, ftruncateSync, linkSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { AgentError } from "../core/index.ts";

/** Temp files we have created and not yet renamed or removed, for cleanup on any exit path. */
const liveTempFiles = new Set<string>();

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** Removes a temp file (already renamed or linked away is fine) and forgets it. */
function discardTemp(temp: string): void {
  unlinkQuietly(temp);
  liveTempFiles.delete(temp);
}

let removedOnExit = false;

/** Remembers a temp file until it is renamed or removed; an exit of any kind removes it. */
function trackTemp(temp: string): void {
  liveTempFiles.add(temp);
  if (removedOnExit) return;
  removedOnExit = true;
  process.once("exit", removeTempFiles);
}

export function removeTempFiles(): void {
  for (const path of liveTempFiles) unlinkQuietly(path);
  liveTempFiles.clear();
}

const FS_REASONS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOENT: "no such file or folder",
  EEXIST: "already exists; refusing to overwrite it",
  EXDEV: "hard links are not possible there",
  ENAMETOOLONG: "the name is too long for the file system",
};

/** A file-system failure in words a user can act on, naming the path. */
export function fileError(path: string, error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  const reason = FS_REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  return new AgentError("FILE", `${path}: ${reason}`, { file: path });
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

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every file system lets a directory be fsynced; the data itself is already synced.
  }
}

/** The longest file name most file systems take, in bytes (NAME_MAX). */
const NAME_MAX_BYTES = 255;

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never cutting a character in two. */
function fitBytes(text: string, maxBytes: number): string {
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
function tempNameFor(finalPath: string): string {
  const suffix = `.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  const room = NAME_MAX_BYTES - 1 - Buffer.byteLength(suffix, "utf8");
  return join(dirname(finalPath), `.${fitBytes(basename(finalPath), room)}${suffix}`);
}

/** Who owns a file and what its mode is, for a replacement that must look like the original. */
interface Ownership {
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
    const code = error instanceof Error && "code" in error ? String(error.code) : "";
    throw new AgentError("FILE", `${finalPath}: the rewrite could not keep its owner (uid ${owner.uid}, gid ${owner.gid}): ${FS_REASONS[code] ?? code}`, { file: finalPath });
  }
  fchmodSync(fd, owner.mode);
}

/**
 * Writes a temp file beside `finalPath`, whole and synced: mode 0600 and ours, or with `owner`,
 * the owner, group and mode given. Returns its path; removes it on failure.
 */
function writeTemp(finalPath: string, content: string, owner?: Ownership): string {
  const temp = tempNameFor(finalPath);
  trackTemp(temp);
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      if (owner) takeOwnership(fd, finalPath, owner);
      writeAll(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    discardTemp(temp);
    throw fileError(finalPath, error);
  }
  return temp;
}

/**
 * Refuses an output path we must not write: an existing file (we never overwrite), a symlink
 * (even a dangling one), or a path whose folder does not exist. Checked before the model is
 * called, so a bad `--out` costs nothing.
 */
export function checkNewFilePath(path: string): void {
  let stats: ReturnType<typeof lstatSync> | undefined;
  try {
    stats = lstatSync(path);
  } catch {
    stats = undefined;
  }
  if (Buffer.byteLength(basename(path), "utf8") > NAME_MAX_BYTES) throw new AgentError("FILE", `${path}: the file name is longer than ${NAME_MAX_BYTES} bytes`, { file: path });
  if (stats?.isSymbolicLink()) throw new AgentError("FILE", `${path}: is a symbolic link; refusing to write through it`, { file: path });
  if (stats) throw new AgentError("FILE", `${path}: already exists; refusing to overwrite it`, { file: path });
  const dir = dirname(path);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new AgentError("FILE", `${path}: folder ${dir} does not exist`, { file: path });
}

/**
 * Creates a file atomically and exclusively: temp file, fsync, then a hard link to the final
 * name (which, unlike rename, fails if the name exists), then the temp name is removed.
 * Nothing ever sits half-written under the final name.
 */
export function createFileAtomically(path: string, content: string): void {
  checkNewFilePath(path);
  const temp = writeTemp(path, content);
  try {
    linkSync(temp, path);
  } catch (error) {
    throw fileError(path, error);
  } finally {
    discardTemp(temp);
  }
  syncDirectory(dirname(path));
}

/** What the source looked like when we read it. */
export interface FileSnapshot {
  size: number;
  mtimeMs: number;
}

function unchanged(path: string, snapshot: FileSnapshot): boolean {
  try {
    const stats = statSync(path);
    return stats.size === snapshot.size && stats.mtimeMs === snapshot.mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Appends whole lines to the source in one write, if it has not changed since we read it.
 * Returns false (and writes nothing) when it has. If the write fails part way, the file is cut
 * back to its old length, so it never keeps a torn line of ours.
 */
export function appendIfUnchanged(path: string, text: string, snapshot: FileSnapshot): boolean {
  if (!unchanged(path, snapshot)) return false;
  let fd: number;
  try {
    fd = openSync(path, "a");
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    writeAll(fd, text);
    fsyncSync(fd);
  } catch (error) {
    try {
      ftruncateSync(fd, snapshot.size);
    } catch {
      // Nothing more we can do; the error below says what happened.
    }
    throw fileError(path, error);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Replaces the source with new content atomically (temp + rename), if unchanged since read. The
 * new file keeps the original's owner, group and mode; when the owner cannot be kept (we are not
 * root, and it is not ours), nothing is replaced and the error says why.
 */
export function replaceIfUnchanged(path: string, content: string, snapshot: FileSnapshot): boolean {
  if (!unchanged(path, snapshot)) return false;
  const original = statSync(path);
  const temp = writeTemp(path, content, { uid: original.uid, gid: original.gid, mode: original.mode & 0o7777 });
  try {
    if (!unchanged(path, snapshot)) return false;
    renameSync(temp, path);
  } catch (error) {
    throw fileError(path, error);
  } finally {
    discardTemp(temp);
  }
  syncDirectory(dirname(path));
  return true;
}
