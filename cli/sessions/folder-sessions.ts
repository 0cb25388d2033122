/**
 * The session files directly in a folder a user named (an agent's folder for one project, a
 * folder of saved sessions), of the agents in scope, newest first: what `agent handoff <folder>`,
 * `agent inspect <folder>` and `agent ls <folder>` take before the sessions that worked there.
 */
import { lstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { AgentError, detectFormat, type AgentHome, type SessionFormat } from "../../core/index.ts";
import { withoutContinuedSessions } from "./discover.ts";
import { changedAt, type FoundSession, type Unreadable, type Warn } from "./found-session.ts";
import { folderOwnerOf } from "./folder-registry.ts";
import { readFileEnds } from "./glance-file.ts";
import { asField } from "../output/terminal.ts";
import { fsReason, isMissing } from "../io/fs-errors.ts";

/** JSON Lines (a Codex rollout compressed too), and one JSON object (Gemini CLI's sessions from before JSON Lines). */
const SESSION_FILE_NAME = /\.(?:jsonl(?:\.zst)?|json)$/;

/** What a word given as a session or a folder names on disk. */
export function whatIsAt(path: string): "folder" | "file" | "nothing" {
  try {
    lstatSync(path);
  } catch (error) {
    // Anything but "not there" (a folder we may not enter): a path, for reading it to say what is wrong.
    return isMissing(error) ? "nothing" : "file";
  }
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return "file";
  }
}

/** What `folder` holds directly; a folder that cannot be listed is an error naming it. */
export function sessionFilesIn(
  home: AgentHome,
  folder: string,
  formats: readonly SessionFormat[],
  warn: Warn,
): { sessions: FoundSession[]; unreadable: Unreadable[] } {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    throw new AgentError("FILE", `${folder}: cannot read this folder (${fsReason(error)})`, { file: folder });
  }
  const sessions: FoundSession[] = [];
  const unreadable: Unreadable[] = [];
  for (const name of names.filter((n) => SESSION_FILE_NAME.test(n))) {
    const path = join(folder, name);
    try {
      const found = glanceAny(path, formats, (reason) => {
        warn(`${asField(path)}: ${reason}; not read as a session (name its path to read it whole)`);
        unreadable.push({ path, folder: false, mtimeMs: changedAt(path), reason });
      });
      // A thread the agent ran for itself is no session of the user's (see SessionGlance.agentThread).
      if (found !== undefined && found.glance.agentThread === undefined) sessions.push(found);
    } catch (error) {
      warn(`${asField(path)}: cannot read this file (${fsReason(error)}); left out`);
      unreadable.push({ path, folder: false, mtimeMs: changedAt(path), reason: fsReason(error) });
    }
  }
  // A file its agent went on from in another beside it (Gemini's `.json` copied into `.jsonl`) is an earlier copy.
  const kept = withoutContinuedSessions(home, sessions);
  kept.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { sessions: kept, unreadable };
}

/**
 * The file as the format its first lines name sees it, when that format is in scope; a file whose
 * first line was given up on cannot say whose it is, and is told to `gaveUp` (why, in words).
 */
function glanceAny(path: string, formats: readonly SessionFormat[], gaveUp: (reason: string) => void): FoundSession | undefined {
  const ends = readFileEnds(path);
  if (ends?.firstLineGivenUp === true && ends.note !== undefined) gaveUp(ends.note.split(";")[0] ?? ends.note);
  // A first line given up on leaves the last lines to say whose file it is (Claude Code's repeat who and where on every line).
  const format = ends && detectFormat(ends.firstLineGivenUp === true ? ends.tail : ends.head);
  if (ends === undefined || format === undefined || !formats.includes(format)) return undefined;
  const glance = format.glance({
    head: ends.head,
    tail: ends.tail,
    fileName: basename(path),
    folderName: basename(dirname(path)),
    folderOwner: folderOwnerOf(format, path),
  });
  return glance && { format, path, bytes: ends.bytes, textBytes: ends.textBytes, mtimeMs: ends.mtimeMs, glance };
}
