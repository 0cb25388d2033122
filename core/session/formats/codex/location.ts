import type { AgentHome, AgentLocation, PathSegments, SessionPlace } from "../types.ts";

/** A rollout Codex resumes by id: `rollout-<local time>-<uuid>.jsonl`, the id last. */
const ROLLOUT_NAME = /^rollout-.+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** `CODEX_HOME`, else `~/.codex`. */
export function codexHome({ home, env }: AgentHome): PathSegments {
  const dir = env.CODEX_HOME;
  return dir ? [dir] : [home, ".codex"];
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
