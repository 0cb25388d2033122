import { accessSync, constants, mkdirSync, readdirSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import { AgentError } from "../../core/index.ts";
import { fileError, fsReason } from "../io/fs-errors.ts";
import { createFileAtomically, replaceIfUnchanged } from "../io/write.ts";
import { asField } from "../output/terminal.ts";
import type { Run } from "../run.ts";
import type { FileChange } from "./integration-files.ts";
import { hashOf, isMadeFolder, readMemory, writeMemory, type Memory, type StateFolders } from "./integration-memory.ts";

/**
 * Putting the changes `planChanges` made on disk: each checked first (a read-only file stops the
 * run before anything is written), a failure part way undone, and what was done remembered
 * (integration-memory.ts).
 */

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
