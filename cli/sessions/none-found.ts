/** The one message for "no session was found", whichever way it was asked for: where we looked, what we could not read, what to do. */
import { AgentError, describeFormats, type SessionFormat } from "../../core/index.ts";
import type { Unreadable } from "./found-session.ts";
import { asField } from "../output/terminal.ts";

/** How many unreadable files a message names before it says how many more. */
const MAX_NAMED = 3;

/** `no pi session`, `no session of pi, omp, Claude Code or Codex`. */
export function noSession(formats: readonly SessionFormat[]): string {
  return formats.length === 1 ? `no ${formats[0]?.label} session` : `no session of ${describeFormats()}`;
}

/** `could not read a.jsonl (permission denied)`, for files that might have been the one. */
export function describeUnreadable(unreadable: readonly Unreadable[]): string | undefined {
  if (unreadable.length === 0) return undefined;
  const named = unreadable.slice(0, MAX_NAMED).map((u) => `${asField(u.path)} (${u.reason})`);
  const more = unreadable.length > MAX_NAMED ? ` and ${unreadable.length - MAX_NAMED} more (-v names them)` : "";
  return `could not read ${named.join(", ")}${more}`;
}

/** What to do next when a search found nothing: the advice `noneFound` ends with unless told otherwise. */
export const NAME_A_SESSION = "name a session file or use --session <id> (agent ls --all lists them)";

/**
 * `<what> (looked in …); <hints>; <advice>`: each hint a clause of its own (what could not be
 * read, where the nearest sessions are); the advice fits how the session was asked for (no
 * "use --session" to someone who just did), `NAME_A_SESSION` when it was not named at all.
 */
export function noneFound(
  what: string,
  lookedIn: readonly string[],
  hints: readonly (string | undefined)[] = [],
  advice = NAME_A_SESSION,
): AgentError {
  const said = hints.filter((hint) => hint !== undefined).map((hint) => `; ${hint}`);
  return new AgentError("USAGE", `${what} (looked in ${lookedIn.map(asField).join(", ")})${said.join("")}; ${advice}`);
}
