import type { AgentHome, AgentLocation, PathSegments, SessionPlace } from "../types.ts";

/** Claude Code cuts a project folder name longer than this and adds a hash of the whole cwd. */
const MAX_FOLDER_NAME = 200;

/**
 * The 32-bit string hash Claude Code 2.1.328 adds to a cut name: over UTF-16 code units,
 * `hash = hash * 31 + unit`, wrapping as a signed 32-bit integer; written as the absolute value in
 * base 36.
 */
function cwdHash(text: string): string {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return Math.abs(hash).toString(36);
}

/**
 * The folder name Claude Code gives a project: the cwd with every UTF-16 code unit outside
 * `A-Z`, `a-z`, `0-9` as `-` (`/home/me/my_app` → `-home-me-my-app`; an emoji is two code
 * units, so two dashes). A name over 200 characters is cut to 200, then `-` and the hash of the
 * whole cwd follow.
 */
export function claudeProjectFolderName(cwd: string): string {
  const name = cwd.replace(/[^A-Za-z0-9]/g, "-");
  return name.length <= MAX_FOLDER_NAME ? name : `${name.slice(0, MAX_FOLDER_NAME)}-${cwdHash(cwd)}`;
}

/** `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
function configDir({ home, env }: AgentHome): PathSegments {
  const dir = env.CLAUDE_CONFIG_DIR;
  return dir ? [dir] : [home, ".claude"];
}

/** `<session id>.jsonl`: a subagent's `agent-<id>.jsonl` beside it is no session of its own. */
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

/** The id in a session file's name (`<uuid>.jsonl`): the one `claude --resume` opens it by. */
export function idOfSessionFileName(name: string): string | undefined {
  return SESSION_FILE.test(name) ? name.slice(0, -".jsonl".length) : undefined;
}

/** Where Claude Code 2.1.328 keeps sessions: `projects/<folder name of the cwd>/<session id>.jsonl`. */
export const claudeCodeLocation: AgentLocation = {
  findsSessionsOnlyInItsFolder: true,
  sessionsRoot: (home) => [...configDir(home), "projects"],
  sessionFolder: (place: SessionPlace) => [...configDir(place), "projects", claudeProjectFolderName(place.cwd)],
  // Subagents' transcripts lie deeper (`<session id>/subagents/`), never at this depth.
  sessionFiles: () => ({ folders: 1, isSessionName: (name) => SESSION_FILE.test(name), idInName: idOfSessionFileName }),
  filesByCwd: true,
};
