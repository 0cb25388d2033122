import { fstatSync, fsyncSync, ftruncateSync, linkSync, lstatSync, openSync, closeSync, renameSync, statSync, utimesSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { AgentError } from "../../core/index.ts";
import { FS_REASONS, fileError } from "./fs-errors.ts";
import { asField } from "../output/terminal.ts";
import { NAME_MAX_BYTES, writeAll, writeTemp, type Content, type TempFiles } from "./temp-file.ts";

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

/**
 * Refuses an output path we must not write: an existing file (we never overwrite), a folder
 * (`-o` names the file, not where it goes), a symlink (even a dangling one), or a path whose
 * folder does not exist. Checked before the model is called, so a bad `--out` costs nothing.
 * `typed` is the path as the user gave it, for its trailing `/` in the message.
 */
export function checkNewFilePath(path: string, typed: string = path): void {
  let stats: ReturnType<typeof lstatSync> | undefined;
  try {
    // A new file's name is usually free: no error is made for that (a throw costs more than the look).
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  const shown = asField(path);
  if (Buffer.byteLength(basename(path), "utf8") > NAME_MAX_BYTES)
    throw new AgentError("FILE", `${shown}: the file name is longer than ${NAME_MAX_BYTES} bytes`, { file: path });
  if (stats?.isSymbolicLink()) throw new AgentError("FILE", `${shown}: is a symbolic link; refusing to write through it`, { file: path });
  if (stats?.isDirectory()) {
    const slash = typed.endsWith(sep) && !path.endsWith(sep) ? sep : "";
    const example = asField(join(path, "handoff.jsonl"));
    throw new AgentError("FILE", `${shown}${slash}: is a folder; -o takes the new session's file name (e.g. ${example})`, { file: path });
  }
  if (stats) throw new AgentError("FILE", `${shown}: ${FS_REASONS.EEXIST}`, { file: path });
  const dir = dirname(path);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new AgentError("FILE", `${shown}: folder ${asField(dir)} does not exist`, { file: path });
}

/**
 * Creates a file atomically and exclusively: temp file, fsync, then a hard link to the final
 * name (which, unlike rename, fails if the name exists), then the temp name is removed.
 * Nothing ever sits half-written under the final name.
 */
export function createFileAtomically(temps: TempFiles, path: string, content: string): void {
  checkNewFilePath(path);
  const temp = writeTemp(temps, path, content);
  if (temp === undefined) throw new AgentError("FILE", `${path}: nothing to write`, { file: path });
  placeTemp(temps, temp, path, () => {
    linkSync(temp, path);
    return true;
  });
}

/**
 * Puts a written temp file in place with `place` (false: it chose not to), always removes the
 * temp name, and makes the new name durable when it was placed.
 */
function placeTemp(temps: TempFiles, temp: string, path: string, place: () => boolean): boolean {
  try {
    if (!place()) return false;
  } catch (error) {
    throw fileError(path, error);
  } finally {
    temps.discard(temp);
  }
  syncDirectory(dirname(path));
  return true;
}

/**
 * What the source was when we read it: its identity (device and inode: a file renamed over it
 * is another file, even with the same size and time) and its size and modification time.
 */
export interface FileSnapshot {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

function sameFile(stats: FileSnapshot, snapshot: FileSnapshot): boolean {
  return stats.dev === snapshot.dev && stats.ino === snapshot.ino && stats.size === snapshot.size && stats.mtimeMs === snapshot.mtimeMs;
}

function unchanged(path: string, snapshot: FileSnapshot): boolean {
  try {
    return sameFile(statSync(path), snapshot);
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
  // What was opened is checked too: a file renamed over the path between the look and the open is not ours to append to.
  let same: boolean;
  try {
    same = sameFile(fstatSync(fd), snapshot);
  } catch (error) {
    closeSync(fd);
    throw fileError(path, error);
  }
  if (!same) {
    closeSync(fd);
    return false;
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
 * content may come piece by piece, and its producer may abandon it (the source's lines are not
 * what was read): then, as when the file changed, nothing is replaced and the result is false.
 * The new file keeps the original's owner, group and mode; when the owner cannot be kept (we are
 * not root, and it is not ours), nothing is replaced and the error says why.
 */
export function replaceIfUnchanged(temps: TempFiles, path: string, content: Content, snapshot: FileSnapshot): boolean {
  if (!unchanged(path, snapshot)) return false;
  const original = statSync(path);
  const temp = writeTemp(temps, path, content, { uid: original.uid, gid: original.gid, mode: original.mode & 0o7777 });
  if (temp === undefined) return false;
  return placeTemp(temps, temp, path, () => {
    if (!unchanged(path, snapshot)) return false;
    renameSync(temp, path);
    return true;
  });
}

/**
 * Gives `newer` a modification time after `older`'s (now, or just after `older`'s when that is
 * later: a clock set back, a file from the future); a file system that keeps whole seconds gets
 * a second more. False when it could not be done.
 */
export function makeNewerThan(newer: string, older: string): boolean {
  try {
    const olderMs = statSync(older).mtimeMs;
    let at = Math.max(Date.now(), olderMs + 1);
    for (let attempt = 0; attempt < 3; attempt++) {
      utimesSync(newer, at / 1000, at / 1000);
      if (statSync(newer).mtimeMs > olderMs) return true;
      at += 1000;
    }
  } catch {
    // Said by the caller.
  }
  return false;
}
