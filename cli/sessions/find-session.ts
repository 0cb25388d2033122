/**
 * The one resolver of the session a command is about (`agent handoff`, `agent inspect`): every
 * such command takes the same selectors (cli/flags/handoff-source.ts reads them from its flags).
 * - a word given as the session: a path when a file or folder is there (`-`: stdin), otherwise
 *   an id or the start of one;
 * - `--session <id or start>`;
 * - `--agent`, narrowing any search;
 * - nothing: the newest session of the current folder.
 * A file is taken as it is (reading it says what is wrong with it); anything else is searched
 * for, and stderr names the file found. The newest is the newest with work in it (see
 * newest-session.ts), and anything newer that could not be read is named.
 */
import type { Run } from "../run.ts";
import { GoneCwdError } from "../output/stderr.ts";
import { errorCode } from "../io/fs-errors.ts";
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { ConsolaInstance } from "consola/core";
import { countOf, FILE_FORMATS, FORMATS, formatNamed, type AgentHome, type AgentName, type SessionFormat } from "../../core/index.ts";
import { agentHome, joinSegments } from "./agent-home.ts";
import { realOrNothing } from "../io/real-paths.ts";
import { nameOfFound, type FoundSession, type Unreadable } from "./found-session.ts";
import { whatIsAt } from "./folder-sessions.ts";
import type { SessionSource } from "../flags/handoff-source.ts";
import { describeAge } from "../output/ages-and-folders.ts";
import { nearestParentWithSessions } from "./nearest-sessions.ts";
import { chooseNewest, type NewestChoice } from "./newest-session.ts";
import { describeUnreadable, noneFound, noSession } from "./none-found.ts";
import { sessionsOfFolder } from "./recent-sessions.ts";
import { sessionById } from "./session-by-id.ts";
import type { RowSessionRef } from "./session-rows.ts";
import { asField } from "../output/terminal.ts";
import { CommandLineError } from "../flags/usage.ts";

/**
 * The agents in scope: the one `--agent` names, or all; all whose sessions are files unless
 * `rows` (the commands that read a session kept as rows by its id: handoff, inspect, ls).
 */
export function formatsFor(agent: AgentName | undefined, rows = false): readonly SessionFormat[] {
  return agent === undefined ? (rows ? FORMATS : FILE_FORMATS) : [formatNamed(agent)];
}

/** What a command reads: a session file's path, or a session kept as rows of its agent's database. */
export type SessionRef = string | RowSessionRef;

/** A database of sessions kept as rows (opencode's), given as a session file: its sessions are named by id instead. */
function refuseRowsDatabase(path: string, cwd: string, home: AgentHome): void {
  const real = realOrNothing(resolve(cwd, path));
  if (real === undefined) return;
  for (const format of FORMATS) {
    const segments = format.rows?.database(home);
    if (segments === undefined || realOrNothing(joinSegments(segments)) !== real) continue;
    throw new CommandLineError(
      `${asField(path)} is ${format.rows?.label}, which holds many sessions: name one by its id (agent ls --agent ${format.name} lists them)`,
    );
  }
}

/** The file found, or the session in its agent's database. */
export function refOf(found: FoundSession): SessionRef {
  const { format, rowId } = found;
  if (rowId === undefined || format.rows === undefined) return found.path;
  return { database: found.path, format: { ...format, rows: format.rows }, id: rowId };
}

/** The current folder as the agents record it: its real path, and `$PWD` when that names it through a link. */
export function currentFolder(run: { env: Readonly<Record<string, string | undefined>>; cwd: string }): { cwd: string; aliases: string[] } {
  const { env } = run;
  let cwd: string;
  try {
    cwd = realpathSync(run.cwd);
  } catch (error) {
    if (errorCode(error) === "ENOENT") throw new GoneCwdError(run.cwd);
    throw error;
  }
  const pwd = env.PWD;
  let aliases: string[] = [];
  try {
    if (pwd && pwd !== cwd && realpathSync(pwd) === cwd) aliases = [pwd];
  } catch {
    // $PWD names nothing: it is not this folder.
  }
  return { cwd, aliases };
}

/** Whether a word that names nothing on disk is taken for an id: one made of what ids are made of (every agent's are; no path separator). */
function mayBeId(word: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(word);
}

/** How a session file's name ends (`.jsonl`, `.jsonl.zst`; `.json` as a slip of the keyboard): such a word names a file, there or not. */
const SESSION_NAME = /\.jsonl?(?:\.zst)?$/i;

function describeSession(found: FoundSession, now: number): string {
  return `${found.format.label} session ${asField(found.glance.id)}, updated ${describeAge(found.mtimeMs, now)}`;
}

/**
 * The path of the session a command is about; a session found by searching is named on stderr,
 * after `verb` (what the command does with it: `Handing off`, `Inspecting`).
 */
