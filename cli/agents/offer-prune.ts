import { readdirSync, statSync, unlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { integrations } from "../../core/index.ts";
import { readIfThere } from "./state-files.ts";

/**
 * Forgetting the hooks' state of sessions long left (offer-state.ts), on each write: a session's
 * files go together, when the session file they were written for is gone, or when the newest of
 * them and the session file itself are older than `KEEP_STATE_DAYS` (an offer or a handoff that
 * old concerns a session nobody continues; a session still written to is never forgotten). Only
 * names offer-state.ts writes (`<agent>-<id>.<kind>`, of an agent we serve) are touched, and one
 * write looks at no more than `PRUNE_SESSIONS_PER_WRITE` sessions, from a place chosen at random,
 * so a folder of many thousands costs each hook the same few milliseconds, and is emptied over
 * a few writes all the same.
 */

export const KEEP_STATE_DAYS = 30;

/** The most sessions one write looks at (a stat or two each). */
export const PRUNE_SESSIONS_PER_WRITE = 200;

/**
 * `<agent>-<session id>.<kind>`: the kinds offer-state.ts writes, the lock of the mark, and a temp
 * file of state-files.ts's that a process ended before renaming (forgotten with its session).
 */
function stateFilePattern(): RegExp {
  const agents = integrations().map((integration) => integration.name.replace(/[^a-z0-9-]/g, ""));
  return new RegExp(
    `^((?:${agents.join("|")})-.+)\\.(?:offered|compacted|before-compact|before-compact\\.lock|source)(?:\\.[0-9a-z]+\\.tmp)?$`,
  );
}

function modifiedMs(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Removes the state of every session but `keep` (the `<agent>-<session id>` being written) that is
 * gone or old, looking at `limit` sessions from `start` (a share of the way round, 0 to 1).
 */
export function pruneOffers(
  folder: string,
  keep: string,
  nowMs: number,
  { limit = PRUNE_SESSIONS_PER_WRITE, start = Math.random() }: { limit?: number; start?: number } = {},
): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const pattern = stateFilePattern();
  const sessions = new Map<string, string[]>();
  for (const name of names) {
    const match = pattern.exec(name);
    if (match?.[1] === undefined || match[1] === keep) continue;
    sessions.set(match[1], [...(sessions.get(match[1]) ?? []), name]);
  }
  const oldest = nowMs - KEEP_STATE_DAYS * 24 * 3600 * 1000;
  const all = [...sessions];
  const from = Math.floor(start * all.length);
  for (let seen = 0; seen < Math.min(limit, all.length); seen++) {
    const [session, files] = all[(from + seen) % all.length] ?? ["", []];
    const source = readIfThere(join(folder, `${session}.source`))?.trim();
    const recorded = source !== undefined && isAbsolute(source);
    const sourceMs = recorded ? modifiedMs(source) : undefined;
    const gone = recorded && sourceMs === undefined;
    const newest = Math.max(sourceMs ?? 0, ...files.map((file) => modifiedMs(join(folder, file)) ?? 0));
    if (!gone && newest >= oldest) continue;
    for (const file of files)
      try {
        unlinkSync(join(folder, file));
      } catch {
        // Gone already (another hook pruned it): nothing to forget.
      }
  }
}
