import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { errorCode } from "../io/fs-errors.ts";

/**
 * Reading and writing the hooks' small state files (offer-state.ts, offer-prune.ts) in a folder
 * of ours that a user, another tool or a crash may have left anything in: never following a link,
 * never reading more than a state file holds, never leaving half a file for another hook to read.
 */

/** More than any state file of ours holds (a few lines): a bigger one is not ours to read. */
const STATE_FILE_MAX_BYTES = 64 * 1024;

/**
 * A state file's text; undefined when there is none; `notOurs` when what is there is not a file
 * we wrote (a directory, a symbolic link, a named pipe, a file over `STATE_FILE_MAX_BYTES`): a
 * link is never followed, a big file never read, a pipe never waited on.
 */
export function readState(path: string): string | undefined | { notOurs: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ELOOP") return { notOurs: "it is a symbolic link" };
    if (code === "EISDIR") return { notOurs: "it is a directory" };
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { notOurs: "it is a directory" };
    if (!stats.isFile()) return { notOurs: "it is not a file" };
    if (stats.size > STATE_FILE_MAX_BYTES) return { notOurs: "it is over 64 KB" };
    const buffer = Buffer.alloc(stats.size);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A state file's text, or undefined when there is none or what is there is not ours to read. */
export function readIfThere(path: string): string | undefined {
  const text = readState(path);
  return typeof text === "string" ? text : undefined;
}

/** Removes a state file (or an empty folder in its place); false when something is still there. */
export function remove(path: string): boolean {
  try {
    unlinkSync(path);
  } catch {
    try {
      rmdirSync(path);
    } catch {
      // Not there: nothing to forget (or a folder with files in it: not ours to empty).
    }
  }
  try {
    lstatSync(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * Writes a small state file whole: a temp file renamed into place, so a hook reading it meanwhile
 * sees the old text or the new, never half of it (which it would take for damage), and a symbolic
 * link at its name is replaced, never followed. False when it could not be written; a folder that
 * cannot be written only costs the offer shown again.
 */
export function write(path: string, text: string): boolean {
  const temp = `${path}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(temp, text, { mode: 0o600, flag: "wx" });
    renameSync(temp, path);
    return true;
  } catch {
    // The state is a courtesy (an offer not repeated), never a reason to fail the user's turn.
    remove(temp);
    return false;
  }
}
