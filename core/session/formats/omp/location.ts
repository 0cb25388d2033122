import { piSessionFiles } from "../pi/location.ts";
import type { AgentHome, AgentLocation, PathSegments, SessionPlace } from "../types.ts";

/** The profile names omp accepts (`OMP_PROFILE=work`); any other value makes omp refuse to start. */
const PROFILE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * omp's active profile: `OMP_PROFILE` when set at all (empty means the default profile), else
 * `PI_PROFILE`; `default` and blanks are the default profile. A name omp would refuse counts
 * as the default here: omp does not start then, so no folder is right.
 */
function profileOf(env: AgentHome["env"]): string | undefined {
  const name = (env.OMP_PROFILE !== undefined ? env.OMP_PROFILE : env.PI_PROFILE)?.trim();
  if (!name || name === "default" || name.endsWith(".") || !PROFILE_NAME.test(name)) return undefined;
  return name;
}

/**
 * omp's agent folder: `~/.omp/agent` (`PI_CONFIG_DIR` renames `.omp`), a named profile's
 * `~/.omp/profiles/<name>/agent`, or `PI_CODING_AGENT_DIR` for the default profile. omp's XDG
 * mode (after `omp config init-xdg`, which moves the folders under `$XDG_DATA_HOME/omp`) is not
 * followed: whether it is on depends on what exists on disk, not on the environment alone.
 */
export function ompAgentDir({ home, env }: AgentHome): PathSegments {
  const profile = profileOf(env);
  const root = [home, env.PI_CONFIG_DIR || ".omp", ...(profile ? ["profiles", profile] : [])];
  if (!profile && env.PI_CODING_AGENT_DIR) return [env.PI_CODING_AGENT_DIR];
  return [...root, "agent"];
}

/** A path's names, `.` and `..` resolved; `/` and `\` both separate (omp runs on Windows too). */
function names(path: string): string[] {
  const out: string[] = [];
  for (const name of path.split(/[/\\]/)) {
    if (name === "" || name === ".") continue;
    if (name === "..") out.pop();
    else out.push(name);
  }
  return out;
}

/** `path` relative to `root` when it lies inside it (`""` for the root itself), else undefined. */
function relativeInside(root: string, path: string): string | undefined {
  if (root === "") return undefined;
  const base = names(root);
  const full = names(path);
  if (full.length < base.length || base.some((name, i) => name !== full[i])) return undefined;
  return full.slice(base.length).join("/");
}

const SEPARATORS = /[/\\:]/g;

/**
 * The folder name omp 18 gives the sessions of a cwd (its session-paths.ts): inside the home
 * folder, `-` and the home-relative path (`~/code/foo` → `-code-foo`, home itself `-`); inside
 * the temporary folder, `-tmp` likewise; elsewhere pi's `--<path>--`. omp compares the real
 * paths (links resolved); cli passes the home and temporary folders resolved.
 */
export function ompFolderName(cwd: string, home: string, tmpdir: string): string {
  const inHome = relativeInside(home, cwd);
  if (inHome !== undefined) return inHome === "" ? "-" : `-${inHome.replace(SEPARATORS, "-")}`;
  const inTmp = relativeInside(tmpdir, cwd);
  if (inTmp !== undefined) return inTmp === "" ? "-tmp" : `-tmp-${inTmp.replace(SEPARATORS, "-")}`;
  return `--${cwd.replace(/^[/\\]/, "").replace(SEPARATORS, "-")}--`;
}

/** Where omp 18.2.3 keeps sessions, and the blobs (large images) they refer to. */
export const ompLocation: AgentLocation = {
  sessionsRoot: (home) => [...ompAgentDir(home), "sessions"],
  sessionFolder: (place: SessionPlace) => [...ompAgentDir(place), "sessions", ompFolderName(place.cwd, place.home, place.tmpdir)],
  // A subagent's session lies in a folder beside its parent's file, one level deeper.
  sessionFiles: () => piSessionFiles(1),
  filesByCwd: true,
};

export function ompBlobFolder(home: AgentHome): PathSegments {
  return [...ompAgentDir(home), "blobs"];
}
