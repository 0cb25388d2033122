import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ConsolaInstance } from "consola/core";
import { AgentError, type AgentEngine } from "../core/index.ts";
import { killRunningAgents } from "./agent-process.ts";

/**
 * The folders agent runs work in, under TMPDIR: made per run, removed when it ends, and removed
 * too when we end at once (a second Ctrl-C exits without unwinding), after the agents are gone.
 */
const live = new Set<string>();
let exitHookInstalled = false;

function removeAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    killRunningAgents();
    for (const root of live) tryRemove(root);
  });
}

/** A new, empty folder of our own under TMPDIR; one we cannot make is a failure of the run, said plainly. */
export function makeScratchFolder(engine: AgentEngine): string {
  // Absolute: the agent runs in a folder inside it and gets paths into it (a relative TMPDIR
  // would name folders that do not exist from there).
  const parent = resolve(tmpdir());
  try {
    const root = mkdtempSync(join(parent, `agent-handoff-${engine.name}-`));
    live.add(root);
    removeAllOnExit();
    return root;
  } catch (error) {
    throw new AgentError(
      "HANDOFF_FAILED",
      `cannot make a folder for ${engine.command} to run in under ${parent} (${codeOf(error)}); set TMPDIR to a folder you can write`,
    );
  }
}

/**
 * Removes a run's folder. A folder the agent left read-only is made writable and tried again;
 * one that still cannot go (an immutable file) is a warning naming it, never a failure of a
 * run that gave its answer, and never in place of the agent's own error.
 */
export function removeScratchFolder(root: string, logger: ConsolaInstance): void {
  live.delete(root);
  const error = tryRemove(root);
  if (error !== undefined) logger.warn(`could not remove ${root}, the folder the agent ran in (${codeOf(error)}); remove it yourself`);
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

function codeOf(error: unknown): string {
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.code;
  return error instanceof Error ? error.message : String(error);
}
