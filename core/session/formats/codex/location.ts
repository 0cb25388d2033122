import type { AgentHome, AgentLocation, PathSegments, SessionPlace } from "../types.ts";

/** A rollout Codex resumes by id: `rollout-<local time>-<uuid>.jsonl`, the id last. */
const ROLLOUT_NAME = /^rollout-.+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/**
 * Codex's folder as Codex 0.169 finds it (`find_codex_home`): `CODEX_HOME` when set and not empty,
 * taken as it is (no `~` expansion, no trimming; a relative one lies in the folder Codex runs in,
 * the run's folder), else `~/.codex` (an empty `CODEX_HOME` is not set). Every place that names a
 * Codex file (its sessions, its configuration, its thread index) starts here.
 */
export function codexHome({ home, env, runFolder }: AgentHome): PathSegments {
  const dir = env.CODEX_HOME;
  if (dir === undefined || dir === "") return [home, ".codex"];
  return isAbsolutePath(dir) ? [dir] : [runFolder, dir];
}

/** An absolute path on POSIX (`/…`) or Windows (`C:\…`, `C:/…`, `\\server\…`): core has no path module. */
function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^(?:[A-Za-z]:[\\/]|\\\\)/.test(path);
}

/**
 * The user's local calendar date at `timestamp`, as `[YYYY, MM, DD]`: Codex files a session
 * under the day it started where the user is, not in UTC.
 */
export function localDateFolders(timestamp: Date, utcOffsetMinutes: number): [string, string, string] {
  const local = new Date(timestamp.getTime() + utcOffsetMinutes * 60_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return [String(local.getUTCFullYear()).padStart(4, "0"), two(local.getUTCMonth() + 1), two(local.getUTCDate())];
}

/** Where Codex CLI 0.169.0 keeps sessions: `sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl`. */
export const codexLocation: AgentLocation = {
  findsSessionsOnlyInItsFolder: true,
  sessionsRoot: (home) => [...codexHome(home), "sessions"],
  sessionFolder: (place: SessionPlace) => [...codexHome(place), "sessions", ...localDateFolders(place.timestamp, place.utcOffsetMinutes)],
  // Newer versions may keep a finished rollout compressed.
  sessionFiles: () => ({
    folders: 3,
    isSessionName: (name) => /^rollout-.*\.jsonl(?:\.zst)?$/.test(name),
    idInName: (name) => ROLLOUT_NAME.exec(name)?.[1],
    nameWithId: "rollout-<time>-<uuid>.jsonl",
  }),
  filesByCwd: false,
};
