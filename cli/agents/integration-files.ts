import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  openSync,
  readSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmdirSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import {
  AgentError,
  IntegrationProblem,
  type AgentIntegration,
  type HookCommand,
  type IntegrateOptions,
  type IntegrationState,
} from "../../core/index.ts";
import { fileError, fsReason } from "../io/fs-errors.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { createFileAtomically, replaceIfUnchanged, type FileSnapshot } from "../io/write.ts";
import { asField } from "../output/terminal.ts";
import { agentHome, homeOf, joinSegments } from "../sessions/agent-home.ts";
import type { Env, Run } from "../run.ts";

/**
 * The files `agent integrate` writes into an agent's home, planned in full before anything is
 * written (a file that cannot be read, merged or written stops the run with nothing changed), and
 * what it remembers of them (`integrations.json`): each merged file's hash before and after, so
 * `--uninstall` gives back the very bytes there were, and leaves the user's later edits alone.
 */

/** One file's change: from `before` to `after` (undefined: no file). */
export interface FileChange {
  path: string;
  before: string | undefined;
  after: string | undefined;
  snapshot: FileSnapshot | undefined;
  /** Folders this change makes first (install). */
  folders: string[];
  /** A settings file of the agent's (its hashes are remembered), not one of ours. */
  merged: boolean;
}

/** What `integrations.json` holds for a merged file. */
interface Remembered {
  before: string;
  after: string;
}

/** A folder `integrate` made (the agent's home itself, `commands/`, `skills/handoff/`): `--uninstall` removes it once empty. */
interface MadeFolder {
  made: "folder";
}

type Memory = Record<string, Remembered | MadeFolder>;

function isMadeFolder(entry: Remembered | MadeFolder | undefined): entry is MadeFolder {
  return entry !== undefined && "made" in entry;
}

const NO_FILE = "none";

function hashOf(text: string | undefined): string {
  // Bun's own hasher: node:crypto would be loaded at every start (cli/scenarios/lazy-imports.test.ts).
  return text === undefined ? NO_FILE : `sha256:${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`;
}

/** `$XDG_STATE_HOME/agent/integrations.json`, else `~/.local/state/agent/integrations.json`. */
export function memoryPath(env: Env): string {
  const base = env.XDG_STATE_HOME;
  return join(base && isAbsolute(base) ? base : join(homeOf(env), ".local", "state"), "agent", "integrations.json");
}

function cannotRead(path: string) {
  return (reason: string) => new AgentError("FILE", `${asField(path)}: cannot be read: ${reason}`, { file: path });
}

const BOM = "\uFEFF";

/**
 * The file's text, with the byte-order mark it starts with (`BOM` or ""): UTF-8 decoding drops
 * the mark, and a merge must write it back, or the bytes outside our entry change and
 * `--uninstall` cannot give back the file as it was.
 */
function readIfThere(path: string): { text: string | undefined; bom: string; snapshot: FileSnapshot | undefined } {
  const text = readTextFile(path, cannotRead(path), MAX_TEXT_FILE_BYTES, "undefined");
  if (text === undefined) return { text, bom: "", snapshot: undefined };
  const { dev, ino, size, mtimeMs } = statSync(path);
  return { text, bom: startsWithBom(path) ? BOM : "", snapshot: { dev, ino, size, mtimeMs } };
}

function startsWithBom(path: string): boolean {
  const head = Buffer.alloc(3);
  const fd = openSync(path, "r");
  try {
    return readSync(fd, head, 0, 3, 0) === 3 && head.equals(Buffer.from([0xef, 0xbb, 0xbf]));
  } finally {
    closeSync(fd);
  }
}

