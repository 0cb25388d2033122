import { closeSync, fsyncSync, linkSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { AgentError } from "../core/index.ts";

/** Temp files we have created and not yet renamed or removed, for cleanup on any exit path. */
const liveTempFiles = new Set<string>();

export function removeTempFiles(): void {
  for (const path of liveTempFiles) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
    liveTempFiles.delete(path);
  }
}

function tempPathFor(finalPath: string): string {
  const suffix = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  return join(dirname(finalPath), `.${finalPath.split("/").pop()}.${suffix}.tmp`);
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

/** Writes a temp file beside `finalPath`, synced to disk, mode 0600. Returns its path. */
function writeTemp(finalPath: string, content: string, mode = 0o600): string {
  const temp = tempPathFor(finalPath);
  liveTempFiles.add(temp);
  const fd = openSync(temp, "wx", mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temp;
}

/**
 * Refuses an output path we must not write: an existing file (we never overwrite), a symlink
 * (even a dangling one), or a path whose folder does not exist. Checked before the model is
 * called, so a bad `--out` costs nothing.
 */
export function checkNewFilePath(path: string): void {
  let exists = false;
  try {
    const stats = lstatSync(path);
    exists = true;
    if (stats.isSymbolicLink()) throw new AgentError("FILE", `${path}: is a symbolic link; refusing to write through it`, { file: path });
  } catch (error) {
    if (error instanceof AgentError) throw error;
  }
  if (exists) throw new AgentError("FILE", `${path}: already exists; refusing to overwrite it`, { file: path });
  const dir = dirname(path);
  let dirOk = false;
  try {
    dirOk = statSync(dir).isDirectory();
  } catch {
    dirOk = false;
  }
  if (!dirOk) throw new AgentError("FILE", `${path}: folder ${dir} does not exist`, { file: path });
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
    const code = error instanceof Error && "code" in error ? error.code : "";
    throw new AgentError("FILE", code === "EEXIST" ? `${path}: already exists; refusing to overwrite it` : `${path}: ${String(error)}`, { file: path });
  } finally {
    unlinkSync(temp);
    liveTempFiles.delete(temp);
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
 * Returns false (and writes nothing) when it has.
 */
export function appendIfUnchanged(path: string, text: string, snapshot: FileSnapshot): boolean {
  if (!unchanged(path, snapshot)) return false;
  const fd = openSync(path, "a");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Replaces the source with new content atomically (temp + rename), keeping its mode, if unchanged since read. */
export function replaceIfUnchanged(path: string, content: string, snapshot: FileSnapshot): boolean {
  if (!unchanged(path, snapshot)) return false;
  const temp = writeTemp(path, content, statSync(path).mode & 0o777);
  try {
    if (!unchanged(path, snapshot)) return false;
    renameSync(temp, path);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // Renamed into place.
    }
    liveTempFiles.delete(temp);
  }
  syncDirectory(dirname(path));
  return true;
}
