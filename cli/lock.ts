import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

/** A lock we hold: release it exactly once. */
export interface Lock {
  release(): void;
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

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, "wx", 0o600);
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Takes `<path>.lock` (created exclusively, holding our pid), so two handoffs never record
 * into one source at once. A lock left by a process that no longer exists is taken over.
 * Waits up to `waitMs`; then returns the pid that holds it instead of a lock.
 */
export async function acquireLock(path: string, waitMs = 3000): Promise<Lock | { heldBy: number | undefined }> {
  const lockPath = `${path}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (tryCreate(lockPath)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(lockPath);
        } catch {
          // Someone removed it already.
        }
      };
      process.once("exit", release);
      return { release: () => (process.off("exit", release), release()) };
    }
    const holder = holderOf(lockPath);
    if (holder !== undefined && !isAlive(holder)) {
      // Stale: its owner died (kill -9, a crash). Remove it and try again.
      try {
        unlinkSync(lockPath);
      } catch {
        // Another process took it over first.
      }
      continue;
    }
    if (Date.now() >= deadline) return { heldBy: holder };
    await Bun.sleep(50);
  }
}
