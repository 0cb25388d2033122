import { defineCommand, type ArgsDef } from "citty";
import type { ConsolaInstance } from "consola/core";
import { analyzeBranch, describeFormatNames, describeFormats, readSession, TITLE_MAX } from "../core/index.ts";
import { agentHome } from "./agent-home.ts";
import { checkpoint } from "./cancel.ts";
import { discoverSessions, type FoundSession } from "./discover.ts";
import { readSessionFile } from "./files.ts";
import { currentFolder, formatsFor } from "./find-session.ts";
import type { CommandHelp } from "./help.ts";
import { estimateTokensOfBytes, renderTable, renderTabs, type ListedSession } from "./ls-render.ts";
import { createLogger, EXIT } from "./report.ts";
import { clearedForStdout } from "./printed.ts";
import { parseAgent } from "./settings.ts";
import { cutLine } from "./shorten.ts";
import { printJson, printText } from "./stdout.ts";
import { asField } from "./terminal.ts";

const LS_ARGS = {
  all: { type: "boolean", alias: "a", description: "Sessions of every folder, not only the ones that worked in the current folder" },
  agent: { type: "string", description: `Only this agent's sessions: ${describeFormatNames()}`, valueHint: "agent" },
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
    `List the sessions of ${describeFormats()} that worked in the current folder (the working directory each session recorded), newest first. ` +
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
        "agent ls --json | jq -r '.[0].path'",
        "agent handoff --session $(agent ls --json | jq -r '.[1].id')",
      ],
    },
  ],
};

/** The messages on a session's current branch, read whole; null when it cannot be read. */
function countMessages(found: FoundSession, logger: ConsolaInstance): number | null {
  try {
    const { session } = readSession(readSessionFile(found.path).chunks, found.path);
    return analyzeBranch(session).branchMessages;
  } catch (error) {
    logger.debug(`${asField(found.path)}: could not be read whole (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

/** A title as every form of `ls` shows it: cut to one line's worth, after the key is withheld from the whole of it. */
function shownTitle(title: string | undefined): string | null {
  return title === undefined ? null : cutLine(clearedForStdout(title), TITLE_MAX);
}

function listed(found: FoundSession): ListedSession {
  const { glance } = found;
  return {
    agent: found.format.name,
    id: glance.id,
    path: found.path,
    cwd: glance.cwd ?? null,
    updated: new Date(found.mtimeMs).toISOString(),
    bytes: found.bytes,
    estimatedTokens: found.textBytes === undefined ? null : estimateTokensOfBytes(found.textBytes),
    title: shownTitle(glance.title ?? glance.firstRequest),
  };
}

export const lsCommand = defineCommand({
  meta: { name: LS_HELP.name, description: LS_HELP.summary },
  args: { ...LS_ARGS, ...HIDDEN_ARGS },
  async run({ args }) {
    const logger = createLogger({ quiet: args.quiet, verbose: args.verbose });
    const formats = formatsFor(args.agent ? parseAgent(args.agent, "--agent") : undefined);
    const folder = args.all ? undefined : currentFolder();
    const found = discoverSessions(agentHome(), { formats, cwd: folder?.cwd, cwdAliases: folder?.aliases }, (line) => logger.debug(line));
    if (args.ids)
      return printText(
        found.sessions
          .filter((s) => COMPLETABLE_ID.test(s.glance.id))
          .map((s) => `${s.glance.id}\n`)
          .join(""),
      ).then(() => EXIT.ok);
    const rows: ListedSession[] = [];
    for (const session of found.sessions) {
      if (!args.long) {
        rows.push(listed(session));
        continue;
      }
      // Reading every file whole takes a while: a Ctrl-C ends it between files.
      await checkpoint();
      rows.push({ ...listed(session), messages: countMessages(session, logger) });
    }
    if (rows.length === 0)
      logger.info(
        folder
          ? `no session worked in ${folder.cwd} (looked in ${found.lookedIn.join(", ")}); agent ls --all lists every folder's`
          : `no sessions (looked in ${found.lookedIn.join(", ")})`,
      );
    if (args.json) await printJson(rows);
    else if (rows.length > 0 && process.stdout.isTTY) {
      const now = new Date();
      await printText(
        renderTable(rows, {
          width: process.stdout.columns || 80,
          utcOffsetMinutes: -now.getTimezoneOffset(),
          home: agentHome().home,
          all: args.all === true,
        }),
      );
    } else await printText(renderTabs(rows));
    return EXIT.ok;
  },
});