function readMemory(env: Env): Memory {
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

/**
 * The file a symbolic link at `path` leads to (a settings file kept in a dotfiles folder): it is
 * changed there, and the link stays a link. `path` itself when it is not a link, or leads nowhere yet.
 */
function throughLink(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
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

function problemAt(path: string, error: unknown): never {
  if (error instanceof IntegrationProblem) {
    const line = error.line === undefined ? "" : `:${error.line}`;
    throw new AgentError("FILE", `${asField(path)}${line}: ${error.problem}; nothing was changed`, {
      file: path,
      ...(error.line === undefined ? {} : { line: error.line }),
    });
  }
  throw error;
}

/** What `integrate` (or `--uninstall`) would change for `integration`, read and merged, nothing written. */
export function planChanges(
  run: Run,
  integration: AgentIntegration,
  command: HookCommand,
  uninstall: boolean,
  options: IntegrateOptions = {},
): FileChange[] {
  const home = agentHome(run);
  const memory = readMemory(run.env);
  return integration.files(home, command, options).flatMap((file): FileChange[] => {
    const path = throughLink(joinSegments(file.path));
    const { text, bom, snapshot } = readIfThere(path);
    if (file.kind === "own") {
      const ours = text === undefined || text === file.text || text.includes(`agent integrate ${integration.name}\``);
      if (!ours)
        throw new AgentError(
          "FILE",
          `${asField(path)}: is not ours (not written by agent integrate); move it away first; nothing was changed`,
          {
            file: path,
          },
        );
      if (uninstall) return text === undefined ? [] : [{ path, before: text, after: undefined, snapshot, folders: [], merged: false }];
      return text === file.text ? [] : [{ path, before: text, after: file.text, snapshot, folders: missingFolders(path), merged: false }];
    }
    try {
      // The merge sees the text without its mark; the change (bytes written, hashes remembered) has it back.
      const withBom = (merged: string | undefined) => (merged === undefined ? undefined : bom + merged);
      if (uninstall) {
        if (text === undefined) return [];
        const remembered = memory[path];
        const known = isMadeFolder(remembered) ? undefined : remembered;
        const unchangedSince = known !== undefined && known.after === hashOf(withBom(text));
        const after = file.merge.remove(text, (candidate) => unchangedSince && hashOf(withBom(candidate)) === known.before);
        return after === text ? [] : [{ path, before: withBom(text), after: withBom(after), snapshot, folders: [], merged: true }];
      }
      const after = file.merge.add(text);
      return after === text
        ? []
        : [{ path, before: withBom(text), after: withBom(after), snapshot, folders: missingFolders(path), merged: true }];
    } catch (error) {
      return problemAt(path, error);
    }
  });
}

/**
 * A file that exists but may not be written: said before anything is written. A file without its
 * owner's write bit is read-only on purpose, whoever runs us (root may write it, but should not).
 */
function checkWritable(change: FileChange): void {
  if (change.before === undefined) return;
  try {
    if ((statSync(change.path).mode & 0o200) === 0) throw Object.assign(new Error("read-only"), { code: "EROFS_BIT" });
    accessSync(change.path, constants.W_OK);
  } catch (error) {
    const why = (error as { code?: string }).code === "EROFS_BIT" ? "it is read-only" : fsReason(error);
    throw new AgentError("FILE", `${asField(change.path)}: cannot be changed: ${why}; nothing was changed`, { file: change.path });
  }
}

/** Puts one change on disk. */
function write(run: Run, change: FileChange): void {
  if (change.after !== undefined) for (const folder of [...change.folders].reverse()) mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    if (change.after === undefined) unlinkSync(change.path);
    else if (change.before === undefined || change.snapshot === undefined) createFileAtomically(run.temps, change.path, change.after);
    else if (!replaceIfUnchanged(run.temps, change.path, change.after, change.snapshot))
      throw new AgentError("FILE", `${asField(change.path)}: changed while agent integrate read it; run it again`, { file: change.path });
  } catch (error) {
    throw error instanceof AgentError ? error : fileError(change.path, error);
  }
}

/** Undoes changes already made, last first, as far as it can: a failure part way leaves the files as they were. */
function undo(run: Run, made: readonly FileChange[]): void {
  for (const change of [...made].reverse()) {
    try {
      if (change.after !== undefined) unlinkSync(change.path);
      if (change.before !== undefined) {
        for (const folder of [...change.folders].reverse())
          if (change.after === undefined) mkdirSync(folder, { recursive: true, mode: 0o700 });
        createFileAtomically(run.temps, change.path, change.before);
      } else for (const folder of change.folders) rmdirSync(folder);
    } catch {
      // The error that stopped the run is the one to report.
    }
  }
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
 * Writes every change, after checking each can be made (a read-only file stops the run before
 * anything is written; a failure part way undoes what was written); remembers the merged files' hashes.
 */
export function applyChanges(run: Run, changes: readonly FileChange[], uninstall: boolean, state?: StateFolders): void {
  if (changes.length === 0) return;
  for (const change of changes) checkWritable(change);
  const memory = readMemory(run.env);
  const made: FileChange[] = [];
  try {
    for (const change of changes) {
      write(run, change);
      made.push(change);
    }
  } catch (error) {
    undo(run, made);
    throw error;
  }
  for (const change of changes) for (const folder of change.after === undefined ? [] : change.folders) memory[folder] = { made: "folder" };
  if (uninstall) removeMadeFolders(changes, memory);
  for (const change of changes) {
    if (!change.merged) continue;
    const remembered = memory[change.path];
    const known = isMadeFolder(remembered) ? undefined : remembered;
    if (uninstall) delete memory[change.path];
    // Updating our entry keeps the hash from before the first install, unless the file changed in between.
    else
      memory[change.path] = {
        before: known?.after === hashOf(change.before) ? known.before : hashOf(change.before),
        after: hashOf(change.after),
      };
  }
  writeMemory(run, memory, state);
}

/** The folders `integrate` made above the files just removed, deepest first, each once it is empty (a folder the user has filled since stays). */
function removeMadeFolders(changes: readonly FileChange[], memory: Memory): void {
  const above = new Set<string>();
  for (const change of changes) for (let dir = dirname(change.path); dirname(dir) !== dir; dir = dirname(dir)) above.add(dir);
  const made = [...above].filter((dir) => isMadeFolder(memory[dir])).sort((a, b) => b.length - a.length);
  for (const dir of made) {
    try {
      if (readdirSync(dir).length > 0) continue;
      rmdirSync(dir);
    } catch {
      // Gone already, or not ours to remove now.
    }
    delete memory[dir];
  }
}

/**
 * Writes the memory, or removes it once nothing is left in it: then also the folders above it
 * that an earlier write made (`~/.local/state/agent`, and `state`, `.local` when they were not
 * there either), each once it is empty (after the lock is gone, when `state` says a lock is held).
 * A folder that was there first is never removed.
 */
function writeMemory(run: Run, memory: Memory, state?: StateFolders): void {
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

/** Each file's state, for `--status`: what is there now against what `integrate` would write. */
export function integrationState(
  run: Run,
  integration: AgentIntegration,
  command: HookCommand,
  options: IntegrateOptions = {},
): { path: string; state: IntegrationState }[] {
  const home = agentHome(run);
  return integration.files(home, command, options).map((file) => {
    const path = joinSegments(file.path);
    let text: string | undefined;
    try {
      text = readIfThere(path).text;
    } catch {
      return { path, state: "unreadable" } as const;
    }
    if (file.kind === "own") return { path, state: text === undefined ? "absent" : text === file.text ? "current" : "outdated" } as const;
    return { path, state: file.merge.state(text) };
  });
}

/** What an earlier `integrate` installed for `integration` besides `/handoff` (the offer, …), as its files say; a file that cannot be read says nothing. */
export function installedOptions(run: Run, integration: AgentIntegration): IntegrateOptions {
  return integration.installedOptions((segments) => {
    const path = joinSegments(segments);
    try {
      return readIfThere(path).text;
    } catch {
      return undefined;
    }
  }, agentHome(run));
}
