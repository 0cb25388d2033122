/**
 * Where the new session goes, decided once: `-o` (a file, or stdout), else beside the source or
 * in the target agent's folder, and how the agent will know the session's id (from the file's
 * name, or from its content). The one caller of the format's location for a new session; the
 * folders it creates to get there, and takes back when the write fails.
 */
import type { TempFiles } from "../io/temp-file.ts";
import { mkdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import {
  AgentError,
  errorMessage,
  type AgentHome,
  type NewSessionFile,
  type PathSegments,
  type ProjectPlace,
  type SessionFormat,
} from "../../core/index.ts";
import { joinSegments } from "./agent-home.ts";
import { rowsPlace } from "./session-rows.ts";
import { pathUnder } from "../io/real-paths.ts";
import { fileError } from "../io/fs-errors.ts";
import { OUT_TO_STDOUT } from "../flags/options.ts";
import { NAME_MAX_BYTES } from "../io/temp-file.ts";
import { checkNewFilePath, createFileAtomically } from "../io/write.ts";
import { register, registeredFolder, type Registration } from "./folder-registry.ts";

/**
 * How the target agent knows a session's id from its file: from the name (Claude Code's
 * `<uuid>.jsonl`, Codex's `rollout-<time>-<uuid>.jsonl`), or from the content, whatever the name
 * (pi, omp).
 */
export type IdNaming = { byName: true; nameNeeded: string } | { byName: false };

/**
 * Where the new session goes: stdout (`-o -`), the file `-o` names (with the id its name gives,
 * for an agent that reads the id there), or a folder known once the session's time is.
 */
export type NewSessionPlace =
  | { stdout: true }
  | { path: string; namedId: string | undefined; naming: IdNaming }
  | {
      folder: (timestamp: Date) => string;
      naming: IdNaming;
      /** The entry the target's folder registry needs for the session's folder, read when the session is written (see folder-registry.ts). */
      registration?: () => Registration | undefined;
    }
  /** A target whose sessions are rows in its database (opencode): the database, and the project of the cwd. */
  | { database: string; project: ProjectPlace };

/** How `format`'s agent knows a session's id from its file. */
export function idNamingOf(format: SessionFormat, home: AgentHome): IdNaming {
  const layout = format.location.sessionFiles(home);
  return layout.idInName ? { byName: true, nameNeeded: layout.nameWithId ?? "after its id" } : { byName: false };
}

/**
 * The id the file's name gives the session, for an agent that finds a session by its name
 * (Claude Code, Codex): undefined when the name is not one it resumes by; `sessionId` itself for
 * agents that open a file of any name.
 */
export function idNamedBy(format: SessionFormat, path: string, sessionId: string, home: AgentHome): string | undefined {
  const layout = format.location.sessionFiles(home);
  return layout.idInName ? layout.idInName(basename(path)) : sessionId;
}

/** The id a file's name gives, for an agent that names its files by id (Claude Code, Codex); else undefined. */
export function idInFileName(format: SessionFormat, path: string, home: AgentHome): string | undefined {
  return format.location.sessionFiles(home).idInName?.(basename(path));
}

/** The folder under which `format`'s agent keeps every session. */
export function sessionsRootOf(format: SessionFormat, home: AgentHome): string {
  return joinSegments(format.location.sessionsRoot(home));
}

/** A session file's path below its agent's sessions root (folders, then its name); undefined when it lies elsewhere. */
export function pathUnderSessionsRoot(format: SessionFormat, path: string, home: AgentHome): PathSegments | undefined {
  // The file may not be written yet (checked before the model is asked): its folder says where it will be.
  const folder = pathUnder(sessionsRootOf(format, home), dirname(path));
  return folder === undefined ? undefined : [...folder, basename(path)];
}

/**
 * Whether the agent's own scan of its sessions folder would take the file at `path` as session
 * `sessionId`: at its depth below the root, with a session's name carrying that id. Only such a
 * file gets a row in its index: an `-o` file elsewhere, or under another name, is one the agent does not list.
 */
export function listedByAgent(format: SessionFormat, path: string, sessionId: string, home: AgentHome): boolean {
  const under = pathUnderSessionsRoot(format, path, home);
  const layout = format.location.sessionFiles(home);
  if (under === undefined || under.length !== layout.folders + 1 || !layout.isSessionName(basename(path))) return false;
  return idNamedBy(format, path, sessionId, home) === sessionId;
}

/** Whether the agent opens a session file wherever it lies (pi, omp), so a new one may go beside its source. */
export function opensFilesAnywhere(format: SessionFormat): boolean {
  return !format.location.findsSessionsOnlyInItsFolder;
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

/** What decides the place: `-o` as typed (undefined when not given), and where the source is. */
export interface PlaceRequest extends DestinationInput {
  out: string | undefined;
}

/** Whether the new session goes beside its source: handed to its own agent, which opens a file anywhere. */
function besideSource(input: DestinationInput): boolean {
  return input.target.name === input.sourceFormat.name && opensFilesAnywhere(input.target);
}

/**
 * Where the new session goes, checked before the model is called: `-o` (a file that must not
 * exist yet, or stdout), else beside the source or in the target agent's folder (see
 * destinationFolder; a session without a cwd fails here when that folder is needed).
 */
export function newSessionPlace(request: PlaceRequest, now: Date): NewSessionPlace {
  const { out, ...destination } = request;
  const { target } = request;
  if (target.rows) return rowsPlace({ ...target, rows: target.rows }, request.home, request.cwd, out);
  if (out === OUT_TO_STDOUT) return { stdout: true };
  const naming = idNamingOf(request.target, request.home);
  if (out !== undefined) {
    const path = resolve(request.currentFolder, out);
    checkNewFilePath(path, out);
    // Claude Code and Codex resume a file by the id in its name: an -o name that carries one gives the session that id.
    const layout = request.target.location.sessionFiles(request.home);
    return { path, namedId: layout.idInName?.(basename(path)), naming };
  }
  destinationFolder(destination, now);
  const registers = destination.target.location.folderRegistry !== undefined && !besideSource(destination);
  // The registry's entry is read with the folder, before the folder is made (a folder that exists is a name taken).
  let pending: Registration | undefined;
  return {
    folder: (timestamp) => {
      if (registers) {
        const root = sessionsRootOf(destination.target, destination.home);
        pending = registeredFolder(destination.target, destination.home, destination.cwd ?? "", root)?.registration;
      }
      return destinationFolder(destination, timestamp);
    },
    naming,
    registration: registers ? () => pending : undefined,
  };
}

/**
 * The folder the new session goes in when `-o` does not say: beside the source when it stays
 * with its own agent and that agent opens a file anywhere (pi, omp; a stream: the current
 * folder), else the target agent's own folder for the source's cwd, where that agent looks for
 * it (Claude Code and Codex find a session by id only there). Pure: nothing is looked at on disk.
 */
export function destinationFolder(input: DestinationInput, timestamp: Date): string {
  if (besideSource(input)) return input.sourcePath === undefined ? input.currentFolder : dirname(input.sourcePath);
  if (input.cwd === undefined || input.cwd === "") {
    throw new AgentError(
      "USAGE",
      `the session records no working directory (or not an absolute one), so there is no ${input.target.label} folder for it; say where the new session goes with -o`,
    );
  }
  const registeredName = registeredFolder(input.target, input.home, input.cwd, sessionsRootOf(input.target, input.home))?.name;
  const place = {
    ...input.home,
    cwd: input.cwd,
    timestamp,
    // Only a format that files sessions by local date (Codex) reads it: the time zone's data loads on first use.
    get utcOffsetMinutes() {
      return -timestamp.getTimezoneOffset();
    },
    registeredFolder: registeredName,
  };
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
  const root = sessionsRootOf(target, home);
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

/** Writes the new session where it goes, creating the agent's folders it needs; nothing is left behind when it fails. */
export function writeNewSession(
  temps: TempFiles,
  newSession: NewSessionFile & { timestamp: Date },
  place: Exclude<NewSessionPlace, { stdout: true } | { database: string }>,
): string {
  const path = "path" in place ? place.path : join(place.folder(newSession.timestamp), newSession.fileName);
  let created: string | undefined;
  try {
    if ("folder" in place) created = createFolders(dirname(path));
    createFileAtomically(temps, path, newSession.content);
  } catch (error) {
    removeCreatedFolders(dirname(path), created);
    throw new AgentError("HANDOFF_FAILED", `could not write the new session: ${errorMessage(error)}`);
  }
  // The agent's registry names the folder only once the session is in it; if that fails, the session goes too.
  try {
    const registration = "folder" in place ? place.registration?.() : undefined;
    if (registration) register(temps, registration);
  } catch (error) {
    rmSync(path, { force: true });
    removeCreatedFolders(dirname(path), created);
    throw new AgentError("HANDOFF_FAILED", `could not write the new session: ${errorMessage(error)}`);
  }
  return path;
}
