import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { defineCommand, type ArgsDef } from "citty";
import type { ConsolaInstance } from "consola/core";
import {
  AgentError,
  analyzeBranch,
  countOf,
  describeFormatNames,
  describeFormats,
  errorMessage,
  readSession,
  TITLE_MAX,
} from "../../../core/index.ts";
import { agentHome } from "../../sessions/agent-home.ts";
import { discoverSessions } from "../../sessions/discover.ts";
import type { FoundSession } from "../../sessions/found-session.ts";
import { readSessionFile } from "../../sessions/session-file.ts";
import { readRowSession } from "../../sessions/session-rows.ts";
import { currentFolder } from "../../sessions/find-session.ts";
import { whatIsAt } from "../../sessions/folder-sessions.ts";
import type { CommandHelp } from "../help.ts";
import { resolveLsOptions, type LsOptions } from "./ls-options.ts";
import { estimateTokensOfBytes, renderTable, renderTabs, type ListedSession } from "./ls-render.ts";
import { nearestParentWithSessions } from "../../sessions/nearest-sessions.ts";
import { keepRecent, sessionsOfFolder } from "../../sessions/recent-sessions.ts";
import { EXIT } from "../../output/stderr.ts";
import { runOf, type Run } from "../../run.ts";
import { cutLine } from "../../output/shorten.ts";
import { asField } from "../../output/terminal.ts";

const LS_ARGS = {
  folder: {
    type: "positional",
    description:
      "List the sessions that worked in this folder instead of the current one (a folder of session files, such as an agent's folder for one project: the session files in it)",
    required: false,
  },
  all: { type: "boolean", alias: "a", description: "Sessions of every folder, not only the ones that worked in the current folder" },
  agent: { type: "string", description: `Only this agent's sessions: ${describeFormatNames()}`, valueHint: "agent" },
  limit: { type: "string", description: "At most this many sessions, the newest", valueHint: "n" },
  since: {
    type: "string",
    description: "Only sessions updated since then: a duration back from now (30m, 2h, 7d) or an ISO date or time (2026-07-01)",
    valueHint: "when",
  },
  long: { type: "boolean", alias: "l", description: "Also count each session's messages (reads every file whole: slower)" },
  json: { type: "boolean", description: "Print one JSON array on stdout instead of the table" },
  quiet: { type: "boolean", alias: "q", description: "Print warnings and errors only" },
  verbose: { type: "boolean", alias: "v", description: "Print debugging detail on stderr (folders and files that could not be read)" },
} satisfies ArgsDef;

/**
 * The ids `--ids` prints: the shells' completion expands what it is given (bash's `compgen -W`
 * runs a `$(…)` in a word), and an id is whatever a session file says, so only ids made of
 * letters, digits and `.`, `_`, `:`, `-` are offered (every agent's own ids are).
 */
const COMPLETABLE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** `--ids`: the ids alone, one a line; for shell completion, so not in the help. */
const HIDDEN_ARGS = { ids: { type: "boolean", description: "Print only the ids, one a line" } } satisfies ArgsDef;

export const LS_HELP: CommandHelp = {
  name: "ls",
  summary: "List the sessions that worked in the current folder, newest first",
  description:
    `List the sessions of ${describeFormats()} that worked in the current folder, or the folder named (the working directory each session recorded), newest first. ` +
    "Fast: only the first and last lines of each file are read. On a terminal, a table that fits its width; in a pipe, one tab-separated line per session (updated, agent, id, bytes, estimated tokens, title, cwd, path).",
  args: LS_ARGS,
  sections: [
    {
      title: "JSON",
      text: [
        "--json prints an array of {agent, id, path, cwd, updated, bytes, estimatedTokens, title}, and messages with --long. title is the title the agent shows for the session, else the user's first request; estimatedTokens is bytes / 4.",
      ],
    },
    {
      title: "EXAMPLES",
      commands: [
        "agent ls",
        "agent ls --all --agent claude",
        "agent ls ~/code/app --since 7d --limit 5",
        "agent ls --json | jq -r '.[0].path'",
        "agent handoff --session $(agent ls --json | jq -r '.[1].id')",
      ],
    },
  ],
};

/** The messages on a session's current branch, read whole; null when it cannot be read. */
function countMessages(found: FoundSession, logger: ConsolaInstance): number | null {
  try {
    const { format, rowId } = found;
    const session =
      rowId !== undefined && format.rows !== undefined
        ? readRowSession(found.path, format.rows, rowId)
        : readSession(readSessionFile(found.path).chunks, found.path).session;
    return analyzeBranch(session).branchMessages;
  } catch (error) {
    logger.debug(`${asField(found.path)}: could not be read whole (${errorMessage(error)})`);
    return null;
  }
}

