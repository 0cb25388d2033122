import { mkdirSync, realpathSync, rmdirSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { AgentError, type AgentHome, type PathSegments, type SessionFormat } from "../core/index.ts";
import { fileError } from "./fs-errors.ts";
import { NAME_MAX_BYTES } from "./temp-file.ts";

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
  return env.HOME || userInfo().homedir;
}

/** The temp folder `env` names, as the runtime's `tmpdir()` finds it: TMPDIR, TMP or TEMP, else /tmp. */
export function tmpdirOf(env: Env): string {
  const named = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return named.length > 1 && named.endsWith("/") ? named.slice(0, -1) : named;
}

/** Where the agents keep their files on this machine, from the environment (as the agents read it). */
export function agentHome(env: Env): AgentHome {
  return { home: realFolder(homeOf(env)), env, tmpdir: realFolder(tmpdirOf(env)) };
}

/** Joins a format's path segments (core has no path module). */
export function joinSegments(segments: PathSegments): string {
  return join(...segments);
}

export interface DestinationInput {
  /** The source's absolute path, or undefined when it was read as a stream. */
  sourcePath: string | undefined;
  sourceFormat: SessionFormat;
  target: SessionFormat;
  /** The source session's working directory. */
  cwd: string | undefined;
  home: AgentHome;
  /** The folder to use for a stream handed to its own agent: the current one. */
  currentFolder: string;
}

/**
 * The folder the new session goes in when `-o` does not say: beside the source when it stays
 * with its own agent and that agent opens a file anywhere (pi, omp; a stream: the current
 * folder), else the target agent's own folder for the source's cwd, where that agent looks for
 * it (Claude Code and Codex find a session by id only there). Pure: nothing is looked at on disk.
 */
export function destinationFolder(input: DestinationInput, timestamp: Date): string {
  if (input.target.name === input.sourceFormat.name && !input.target.location.findsSessionsOnlyInItsFolder) {
    return input.sourcePath === undefined ? input.currentFolder : dirname(input.sourcePath);
  }
  if (input.cwd === undefined || input.cwd === "") {
    throw new AgentError(
      "USAGE",
      `the session records no working directory (or not an absolute one), so there is no ${input.target.label} folder for it; say where the new session goes with -o`,
    );
  }
  const place = { ...input.home, cwd: input.cwd, timestamp, utcOffsetMinutes: -timestamp.getTimezoneOffset() };
  const segments = input.target.location.sessionFolder(place);
  const folder = inSourceHome(input, joinSegments(segments)) ?? joinSegments(segments);
  // The folder names come from the cwd, which is the file's own text: one no file system takes is
  // refused now, before the model is asked, rather than when the new session is written.
  const unusable = segments.find((name) => Buffer.byteLength(name, "utf8") > NAME_MAX_BYTES || name.includes("\0"));
  if (unusable !== undefined) {
    const why = unusable.includes("\0") ? "a NUL character" : `more than ${NAME_MAX_BYTES} bytes`;
    throw new AgentError(
      "FILE",
      `${folder}: ${input.target.label} would name a folder after the cwd with ${why}, which no file system takes; say where the new session goes with -o`,
      { file: folder },
    );
  }
  return folder;
}

/**
 * A Claude Code or Codex session handed to its own agent from another home of that agent (a
 * second `CLAUDE_CONFIG_DIR` or `CODEX_HOME` the user runs it with, not the one set now): the
 * same folder under the source's home, where the agent that holds the source looks. The source
 * lies in such a home when it sits at the agent's depth under a folder named as the agent's
 * sessions root (`projects/<folder>/<id>.jsonl`, `sessions/YYYY/MM/DD/rollout-….jsonl`).
 */
function inSourceHome(input: DestinationInput, folder: string): string | undefined {
  const { sourcePath, target, sourceFormat, home } = input;
  if (sourcePath === undefined || target.name !== sourceFormat.name) return undefined;
  const root = joinSegments(target.location.sessionsRoot(home));
  const layout = target.location.sessionFiles(home);
  let sourceRoot = dirname(sourcePath);
  for (let i = 0; i < layout.folders; i++) sourceRoot = dirname(sourceRoot);
  const elsewhere = sourceRoot !== root && basename(sourceRoot) === basename(root) && layout.isSessionName(basename(sourcePath));
  if (!elsewhere || !folder.startsWith(`${root}${sep}`)) return undefined;
  return join(sourceRoot, folder.slice(root.length + 1));
}

/**
 * Creates the folders missing on the way to `folder`, readable by the user only (0700, as the
 * agents make theirs); returns the first one it created, to be removed if the write fails.
 */
export function createFolders(folder: string): string | undefined {
  try {
    if (statSync(folder).isDirectory()) return undefined;
  } catch {
    // Missing: created below.
  }
  try {
    return mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw fileError(folder, error);
  }
}

/** Removes the folders `createFolders` made, from `folder` up to `first`, if they are still empty. */
export function removeCreatedFolders(folder: string, first: string | undefined): void {
  if (first === undefined) return;
  for (let current = folder; current.startsWith(first); current = dirname(current)) {
    try {
      rmdirSync(current);
    } catch {
      return; // not empty (someone else wrote there), or gone: leave the rest
    }
    if (current === first) return;
  }
}
