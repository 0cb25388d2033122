import { realpathSync } from "node:fs";
import { join } from "node:path";
import { builtin } from "../io/builtins.ts";
import type { AgentHome, PathSegments } from "../../core/index.ts";

/** A folder with its links resolved, as the agents compare folders; as given when it cannot be. */
function realFolder(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The home folder `env` names (HOME), else the user's own from the system, as the runtime's `homedir()` finds it. */
export function homeOf(env: Env): string {
  return env.HOME || builtin("node:os").userInfo().homedir;
}

/** The temp folder `env` names, as the runtime's `tmpdir()` finds it: TMPDIR, TMP or TEMP, else /tmp. */
export function tmpdirOf(env: Env): string {
  const named = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return named.length > 1 && named.endsWith("/") ? named.slice(0, -1) : named;
}

/**
 * Where the agents keep their files on this machine, from the run's environment and folder (as
 * the agents read them: a relative override of an agent's folder lies in the folder it runs in,
 * which for the sessions we find and write is the run's).
 */
export function agentHome(run: { env: Env; cwd: string }): AgentHome {
  const { env } = run;
  return { home: realFolder(homeOf(env)), env, tmpdir: realFolder(tmpdirOf(env)), runFolder: realFolder(run.cwd) };
}

/** Joins a format's path segments (core has no path module). */
export function joinSegments(segments: PathSegments): string {
  return join(...segments);
}