/** A title as every form of `ls` shows it: cut to one line's worth, after the key is withheld from the whole of it. */
function shownTitle(run: Run, title: string | undefined): string | null {
  return title === undefined ? null : cutLine(run.printed.clearedForStdout(title), TITLE_MAX);
}

function listed(run: Run, found: FoundSession): ListedSession {
  const { glance } = found;
  return {
    agent: found.format.name,
    id: glance.id,
    path: found.path,
    cwd: glance.cwd ?? null,
    updated: new Date(found.mtimeMs).toISOString(),
    bytes: found.bytes,
    estimatedTokens: found.textBytes === undefined ? null : estimateTokensOfBytes(found.textBytes),
    title: shownTitle(run, glance.title ?? glance.firstRequest),
  };
}

export const lsCommand = defineCommand({
  meta: { name: LS_HELP.name, description: LS_HELP.summary },
  args: { ...LS_ARGS, ...HIDDEN_ARGS },
  async run({ args, data }) {
    const run = runOf(data);
    const logger = run.logger({ quiet: args.quiet, verbose: args.verbose });
    const options = resolveLsOptions(args, Date.now());
    const home = agentHome(run);
    const warn = (line: string) => logger.debug(line);
    const folder = options.all ? undefined : namedOrCurrentFolder(run, options.folder);
    const found = folder
      ? sessionsOfFolder(home, options.formats, folder, warn, true)
      : discoverSessions(home, { formats: options.formats, rows: true }, warn);
    // A whole agent's sessions left out is said at any verbosity; a file or folder passed over, at -v.
    for (const unreadable of found.unreadable)
      if (unreadable.database) logger.warn(`${asField(unreadable.path)}: ${unreadable.reason}; its sessions are not listed`);
    const sessions = keepRecent(found.sessions, options);
    if (args.ids)
      return run.stdout
        .printText(
          sessions
            .filter((s) => COMPLETABLE_ID.test(s.glance.id))
            .map((s) => `${s.glance.id}\n`)
            .join(""),
        )
        .then(() => EXIT.ok);
    const rows: ListedSession[] = [];
    for (const session of sessions) {
      if (!args.long) {
        rows.push(listed(run, session));
        continue;
      }
      // Reading every file whole takes a while: a Ctrl-C ends it between files.
      await run.cancel.checkpoint();
      rows.push({ ...listed(run, session), messages: countMessages(session, logger) });
    }
    if (rows.length === 0)
      logger.info(describeNoneListed(run, found, options, folder && "worked" in found ? found.worked : undefined, warn));
    if (args.json) await run.stdout.printJson(rows);
    else if (rows.length > 0 && run.stdout.isTTY) {
      const now = new Date();
      await run.stdout.printText(
        renderTable(rows, {
          printed: run.printed,
          width: run.stdout.columns || 80,
          utcOffsetMinutes: -now.getTimezoneOffset(),
          home: home.home,
          all: options.all,
        }),
      );
    } else await run.stdout.printText(renderTabs(rows));
    return EXIT.ok;
  },
});

/** The folder `agent ls` lists: the one named (which must be one), else the current one. */
function namedOrCurrentFolder(run: Run, named: string | undefined): { cwd: string; aliases: string[]; named?: string } {
  if (named === undefined) return currentFolder(run);
  const at = whatIsAt(resolve(run.cwd, named));
  if (at !== "folder")
    throw new AgentError(
      "FILE",
      at === "nothing" ? `${named}: no such folder` : `${named}: not a folder (agent inspect ${named} shows a session file)`,
      { file: named },
    );
  return { cwd: realpathSync(resolve(run.cwd, named)), aliases: [], named: resolve(run.cwd, named) };
}

/** The line an empty list gets: where we looked, since when, and where the nearest sessions are. */
function describeNoneListed(
  run: Run,
  found: { sessions: readonly FoundSession[]; lookedIn: readonly string[] },
  options: LsOptions,
  worked: string | undefined,
  warn: (line: string) => void,
): string {
  const since = options.sinceMs === undefined ? "" : ` updated since ${new Date(options.sinceMs).toISOString()}`;
  const looked = `(looked in ${found.lookedIn.map(asField).join(", ")})`;
  if (options.all) return `no sessions${since} ${looked}`;
  if (worked === undefined) return `no session file${since} in ${asField(options.folder ?? "")}`;
  const older = found.sessions.length > 0 ? `; --since leaves out ${found.sessions.length} older` : "";
  const nearest = found.sessions.length === 0 ? nearestParentWithSessions(agentHome(run), options.formats, worked, warn) : undefined;
  const there = nearest
    ? `; the nearest are in a parent folder: ${countOf(nearest.count, "session")} worked in ${asField(nearest.folder)}`
    : "";
  return `no session${since} worked in ${asField(worked)} ${looked}${older}${there}; agent ls --all lists every folder's`;
}
