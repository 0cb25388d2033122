import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";

/**
 * Forgetting the hooks' state of sessions long left (offer-state.ts), on each write: a session's
 * files go together, when the session file they were written for is gone, or when the newest of
 * them is older than `KEEP_STATE_DAYS` (an offer or a handoff that old concerns a session nobody
 * continues; if someone does, the worst is an offer shown once more). Files of other names are
 * never touched.
 */

export const KEEP_STATE_DAYS = 30;

/** `<agent>-<session id>.<kind>`: the kinds offer-state.ts writes. */
const STATE_FILE = /^(.+)\.(offered|compacted|before-compact|source)$/;

function modifiedMs(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Removes the state of every session but `keep` (the `<agent>-<session id>` being written) that is gone or old. */
export function pruneOffers(folder: string, keep: string, nowMs: number): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const sessions = new Map<string, string[]>();
  for (const name of names) {
    const match = STATE_FILE.exec(name);
    if (match?.[1] === undefined || match[1] === keep) continue;
    sessions.set(match[1], [...(sessions.get(match[1]) ?? []), name]);
  }
  const oldest = nowMs - KEEP_STATE_DAYS * 24 * 3600 * 1000;
  for (const [session, files] of sessions) {
    let source: string | undefined;
    try {
      source = readFileSync(join(folder, `${session}.source`), "utf8").trim();
    } catch {
      source = undefined;
    }
    const gone = source !== undefined && isAbsolute(source) && !existsSync(source);
    const newest = Math.max(...files.map((file) => modifiedMs(join(folder, file)) ?? 0));
    if (!gone && newest >= oldest) continue;
    for (const file of files)
      try {
        unlinkSync(join(folder, file));
      } catch {
        // Gone already (another hook pruned it): nothing to forget.
      }
  }
}
