import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { AgentError } from "../../core/index.ts";
import { errorCode } from "../io/fs-errors.ts";
import { acquireLock, lockPathFor } from "../io/lock.ts";
import { asField } from "../output/terminal.ts";
import type { Run } from "../run.ts";
import { memoryPath, missingFolders, removeEmptyFolders, type StateFolders } from "./integration-memory.ts";

/**
 * One `agent integrate` at a time per state folder: the lock `integrations.json.lock` beside our
 * memory, held from reading the agents' settings to writing the last of them and the memory.
 * Two runs at once would each merge into what the other is about to replace, or each write the
 * memory without the other's entries; with the lock the second waits, then reads what the first
 * wrote. A lock still held after the wait is one line, exit 1, and nothing is written.
 */

/** Longer than any integrate takes (milliseconds of reading and writing a few small files). */
const LOCK_WAIT_MS = 3_000;

/** Tries to make the folder and take the lock again when another run removed the folder meanwhile (its last --uninstall). */
const ATTEMPTS = 3;

/**
 * Runs `work` holding the lock; the state folders this run made for the lock are the memory's to
 * remember, or removed again. `held`: another run still holds it after the wait (the one line to say).
 */
export async function withIntegrationLock<T>(
  run: Run,
  work: (state: StateFolders) => T | Promise<T>,
): Promise<{ value: T } | { held: string }> {
  const path = memoryPath(run.env);
  for (let attempt = 1; ; attempt++) {
    const made = missingFolders(path);
    const state: StateFolders = { made, toRemove: [] };
    let lock: Awaited<ReturnType<typeof acquireLock>>;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      lock = await acquireLock(run, path, { waitMs: LOCK_WAIT_MS, signal: run.cancel.signal });
    } catch (error) {
      removeEmptyFolders(made);
      if (attempt < ATTEMPTS && folderWentAway(error, path)) continue;
      throw error;
    }
    if (!("release" in lock)) {
      removeEmptyFolders(made);
      const lockPath = asField(lockPathFor(path));
      if ("foreign" in lock)
        throw new AgentError("FILE", `${lockPath}: is ${lock.foreign}, not a lock of agent integrate; move it away; nothing was changed`, {
          file: lockPathFor(path),
        });
      const who = lock.heldBy === undefined ? "another agent integrate" : `another agent integrate (pid ${lock.heldBy})`;
      return { held: `${who} holds ${lockPath}: run this again once it has ended; nothing was changed` };
    }
    try {
      return { value: await work(state) };
    } finally {
      lock.release();
      // Nothing remembered now (the last --uninstall, or nothing to change in a fresh home): the folders go, once empty.
      if (!existsSync(path)) removeEmptyFolders([...state.toRemove, ...made]);
    }
  }
}

/** The state folder was removed between making it and taking the lock (another run's last --uninstall). */
function folderWentAway(error: unknown, path: string): boolean {
  return errorCode(error) === "ENOENT" || (error instanceof AgentError && !existsSync(dirname(path)));
}
