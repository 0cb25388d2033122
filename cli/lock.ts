import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, renameSync, unlinkSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { AgentError } from "../core/index.ts";
import { fileError } from "./fs-errors.ts";
import { writeAll } from "./temp-file.ts";

/** A lock we hold: release it exactly once. */
export interface Lock {
  release(): void;
}

/** A lock file without a readable pid this old was left by a process that died mid-write. */
const UNREADABLE_LOCK_STALE_MS = 10_000;

/** Our lock holds a pid and a newline; anything longer is not ours. */
const LOCK_BYTES_MAX = 32;
const OUR_LOCK_CONTENT = /^([1-9][0-9]{0,9}\n)?$/;

/**
 * What sits at a lock path. Only a regular file in our format (our pid and a newline, or empty:
 * its writer died between creating and writing it) is `ours`; a directory, a symbolic link, a
 * fifo, a socket or a file holding anything else is `foreign`, and is never moved or removed.
 */
type LockState = { kind: "absent" } | { kind: "ours"; holder: number | undefined; mtimeMs: number } | { kind: "foreign"; what: string };

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "a file that is not a lock of ours";
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}

function examineLock(lockPath: string): LockState {
  let stats: Stats;
  try {
    stats = lstatSync(lockPath);
  } catch (error) {
    if (isMissing(error)) return { kind: "absent" };
    throw fileError(lockPath, error);
  }
  if (!stats.isFile() || stats.size > LOCK_BYTES_MAX) return { kind: "foreign", what: describeKind(stats) };
  let content: string;
  try {
    // No symlink following and no blocking: the path may have been swapped since the lstat.
    const fd = openSync(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) return { kind: "foreign", what: describeKind(opened) };
      const buffer = Buffer.alloc(LOCK_BYTES_MAX + 1);
      content = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("latin1");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (isMissing(error)) return { kind: "absent" };
    if (error instanceof Error && "code" in error && error.code === "ELOOP") return { kind: "foreign", what: "a symbolic link" };
    throw fileError(lockPath, error);
  }
  if (!OUR_LOCK_CONTENT.test(content)) return { kind: "foreign", what: describeKind(stats) };
  return { kind: "ours", holder: content === "" ? undefined : Number.parseInt(content, 10), mtimeMs: stats.mtimeMs };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is not ours.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

function isStale(state: LockState): boolean {
  if (state.kind !== "ours") return false;
  if (state.holder !== undefined) return !isAlive(state.holder);
  return Date.now() - state.mtimeMs > UNREADABLE_LOCK_STALE_MS;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

function tryCreate(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
    throw fileError(lockPath, error);
  }
  try {
    writeAll(fd, `${process.pid}\n`);
  } catch (error) {
    // An empty lock would block every later handoff; leave none behind.
    closeSync(fd);
    unlinkSync(lockPath);
    throw fileError(lockPath, error);
  }
  closeSync(fd);
  return true;
}

/**
 * Removes a stale lock of ours without ever removing a live one or anything else: the lock is
 * moved aside (under a short name, whatever the length of the source's), then looked at again;
 * if it is not the stale lock we judged it to be (another process swapped it in between), it is
 * put back. Returns whether the lock is gone.
 */
function clearStale(lockPath: string): boolean {
  const aside = join(dirname(lockPath), `.agent-stale-lock.${process.pid}.${Math.random().toString(36).slice(2, 10)}`);
  try {
    renameSync(lockPath, aside);
  } catch {
    return false; // Someone else moved or removed it first.
  }
  const state = examineLock(aside);
  if (isStale(state)) {
    removeQuietly(aside);
    return true;
  }
  try {
    // A hard link puts a file back without replacing a lock made meanwhile; anything else goes
    // back by name only while the name is free.
    if (state.kind === "ours") linkSync(aside, lockPath);
    else if (examineLock(lockPath).kind === "absent") renameSync(aside, lockPath);
  } catch {
    // A third process holds a fresh lock now; the live owner's file is still intact below.
  }
  if (state.kind === "ours") removeQuietly(aside);
  return false;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Why no lock was taken: a live process holds it, or the path holds something that is not a lock of ours. */
export type LockRefusal = { heldBy: number | undefined } | { foreign: string };

/**
 * Takes `<path>.lock` (created exclusively, holding our pid), so two handoffs never record
 * into one source at once. A lock of ours left by a dead process is taken over; anything else
 * at that path is left alone and refused at once. Waits up to `waitMs` for a live holder (a
 * signal ends the wait with CANCELLED); then returns who holds it instead of a lock.
 * Throws a FILE error when the lock cannot be created at all (a read-only folder).
 */
export async function acquireLock(path: string, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<Lock | LockRefusal> {
  const lockPath = `${path}.lock`;
  const deadline = Date.now() + (options.waitMs ?? 3000);
  for (;;) {
    if (options.signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (tryCreate(lockPath)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(lockPath);
        } catch {
          // Removed by someone else already.
        }
      };
      process.once("exit", release);
      return { release: () => (process.off("exit", release), release()) };
    }
    const state = examineLock(lockPath);
    if (state.kind === "foreign") return { foreign: state.what };
    if (isStale(state) && clearStale(lockPath)) continue;
    if (Date.now() >= deadline) return { heldBy: state.kind === "ours" ? state.holder : undefined };
    await sleep(50, options.signal);
  }
}
