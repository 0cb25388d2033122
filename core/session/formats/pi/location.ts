import type { AgentHome, AgentLocation, PathSegments, SessionFileLayout, SessionPlace } from "../types.ts";

/** `~` and `~/…` in pi's variables mean the home folder, as pi expands them. */
function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? `${home}${path.slice(1)}` : path;
}

/** `PI_CODING_AGENT_SESSION_DIR`: one folder for every session, whatever its cwd. */
function sharedSessionFolder({ home, env }: AgentHome): PathSegments | undefined {
  const dir = env.PI_CODING_AGENT_SESSION_DIR;
  return dir ? [expandHome(dir, home)] : undefined;
}

/** `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function piAgentDir({ home, env }: AgentHome): PathSegments {
  const dir = env.PI_CODING_AGENT_DIR;
  return dir ? [expandHome(dir, home)] : [home, ".pi", "agent"];
}

/**
 * The folder name pi gives the sessions of a cwd: the cwd without its first separator, every
 * `/`, `\` and `:` as `-`, between `--` and `--` (`/home/me/app` → `--home-me-app--`).
 */
export function piFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** Every `.jsonl` in a session folder is one (pi lists them so); omp's layout is the same. */
export function piSessionFiles(folders: number): SessionFileLayout {
  return { folders, isSessionName: (name) => name.endsWith(".jsonl") };
}

/** Where pi 0.73.1 keeps sessions (its config.ts, session-manager.ts and main.ts say so). */
export const piLocation: AgentLocation = {
  sessionsRoot: (home) => sharedSessionFolder(home) ?? [...piAgentDir(home), "sessions"],
  sessionFolder: (place: SessionPlace) => sharedSessionFolder(place) ?? [...piAgentDir(place), "sessions", piFolderName(place.cwd)],
  // With PI_CODING_AGENT_SESSION_DIR every session is in that one folder.
  sessionFiles: (home) => piSessionFiles(sharedSessionFolder(home) ? 0 : 1),
  filesByCwd: true,
};
