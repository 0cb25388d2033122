/**
 * The folder-registry port: for an agent that names the folder of each cwd in a file of its own
 * (core's `FolderRegistry`, Gemini CLI's `projects.json`), the folder a new session goes in is
 * the one that file names; when the file names none for the cwd, the entry the agent would add
 * is added after the session is written, atomically, and only when the file has not changed
 * since it was read (nothing else in it is touched). While the agent holds its lock on the file
 * (`<file>.lock`, a folder), the write waits up to 2 s.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { AgentError, type AgentHome, type RegisteredFolder, type SessionFormat } from "../../core/index.ts";
import { joinSegments } from "./agent-home.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import type { TempFiles } from "../io/temp-file.ts";
import { createFileAtomically, replaceIfUnchanged, type FileSnapshot } from "../io/write.ts";

/** How long the agent's lock on its registry is waited for. */
const LOCK_WAIT_MS = 2000;

/** The entry to add once the session is written: the registry's new text, and the file as it was read. */
export interface Registration {
  path: string;
  label: string;
  newText: string;
  /** Undefined: there was no file. */
  snapshot: FileSnapshot | undefined;
}

/** The folder's marker, trimmed: the path it names; undefined when there is none or it cannot be read. */
function ownerOf(folder: string, marker: string): string | undefined {
  try {
    return readFileSync(join(folder, marker), "utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * The path the marker of the project folder a session file lies in names, for an agent with a
 * folder registry (Gemini's `<root>/<project>/chats/<file>` → `<root>/<project>/.project_root`);
 * undefined for other agents, and when there is no marker.
 */
export function folderOwnerOf(format: SessionFormat, path: string): string | undefined {
  const registry = format.location.folderRegistry;
  if (registry === undefined) return undefined;
  let folder = path;
  for (let level = 0; level < registry.markerLevels; level++) folder = dirname(folder);
  return ownerOf(folder, registry.markerFile) || undefined;
}

/** Folders already under the sessions root, with the path each one's marker names. */
function foldersUnder(root: string, marker: string): RegisteredFolder[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => ({ name: e.name, owner: ownerOf(join(root, e.name), marker) }));
  } catch {
    return [];
  }
}

/** The folder the registry names for `cwd` (and the entry to add, if it has none); undefined for an agent without one. */
export function registeredFolder(
  target: SessionFormat,
  home: AgentHome,
  cwd: string,
  /** The target's sessions root, where the folders other cwds hold are. */
  root: string,
): { name: string; registration?: Registration } | undefined {
  const registry = target.location.folderRegistry;
  if (registry === undefined) return undefined;
  const path = joinSegments(registry.file(home));
  const text = readTextFile(
    path,
    (reason) => new AgentError("FILE", `${path}: cannot read ${registry.label}: ${reason}`, { file: path }),
    MAX_TEXT_FILE_BYTES,
    "undefined",
  );
  const snapshot = text === undefined ? undefined : statSync(path);
  let found: { name: string; newText?: string };
  try {
    found = registry.folderFor(text, cwd, foldersUnder(root, registry.markerFile));
  } catch (error) {
    if (error instanceof AgentError) throw new AgentError(error.code, `${path}: ${error.message.replace(/^[^:]*: /, "")}`, { file: path });
    throw error;
  }
  if (found.newText === undefined) return { name: found.name };
  return { name: found.name, registration: { path, label: registry.label, newText: found.newText, snapshot } };
}

/** Adds the entry, as the agent would; refuses (the caller removes the session) when the file changed since it was read. */
export function register(temps: TempFiles, registration: Registration): void {
  const { path, label, newText, snapshot } = registration;
  const lock = `${path}.lock`;
  for (const started = Date.now(); existsSync(lock); Bun.sleepSync(50))
    if (Date.now() - started > LOCK_WAIT_MS)
      throw new AgentError("FILE", `${path}: ${label} stayed locked (${lock}) for ${LOCK_WAIT_MS / 1000} s; nothing was written`, {
        file: path,
      });
  if (snapshot === undefined) {
    createFileAtomically(temps, path, newText);
    return;
  }
  if (!replaceIfUnchanged(temps, path, newText, snapshot))
    throw new AgentError("FILE", `${path}: ${label} changed while the handoff ran; nothing was written, run it again`, { file: path });
}
