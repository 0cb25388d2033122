/**
 * The session file `agent handoff` hands off when it was not named by a file path: the newest
 * session of the current folder, of a folder given as the argument, or the one with an id
 * (`--session`). Messages say which file was chosen and, when none was, where we looked.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConsolaInstance } from "consola/core";
import {
  AgentError,
  describeFormats,
  detectFormat,
  FORMATS,
  formatNamed,
  type AgentHome,
  type AgentName,
  type SessionFormat,
} from "../core/index.ts";
import { agentHome } from "./agent-home.ts";
import { discoverSessions, type Discovery, type FoundSession } from "./discover.ts";
import { readFileEnds } from "./glance-file.ts";
import type { SessionSource } from "./handoff-source.ts";
import { describeAge } from "./ls-render.ts";
import { asField } from "./terminal.ts";

/** How many matches an ambiguous id lists before saying how many more there are. */
const MAX_LISTED = 20;

/** The agents in scope: the one `--agent` names, or all. */
export function formatsFor(agent: AgentName | undefined): readonly SessionFormat[] {
  return agent === undefined ? FORMATS : [formatNamed(agent)];
}

/** `no pi session`, `no session of pi, omp, Claude Code or Codex`. */
function noSession(formats: readonly SessionFormat[]): string {
  return formats.length === 1 ? `no ${formats[0]?.label} session` : `no session of ${describeFormats()}`;
}

/** The current folder as the agents record it: its real path, and `$PWD` when that names it through a link. */
export function currentFolder(env: Readonly<Record<string, string | undefined>> = process.env): { cwd: string; aliases: string[] } {
  const cwd = realpathSync(process.cwd());
  const pwd = env.PWD;
  let aliases: string[] = [];
  try {
    if (pwd && pwd !== cwd && realpathSync(pwd) === cwd) aliases = [pwd];
  } catch {
    // $PWD names nothing: it is not this folder.
  }
  return { cwd, aliases };
}

function describeSession(found: FoundSession, now: number): string {
  return `${found.format.label} session ${asField(found.glance.id)}, updated ${describeAge(found.mtimeMs, now)}`;
}

/** The newest session that recorded `folder` as its cwd. */
function newestFor(
  folder: { cwd: string; aliases: string[] },
  formats: readonly SessionFormat[],
  home: AgentHome,
  logger: ConsolaInstance,
): FoundSession {
  const found = discoverSessions(home, { formats, cwd: folder.cwd, cwdAliases: folder.aliases }, (line) => logger.debug(line));
  const newest = found.sessions[0];
  if (newest === undefined) throw noneFound(`${noSession(formats)} worked in ${folder.cwd}`, found);
  return newest;
}

function noneFound(what: string, found: Discovery): AgentError {
  return new AgentError(
    "USAGE",
    `${what} (looked in ${found.lookedIn.join(", ")}); name a session file or use --session <id> (agent ls --all lists them)`,
  );
}

/** The sessions whose id is `wanted`, or starts with it (any case); an exact match wins over longer ones. */
export function matchingId(sessions: readonly FoundSession[], wanted: string): FoundSession[] {
  const lower = wanted.toLowerCase();
  const exact = sessions.filter((s) => s.glance.id.toLowerCase() === lower);
  return exact.length > 0 ? exact : sessions.filter((s) => s.glance.id.toLowerCase().startsWith(lower));
}

function byId(wanted: string, formats: readonly SessionFormat[], home: AgentHome, logger: ConsolaInstance): FoundSession {
  const found = discoverSessions(home, { formats }, (line) => logger.debug(line));
  const matches = matchingId(found.sessions, wanted);
  const [only, ...others] = matches;
  if (only === undefined) {
    // The id may be a thread the agent ran for itself: say what it is, not that nothing has the id.
    const [thread] = matchingId(found.agentThreads, wanted);
    if (thread !== undefined)
      throw new AgentError(
        "USAGE",
        `--session ${wanted}: ${thread.format.label} ${asField(thread.glance.id)} is ${asField(thread.glance.agentThread ?? "")}, not a session the user worked in; hand off the session it belongs to, or name its file: ${asField(thread.path)}`,
      );
    throw noneFound(`${noSession(formats)} has an id starting with ${wanted}`, found);
  }
  if (others.length === 0) return only;
  const width = Math.max(...matches.map((s) => s.format.name.length));
  const listed = matches.slice(0, MAX_LISTED).map((s) => `\n  ${s.format.name.padEnd(width)}  ${asField(s.glance.id)}  ${asField(s.path)}`);
  const more = matches.length > MAX_LISTED ? `\n  … and ${matches.length - MAX_LISTED} more` : "";
  // A copied file keeps its id: more of the id cannot tell the copies apart, their paths can.
  const sameId = matches.every((s) => s.glance.id.toLowerCase() === only.glance.id.toLowerCase());
  const ask = sameId
    ? `is the id of ${matches.length} session files; name the one to hand off by its path:`
    : `matches ${matches.length} sessions; give more of the id:`;
  throw new AgentError("USAGE", `--session ${wanted} ${ask}${listed.join("")}${more}`);
}

/**
 * The newest session file directly in `folder` (a folder of session files, such as an agent's
 * folder for one project), of the agents in scope; undefined when it holds none.
 */
function newestFileIn(folder: string, formats: readonly SessionFormat[], logger: ConsolaInstance): string | undefined {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    throw new AgentError("FILE", `${folder}: cannot read this folder (${error instanceof Error ? error.message : String(error)})`, {
      file: folder,
    });
  }
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const name of names.filter((n) => /\.jsonl(?:\.zst)?$/.test(n))) {
    const path = join(folder, name);
    try {
      const ends = readFileEnds(path);
      const format = ends && detectFormat(ends.head);
      const glance =
        ends && format && formats.includes(format) ? format.glance({ head: ends.head, tail: ends.tail, fileName: name }) : undefined;
      // A thread the agent ran for itself is no session of the user's (see SessionGlance.agentThread).
      if (!ends || glance === undefined || glance.agentThread !== undefined) continue;
      if (!newest || ends.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: ends.mtimeMs };
    } catch (error) {
      logger.debug(`${asField(path)}: cannot read this file (${error instanceof Error ? error.message : String(error)}); left out`);
    }
  }
  return newest?.path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The path of the session to hand off. A file path (or `-`) is taken as it is (reading it says
 * what is wrong with it); anything else is searched for, and the file found is named on stderr.
 */
export function findSessionToHandOff(source: SessionSource, logger: ConsolaInstance): string {
  const formats = formatsFor(source.agent);
  const home = agentHome();
  const path = source.sessionPath;
  if (path !== undefined && (path === "-" || !isFolder(path))) {
    if (source.agent !== undefined)
      throw new AgentError(
        "USAGE",
        `--agent picks among the sessions found on this machine, and ${path} names one file; leave out one of them`,
      );
    return path;
  }
  const now = Date.now();
  if (source.sessionId !== undefined) {
    const found = byId(source.sessionId, formats, home, logger);
    logger.info(`Handing off the ${describeSession(found, now)}: ${asField(found.path)}`);
    return found.path;
  }
  if (path !== undefined) {
    const file = newestFileIn(path, formats, logger);
    if (file !== undefined) {
      logger.info(`Handing off the newest session in ${asField(path)}: ${asField(file)}`);
      return file;
    }
  }
  const folder = path === undefined ? currentFolder() : { cwd: realpathSync(resolve(path)), aliases: [] };
  const found = newestFor(folder, formats, home, logger);
  logger.info(`Handing off the newest ${describeSession(found, now)}: ${asField(found.path)}`);
  return found.path;
}
