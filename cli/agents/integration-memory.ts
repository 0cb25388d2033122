import { mkdirSync, readdirSync, rmdirSync, lstatSync, unlinkSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { AgentError } from "../../core/index.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { createFileAtomically } from "../io/write.ts";
import { asField } from "../output/terminal.ts";
import { homeOf } from "../sessions/agent-home.ts";
import type { Env, Run } from "../run.ts";

/**
 * What `agent integrate` remembers of what it did (`integrations.json` in our state folder): each
 * merged file's hash before and after, so `--uninstall` gives back the very bytes there were and
 * leaves the user's later edits alone, and the folders it made, removed again once empty.
 */

/** What `integrations.json` holds for a merged file. */
interface Remembered {
  before: string;
  after: string;
}

/** A folder `integrate` made (the agent's home itself, `commands/`, `skills/handoff/`): `--uninstall` removes it once empty. */
interface MadeFolder {
  made: "folder";
}

export type Memory = Record<string, Remembered | MadeFolder>;

export function isMadeFolder(entry: Remembered | MadeFolder | undefined): entry is MadeFolder {
  return entry !== undefined && "made" in entry;
}

const NO_FILE = "none";

export function hashOf(text: string | undefined): string {
  // Bun's own hasher: node:crypto would be loaded at every start (cli/scenarios/lazy-imports.test.ts).
  return text === undefined ? NO_FILE : `sha256:${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`;
}

/** `$XDG_STATE_HOME/agent/integrations.json`, else `~/.local/state/agent/integrations.json`. */
export function memoryPath(env: Env): string {
  const base = env.XDG_STATE_HOME;
  return join(base && isAbsolute(base) ? base : join(homeOf(env), ".local", "state"), "agent", "integrations.json");
}

/** The error for a file that cannot be read (it names the file). */
export function cannotRead(path: string) {
  return (reason: string) => new AgentError("FILE", `${asField(path)}: cannot be read: ${reason}`, { file: path });
}

export function readMemory(env: Env): Memory {
  const path = memoryPath(env);
  try {
    const text = readTextFile(path, cannotRead(path), MAX_TEXT_FILE_BYTES, "undefined");
    const value: unknown = text === undefined ? {} : JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Memory) : {};
  } catch {
    // Lost or damaged: uninstall then takes out our entries only.
    return {};
  }
}

/** The folders from `path`'s up that do not exist yet, outermost last. */
export function missingFolders(path: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      lstatSync(dir);
      break;
    } catch {
      missing.push(dir);
    }
  }
  return missing;
}

/**
 * What a run holding the lock of our state folder (cli/agents/integration-lock.ts) knows of it:
 * the folders it made for the lock, remembered as ours when the memory is written, and the
 * folders to remove once the lock is gone, when the memory was emptied.
 */
export interface StateFolders {
  made: readonly string[];
  toRemove: string[];
}

/**
 * Writes the memory, or removes it once nothing is left in it: then also the folders above it
 * that an earlier write made (`~/.local/state/agent`, and `state`, `.local` when they were not
 * there either), each once it is empty (after the lock is gone, when `state` says a lock is held).
 * A folder that was there first is never removed.
 */
export function writeMemory(run: Run, memory: Memory, state?: StateFolders): void {
  const path = memoryPath(run.env);
  const own = (folder: string) => path.startsWith(`${folder}/`);
  const stateFolders = Object.keys(memory).filter((key) => own(key) && isMadeFolder(memory[key]));
  try {
    unlinkSync(path);
  } catch {
    // None yet.
  }
  if (Object.keys(memory).every(own)) {
    if (state === undefined) removeEmptyFolders(stateFolders);
    else state.toRemove.push(...stateFolders, ...state.made);
    return;
  }
  for (const folder of [...missingFolders(path), ...(state?.made ?? [])]) memory[folder] = { made: "folder" };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  createFileAtomically(run.temps, path, `${JSON.stringify(memory, null, 2)}\n`);
}

/** Removes each folder that is empty, deepest first; one that is not empty keeps those above it. */
export function removeEmptyFolders(folders: readonly string[]): void {
  for (const folder of [...new Set(folders)].sort((a, b) => b.length - a.length)) {
    try {
      if (readdirSync(folder).length > 0) break;
      rmdirSync(folder);
    } catch {
      // Gone already, or not ours to remove now.
    }
  }
}
