/**
 * `agent handoff --pick`: the recent sessions of every agent in a searchable list on the terminal,
 * as `claude --resume` and `codex resume` offer theirs; the one chosen is handed off. The list is
 * drawn by @clack/prompts' autocomplete on stderr (stdout stays the product's); Esc or Ctrl-C is
 * "Handoff cancelled", exit 130, with nothing written.
 */
import type { Run } from "../run.ts";
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ConsolaInstance } from "consola/core";
import { AgentError, countOf, describeFormats, type AgentName } from "../../core/index.ts";
import { agentHome } from "./agent-home.ts";
import type { FoundSession } from "./found-session.ts";
import { currentFolder, formatsFor, refOf, type SessionRef } from "./find-session.ts";
import { describeAge } from "../output/ages-and-folders.ts";
import { listForPicking, matchesSearch, type PickChoice } from "./pick-list.ts";
import { sessionsToChoose } from "./recent-sessions.ts";
import { asField } from "../output/terminal.ts";
import { CommandLineError } from "../flags/usage.ts";

/** The sessions to choose from, and how many handoff sessions with nothing in them yet were passed over. */
export type ListSessions = (
  run: Run,
  agent: AgentName | undefined,
  logger: ConsolaInstance,
) => { sessions: FoundSession[]; lookedIn: string[]; passedOver?: number };

/**
 * Every session of the agents in scope, as `agent ls --all` finds them (opencode's rows too),
 * less our handoff sessions with nothing in them yet.
 */
export const listAllSessions: ListSessions = (run, agent, logger) =>
  sessionsToChoose(agentHome(run), formatsFor(agent, true), (line) => logger.debug(line));

/** Rows shown at once; the search narrows the rest. */
const MAX_ROWS = 12;

/** Whether a recorded cwd names the current folder, as written or once its links are resolved. */
function inFolder(folder: { cwd: string; aliases: string[] }): (session: FoundSession) => boolean {
  const names = new Set([folder.cwd, ...folder.aliases]);
  return ({ glance }) => {
    if (glance.cwd === undefined || !isAbsolute(glance.cwd)) return false;
    if (names.has(resolve(glance.cwd))) return true;
    try {
      return realpathSync(glance.cwd) === folder.cwd;
    } catch {
      return false;
    }
  };
}

/** Refuses `--pick` off a terminal: the list needs one to be shown on and answered from. */
export function checkCanPick(terminal: { stdin: boolean; stderr: boolean }): void {
  if (!terminal.stdin || !terminal.stderr)
    throw new CommandLineError(
      `--pick shows a list on the terminal, and ${terminal.stdin ? "stderr" : "stdin"} is not one; name the session instead: a path, --session <id>, or nothing for the newest of this folder`,
    );
}

/**
 * Asks which session to hand off and returns it: its file, or its rows in its agent's database. The list is the sessions `list` finds,
 * the current folder's first, newest first; typing narrows it by title, folder and id.
 */
export async function pickSession(
  run: Run,
  agent: AgentName | undefined,
  logger: ConsolaInstance,
  list: ListSessions = listAllSessions,
): Promise<SessionRef> {
  const { stdin, stderr, prompt } = run.io;
  checkCanPick({ stdin: stdin.isTTY === true && prompt !== undefined, stderr: stderr.isTTY === true && prompt !== undefined });
  const found = list(run, agent, logger);
  if (found.sessions.length === 0) {
    const ours = found.passedOver
      ? `; ${countOf(found.passedOver, "handoff session")} with nothing after the document yet passed over`
      : "";
    throw new AgentError(
      "USAGE",
      `no session of ${agent ?? describeFormats()} to pick from (looked in ${found.lookedIn.join(", ")})${ours}`,
    );
  }
  const now = Date.now();
  const choices = listForPicking(found.sessions, {
    printed: run.printed,
    here: inFolder(currentFolder(run)),
    now,
    home: agentHome(run).home,
    width: (stderr.columns || 80) - 6,
  });
  // Loaded only here: the terminal list is the one thing that uses it, and loading it costs every run.
  const { autocomplete, isCancel } = await import("@clack/prompts");
  // Each choice by its place in the list: the sessions of one database share its path.
  const byKey = new Map<string, PickChoice>(choices.map((choice, i) => [String(i), choice]));
  const chosen = await autocomplete<string>({
    message: "Hand off which session? (type to search by title or folder; Esc cancels)",
    options: [...byKey].map(([key, choice]) => ({ value: key, label: choice.label })),
    maxItems: MAX_ROWS,
    filter: (search, option) => {
      const choice = byKey.get(option.value);
      return choice !== undefined && matchesSearch(search, choice);
    },
    input: prompt?.input,
    output: prompt?.output,
  });
  if (isCancel(chosen)) throw new AgentError("CANCELLED", "Handoff cancelled");
  const session = byKey.get(chosen)?.session;
  if (session === undefined) throw new Error(`--pick: the list gave back ${chosen}, none of its choices`);
  logger.info(
    `Handing off the ${session.format.label} session ${asField(session.glance.id)}, updated ${describeAge(session.mtimeMs, now)}: ${asField(session.path)}`,
  );
  return refOf(session);
}
