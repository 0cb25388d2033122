import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, renameSync, unlinkSync, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
import { AgentError } from "../../core/index.ts";
import { errorCode, fileError, isMissing } from "./fs-errors.ts";
import { fitBytes, NAME_MAX_BYTES, writeTemp } from "./temp-file.ts";
import type { Run } from "../run.ts";

/** A lock we hold: release it exactly once. */
export interface Lock {
  release(): void;
}

/** Our lock holds a pid and a newline, from the moment it exists; anything else is not ours. */
const LOCK_BYTES_MAX = 32;
const OUR_LOCK_CONTENT = /^[1-9][0-9]{0,9}\n$/;

/** What a lock name adds to the source's name when it fits: `<source>.lock`. */
const LOCK_SUFFIX = ".lock";

/**
 * The lock of the session at `path`: `<path>.lock`, the name every version of this tool used;
 * when that name would be longer than a file name may be (a source named with 251–255 bytes),
 * the source's name cut to fit, a dot, the first 8 hex digits of the SHA-256 of its whole name,
 * and `.lock`. Two handoffs of one source always agree on it, and a name that fits never changes.
 */
export function lockPathFor(path: string): string {
  const name = basename(path);
  if (Buffer.byteLength(name, "utf8") + LOCK_SUFFIX.length <= NAME_MAX_BYTES) return `${path}${LOCK_SUFFIX}`;
  const tag = `.${new Bun.CryptoHasher("sha256").update(name).digest("hex").slice(0, 8)}${LOCK_SUFFIX}`;
  return join(dirname(path), `${fitBytes(name, NAME_MAX_BYTES - tag.length)}${tag}`);
}

/**
 * What sits at a lock path. Only a regular file in our format (a pid and a newline) is `ours`:
 * we never create a lock without its pid (it is written whole, then linked into place), so an
 * empty file is another tool's. A directory, a symbolic link, a fifo, a socket, an empty file or
 * a file holding anything else is `foreign`, and is never moved or removed.
 */
type LockState = { kind: "absent" } | { kind: "ours"; holder: number } | { kind: "foreign"; what: string };

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return stats.size === 0 ? "an empty file" : "a file";
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
    if (errorCode(error) === "ELOOP") return { kind: "foreign", what: "a symbolic link" };
    throw fileError(lockPath, error);
  }
  if (!OUR_LOCK_CONTENT.test(content)) return { kind: "foreign", what: describeKind(stats) };
  return { kind: "ours", holder: Number.parseInt(content, 10) };
}

function isAlive(run: Run, pid: number): boolean {
  try {
    run.host.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is not ours.
    return errorCode(error) === "EPERM";
  }
}

function isStale(run: Run, state: LockState): boolean {
  return state.kind === "ours" && !isAlive(run, state.holder);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

/**
 * Creates the lock whole: our pid is written to a temp file, which is then hard-linked to the
 * lock's name (a link, unlike a rename, fails when the name is taken). So a lock of ours is
 * never seen empty or half-written, and whatever is empty is not ours.
 */
function tryCreate(run: Run, lockPath: string): boolean {
  const temp = writeTemp(run.temps, lockPath, `${run.host.pid}\n`);
  if (temp === undefined) throw fileError(lockPath, new Error("could not write the lock"));
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw fileError(lockPath, error);
  } finally {
    run.temps.discard(temp);
  }
}

/**
 * Removes a stale lock of ours without ever removing a live one or anything else: the lock is
 * moved aside (under a short name, whatever the length of the source's), then looked at again;
 * if it is not the stale lock we judged it to be (another process swapped it in between), it is
 * put back. Returns whether the lock is gone.
 */
function clearStale(run: Run, lockPath: string): boolean {
  const aside = join(dirname(lockPath), `.agent-stale-lock.${run.host.pid}.${Math.random().toString(36).slice(2, 10)}`);
  try {
    renameSync(lockPath, aside);
  } catch {
    return false; // Someone else moved or removed it first.
  }
  const state = examineLock(aside);
  if (isStale(run, state)) {
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
 * Takes the lock of `path` (see `lockPathFor`; created exclusively, holding our pid), so two handoffs never record
 * into one source at once. A lock of ours left by a dead process is taken over; anything else
 * at that path is left alone and refused at once. Waits up to `waitMs` for a live holder (a
 * signal ends the wait with CANCELLED); then returns who holds it instead of a lock.
 * Throws a FILE error when the lock cannot be created at all (a read-only folder).
 */
export async function acquireLock(
  run: Run,
  path: string,
  options: { waitMs?: number; signal?: AbortSignal } = {},
): Promise<Lock | LockRefusal> {
  const lockPath = lockPathFor(path);
  const deadline = Date.now() + (options.waitMs ?? 3000);
  for (;;) {
    if (options.signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (tryCreate(run, lockPath)) {
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
      // However the run ends, at once included (the run ends with the process).
      const forget = run.onEnd(release);
      return { release: () => (forget(), release()) };
    }
    const state = examineLock(lockPath);
    if (state.kind === "foreign") return { foreign: state.what };
    if (isStale(run, state) && clearStale(run, lockPath)) continue;
    if (Date.now() >= deadline) return { heldBy: state.kind === "ours" ? state.holder : undefined };
    await sleep(50, options.signal);
  }
}
