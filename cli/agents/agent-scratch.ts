import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { ConsolaInstance } from "consola/core";
import { AgentError, type AgentEngine } from "../../core/index.ts";
import { homeOf } from "../sessions/agent-home.ts";
import { currentUser, folderChain, nearestExisting, whyNotPrivate } from "../io/private-folder.ts";
import { fsReason } from "../io/fs-errors.ts";

type Env = Record<string, string | undefined>;

/**
 * Where agent runs get their folders: `${XDG_CACHE_HOME:-~/.cache}/agent/runs`, the user's own,
 * never TMPDIR (a shared /tmp lets any user put a CLAUDE.md or AGENTS.md above the folder, and
 * the agents read those). A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
 */
export function runsFolder(env: Env, home = homeOf(env)): string {
  const base = env.XDG_CACHE_HOME;
  return join(base && isAbsolute(base) ? base : join(home, ".cache"), "agent", "runs");
}

/** The line a run fails with when its folder could not be private. */
export function describeNotPrivate(engine: AgentEngine, reason: string): string {
  return `cannot give ${engine.command} a private folder to run in: ${reason}; set XDG_CACHE_HOME to a folder only you can write`;
}

/**
 * Why a run in `runs` could not be private, checking only what exists (a dry run creates
 * nothing); undefined when it could.
 */
export function whyRunsFolderNotPrivate(runs: string): string | undefined {
  const me = currentUser();
  if (me === undefined) return undefined;
  try {
    return whyNotPrivate(folderChain(nearestExisting(runs)), me);
  } catch (error) {
    return `${runs} cannot be checked (${fsReason(error)})`;
  }
}

/**
 * One run's folders agent runs work in, under the runs folder: made per run, removed when it
 * ends, and removed too when we end at once (a second Ctrl-C exits without unwinding), after the
 * agents are gone (cli/run.ts).
 */
export class ScratchFolders {
  private readonly live = new Set<string>();

  add(root: string): void {
    this.live.add(root);
  }

  forget(root: string): void {
    this.live.delete(root);
  }

  removeAll(): void {
    for (const root of this.live) tryRemove(root);
    this.live.clear();
  }
}

/**
 * A new, empty folder of our own (0700) under the runs folder, with no folder above it another
 * user could change: checked before anything is made, and again on the real path once the runs
 * folder exists (a symbolic link may lead elsewhere). One we cannot make, or cannot trust, is a
 * failure of the run, said plainly.
 */
export function makeScratchFolder(folders: ScratchFolders, engine: AgentEngine, env: Env): string {
  const runs = runsFolder(env);
  const refuse = (reason: string) => new AgentError("HANDOFF_FAILED", describeNotPrivate(engine, reason));
  const before = whyRunsFolderNotPrivate(runs);
  if (before !== undefined) throw refuse(before);
  let root: string;
  try {
    mkdirSync(runs, { recursive: true, mode: 0o700 });
    // Its real path: what the agent sees as its folder, and what is checked below.
    root = realpathSync(mkdtempSync(join(runs, `${engine.name}-`)));
  } catch (error) {
    throw new AgentError(
      "HANDOFF_FAILED",
      `cannot make a folder for ${engine.command} to run in under ${runs} (${fsReason(error)}); set XDG_CACHE_HOME to a folder you can write`,
    );
  }
  folders.add(root);
  const after = whyRunsFolderNotPrivate(root);
  if (after !== undefined) {
    removeScratchFolder(folders, root, undefined);
    throw refuse(after);
  }
  return root;
}

/**
 * Removes a run's folder. A folder the agent left read-only is made writable and tried again;
 * one that still cannot go (an immutable file) is a warning naming it, never a failure of a
 * run that gave its answer, and never in place of the agent's own error.
 */
export function removeScratchFolder(folders: ScratchFolders, root: string, logger: ConsolaInstance | undefined): void {
  folders.forget(root);
  const error = tryRemove(root);
  if (error !== undefined) logger?.warn(`could not remove ${root}, the folder the agent ran in (${fsReason(error)}); remove it yourself`);
}

function tryRemove(root: string): unknown {
  try {
    rmSync(root, { recursive: true, force: true });
    return undefined;
  } catch {
    makeWritable(root);
  }
  try {
    rmSync(root, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Gives the owner write access to every folder under `folder` (no symbolic link is followed). */
function makeWritable(folder: string): void {
  try {
    chmodSync(folder, 0o700);
    for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) makeWritable(join(folder, entry.name));
  } catch {
    // What cannot be changed shows in the second try's error.
  }
}
