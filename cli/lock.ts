import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync } from "node:fs";
import { AgentError } from "../core/index.ts";
import { fileError, writeAll } from "./write.ts";

/** A lock we hold: release it exactly once. */
export interface Lock {
  release(): void;
}

/** A lock file without a readable pid this old was left by a process that died mid-write. */
const UNREADABLE_LOCK_STALE_MS = 10_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is not ours.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

function readHolder(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isStale(lockPath: string): boolean {
  const holder = readHolder(lockPath);
  if (holder !== undefined) return !isAlive(holder);
  try {
    return Date.now() - statSync(lockPath).mtimeMs > UNREADABLE_LOCK_STALE_MS;
  } catch {
    return false; // Gone already: the next attempt to create it will tell.
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
 * Removes a stale lock without ever removing a live one: the lock is moved aside under a name
 * of our own, then checked; if another process took it over in between, it is put back.
 */
function clearStale(lockPath: string): void {
  const aside = `${lockPath}.${process.pid}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // Someone else moved or removed it first.
  }
  if (isStale(aside)) {
    unlinkSync(aside);
    return;
  }
  try {
    linkSync(aside, lockPath);
  } catch {
    // A third process holds a fresh lock now; the live owner's file is still intact below.
  }
  unlinkSync(aside);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Takes `<path>.lock` (created exclusively, holding our pid), so two handoffs never record
 * into one source at once. A lock left by a dead process is taken over. Waits up to `waitMs`
 * (a signal ends the wait with CANCELLED); then returns who holds it instead of a lock.
 * Throws a FILE error when the lock cannot be created at all (a read-only folder).
 */
export async function acquireLock(path: string, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<Lock | { heldBy: number | undefined }> {
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
    if (isStale(lockPath)) {
      clearStale(lockPath);
      continue;
    }
    if (Date.now() >= deadline) return { heldBy: readHolder(lockPath) };
    await sleep(50, options.signal);
  }
}
