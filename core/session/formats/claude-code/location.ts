import type { AgentHome, AgentLocation, PathSegments, SessionPlace } from "../types.ts";

type Env = AgentHome["env"];

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

/** The names Claude Code 2.1.328 takes from `CLAUDE_CODE_PROJECT_DIR_NAME`: 1 to 64 letters, digits, `_` and `-`… */
const PROJECT_DIR_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** …that are no Windows device name. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * The project folder `CLAUDE_CODE_PROJECT_DIR_NAME` names, as Claude Code 2.1.328 reads it: only
 * while `CLAUDE_CONFIG_DIR` is set and not empty, and only a name `PROJECT_DIR_NAME` allows that
 * is not a Windows device name (`con`, `com1`, …), taken as it is (not trimmed). Any other value
 * Claude Code ignores without a word, and so do we: the cwd's own folder is used.
 */
function namedProjectFolder(env: Env): string | undefined {
  const name = env.CLAUDE_CODE_PROJECT_DIR_NAME;
  if (!env.CLAUDE_CONFIG_DIR || name === undefined) return undefined;
  return PROJECT_DIR_NAME.test(name) && !WINDOWS_DEVICE.test(name) ? name : undefined;
}

/** The project folders Claude Code uses for a cwd (names under `projects/`). */
export interface ClaudeProjectFolders {
  /** Where it writes a new session of the cwd: the folder `CLAUDE_CODE_PROJECT_DIR_NAME` names, else the cwd's own. */
  writes: string;
  /** Where else it finds the cwd's sessions (to resume by id, to list): the cwd's own folder, when another one is named. */
  alsoReads: string[];
}

/**
 * The one place that decides a cwd's project folders, from every input Claude Code 2.1.328 reads
 * for them (the cwd, `CLAUDE_CONFIG_DIR`, `CLAUDE_CODE_PROJECT_DIR_NAME`): discovery, writing a
 * new session and the resume command all ask it.
 */
export function claudeProjectFolders(cwd: string, env: Env): ClaudeProjectFolders {
  const own = claudeProjectFolderName(cwd);
  const named = namedProjectFolder(env);
  return named === undefined || named === own ? { writes: own, alsoReads: [] } : { writes: named, alsoReads: [own] };
}

/** `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
function configDir({ home, env }: AgentHome): PathSegments {
  const dir = env.CLAUDE_CONFIG_DIR;
  return dir ? [dir] : [home, ".claude"];
}

/** `<session id>.jsonl`: a subagent's `agent-<id>.jsonl` beside it is not a session of its own. */
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

/** The id in a session file's name (`<uuid>.jsonl`): the one `claude --resume` opens it by. */
export function idOfSessionFileName(name: string): string | undefined {
  return SESSION_FILE.test(name) ? name.slice(0, -".jsonl".length) : undefined;
}

/**
 * Where Claude Code 2.1.328 keeps sessions: `projects/<folder name of the cwd>/<session id>.jsonl`,
 * or `projects/<CLAUDE_CODE_PROJECT_DIR_NAME>/…` (see `claudeProjectFolders`).
 */
export const claudeCodeLocation: AgentLocation = {
  findsSessionsOnlyInItsFolder: true,
  sessionsRoot: (home) => [...configDir(home), "projects"],
  sessionFolder: (place: SessionPlace) => [...configDir(place), "projects", claudeProjectFolders(place.cwd, place.env).writes],
  alsoFindsSessionsIn: (place: SessionPlace) =>
    claudeProjectFolders(place.cwd, place.env).alsoReads.map((name) => [...configDir(place), "projects", name]),
  // Subagents' transcripts lie deeper (`<session id>/subagents/`), never at this depth.
  sessionFiles: () => ({
    folders: 1,
    isSessionName: (name) => SESSION_FILE.test(name),
    idInName: idOfSessionFileName,
    nameWithId: "<uuid>.jsonl",
  }),
  filesByCwd: true,
};