export function findSession(run: Run, source: SessionSource, verb: string, logger: ConsolaInstance): SessionRef {
  const formats = formatsFor(source.agent, true);
  const home = agentHome(run);
  const warn = (line: string) => logger.debug(line);
  const path = source.sessionPath;
  const now = Date.now();
  // A word named like a session file is one, even a folder or nothing: reading it says what is wrong.
  const at = path === undefined || path === "-" ? undefined : SESSION_NAME.test(path) ? "file" : whatIsAt(resolve(run.cwd, path));
  if (path !== undefined && at === "nothing" && mayBeId(path)) {
    const found = sessionById(path, { flag: false }, formats, home, warn);
    logger.info(`${verb} the ${describeSession(found, now)}: ${asField(found.path)}`);
    return refOf(found);
  }
  if (path !== undefined && at !== "folder") {
    refuseRowsDatabase(path, run.cwd, home);
    if (source.agent !== undefined)
      throw new CommandLineError(
        `--agent picks among the sessions found on this machine, and ${path} names one file; leave out one of them`,
      );
    return path;
  }
  if (source.sessionId !== undefined) {
    const found = sessionById(source.sessionId, { flag: true }, formats, home, warn);
    logger.info(`${verb} the ${describeSession(found, now)}: ${asField(found.path)}`);
    return refOf(found);
  }
  const folder =
    path === undefined ? currentFolder(run) : { cwd: realpathSync(resolve(run.cwd, path)), aliases: [], named: resolve(run.cwd, path) };
  const found = sessionsOfFolder(home, formats, folder, warn, true);
  const choice = chooseNewest(found.sessions, found.unreadable);
  // Session files in the folder named: the newest of them, said to be from there.
  const pick = announce(choice, logger, { verb, where: found.worked === undefined ? `, in ${asField(path ?? "")}` : "", now });
  if (pick !== undefined) return refOf(pick);
  if (found.worked === undefined)
    throw noneFound(`no session file in ${asField(path ?? "")} holds work to hand off`, found.lookedIn, nothingChosen(choice));
  const nearest = found.sessions.length === 0 ? nearestParentWithSessions(home, formats, folder.cwd, warn) : undefined;
  const withWork = choice.passedOver.length > 0 ? " with work to hand off" : "";
  throw noneFound(`${noSession(formats)}${withWork} worked in ${asField(folder.cwd)}`, found.lookedIn, [
    ...nothingChosen(choice),
    nearest && `the nearest are in a parent folder: ${countOf(nearest.count, "session")} worked in ${asField(nearest.folder)}`,
  ]);
}

/**
 * Says what the choice took, what it passed over (at `-v`) and what newer it could not read
 * (a warning: the session taken may not be the one the user means); returns the pick.
 */
function announce(
  choice: NewestChoice,
  logger: ConsolaInstance,
  said: { verb: string; where: string; now: number },
): FoundSession | undefined {
  const { pick, passedOver } = choice;
  for (const { found, ours } of passedOver)
    logger.debug(
      `passed over ${nameOfFound(found)}: a handoff session${ours.source === undefined ? "" : ` written from ${asField(ours.source)}`}, with nothing after the document yet`,
    );
  if (pick === undefined) return undefined;
  // A few are named; a thousand broken rollouts are one line more, not a thousand (-v names each).
  const named = choice.newerUnreadable.slice(0, MAX_NEWER_NAMED);
  for (const unreadable of named) logger.warn(describeNewerUnreadable(unreadable));
  const more = choice.newerUnreadable.length - named.length;
  if (more > 0)
    logger.warn(
      `and ${countOf(more, "more file or folder", "more files or folders")} newer than the session chosen could not be read (-v names them)`,
    );
  logger.info(
    `${said.verb} the newest ${describeSession(pick, said.now)}${said.where}: ${asField(pick.path)}${describePassedOver(choice, pick)}`,
  );
  return pick;
}

/** How many newer files that could not be read are named at normal verbosity. */
const MAX_NEWER_NAMED = 3;

function describeNewerUnreadable(unreadable: Unreadable): string {
  return unreadable.folder
    ? `${asField(unreadable.path)} cannot be read (${unreadable.reason}): the sessions in it are left out, and one may be newer than the session chosen`
    : `${asField(unreadable.path)} is newer than the session chosen, but cannot be read (${unreadable.reason}): left out`;
}

/** ` (the newer session <id> is a handoff session written from it, …)`: the newest of the folder, when it was ours. */
function describePassedOver(choice: NewestChoice, pick: FoundSession): string {
  const [newest] = choice.passedOver;
  if (newest === undefined) return "";
  const source = newest.ours.source;
  const from = source === undefined ? "" : ` written from ${sameFile(source, pick.path) ? "it" : asField(source)}`;
  const count = choice.passedOver.length;
  const id = asField(newest.found.glance.id);
  return count === 1
    ? ` (the newer session ${id} is a handoff session${from}, with nothing after the document yet)`
    : ` (the ${count} newer sessions are handoff sessions with nothing after the document yet${from === "" ? "" : `; the newest, ${id}, was${from}`})`;
}

/** Why nothing was chosen, beyond there being no session: our handoff sessions, files we could not read. */
function nothingChosen(choice: NewestChoice): (string | undefined)[] {
  const [newest] = choice.passedOver;
  const ours =
    newest &&
    `${choice.passedOver.length === 1 ? "the one there is a handoff session" : `the ${choice.passedOver.length} there are handoff sessions`} with nothing after the document yet (the newest, ${asField(newest.found.glance.id)}, ${newest.ours.source === undefined ? "agent handoff wrote" : `was written from ${asField(newest.ours.source)}`})`;
  return [ours, describeUnreadable(choice.newerUnreadable)];
}

function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
