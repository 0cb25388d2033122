/**
 * The session with an id, or the one whose id starts so, wherever its agent keeps it: what
 * `--session <id>` names, and a word given as the session that names no file or folder.
 */
import { AgentError, type AgentHome, type SessionFormat } from "../../core/index.ts";
import { discoverSessions } from "./discover.ts";
import type { FoundSession, Warn } from "./found-session.ts";
import { describeUnreadable, noneFound, noSession } from "./none-found.ts";
import { asField } from "../output/terminal.ts";

/** How many matches an ambiguous id lists before saying how many more there are. */
const MAX_LISTED = 20;

/** The sessions whose id is `wanted`, or starts with it (any case); an exact match wins over longer ones. */
export function matchingId(sessions: readonly FoundSession[], wanted: string): FoundSession[] {
  const lower = wanted.toLowerCase();
  const exact = sessions.filter((s) => s.glance.id.toLowerCase() === lower);
  return exact.length > 0 ? exact : sessions.filter((s) => s.glance.id.toLowerCase().startsWith(lower));
}

/**
 * The one session `wanted` names. `asked` is how the user asked, for messages: `--session 7c0a`,
 * or `7c0a` for a word given as the session, which names no file or folder either.
 */
export function sessionById(
  wanted: string,
  asked: { flag: boolean },
  formats: readonly SessionFormat[],
  home: AgentHome,
  warn: Warn,
): FoundSession {
  const shown = asked.flag ? `--session ${wanted}` : wanted;
  const found = discoverSessions(home, { formats, rows: true }, warn);
  // A file whose first line was too long to glance at is known by the id in its name.
  const glanced = matchingId(found.sessions, wanted);
  const matches = glanced.length > 0 ? glanced : matchingId(found.givenUp, wanted);
  const [only, ...others] = matches;
  if (only === undefined) {
    // The id may be a thread the agent ran for itself: say what it is, not that nothing has the id.
    const [thread] = matchingId(found.agentThreads, wanted);
    if (thread !== undefined) {
      // A session kept as rows has no file of its own to name.
      const orFile = thread.rowId === undefined ? `, or name its file: ${asField(thread.path)}` : "";
      throw new AgentError(
        "USAGE",
        `${shown}: ${thread.format.label} ${asField(thread.glance.id)} is ${asField(thread.glance.agentThread ?? "")}, not a session the user worked in; hand off the session it belongs to${orFile}`,
      );
    }
    const what = `${noSession(formats)} has an id starting with ${wanted}`;
    // Advice for what was given: an id with --session (so not "use --session"), or a word that was neither a path nor an id.
    const advice = asked.flag ? "agent ls --all lists every session with its id" : "check the path, or give an id agent ls --all lists";
    throw noneFound(
      asked.flag ? what : `${wanted}: no such file or folder, and ${what}`,
      found.lookedIn,
      [describeUnreadable(found.unreadable)],
      advice,
    );
  }
  if (others.length === 0) return only;
  const width = Math.max(...matches.map((s) => s.format.name.length));
  const listed = matches.slice(0, MAX_LISTED).map((s) => `\n  ${s.format.name.padEnd(width)}  ${asField(s.glance.id)}  ${asField(s.path)}`);
  const more = matches.length > MAX_LISTED ? `\n  … and ${matches.length - MAX_LISTED} more` : "";
  // A copied file keeps its id: more of the id cannot tell the copies apart, their paths can.
  const sameId = matches.every((s) => s.glance.id.toLowerCase() === only.glance.id.toLowerCase());
  const ask = sameId
    ? `is the id of ${matches.length} session files; name the one you mean by its path:`
    : `matches ${matches.length} sessions; give more of the id:`;
  throw new AgentError("USAGE", `${shown} ${ask}${listed.join("")}${more}`);
}
