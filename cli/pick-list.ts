/**
 * What `agent handoff --pick` lists, and how a search narrows it (pure): every agent's sessions,
 * the current folder's first, each part newest first; a search matches a session when every word
 * of it is in its title, its folder or its id (any case).
 */
import type { FoundSession } from "./discover.ts";
import { describeAge, tildePath } from "./ls-render.ts";
import type { PrintedFilter } from "./printed.ts";
import { cutLine, fitEnd } from "./shorten.ts";

export interface PickChoice {
  /** The session file handed off when this is chosen. */
  path: string;
  /** One line for the list: title, agent, folder, age; safe to print (controls and withheld values gone). */
  label: string;
  /** What a search looks in, lower case: the title, the folder, the id. */
  searched: string;
}

export interface PickListOptions {
  /** The run's printed-line filter: a cut comes only after it. */
  printed: PrintedFilter;
  /** Whether a session worked in the current folder (its recorded cwd names it). */
  here: (session: FoundSession) => boolean;
  now: number;
  home: string;
  /** Columns the list may take. */
  width: number;
}

const TITLE_WIDTH = 48;

/** The sessions in the order they are listed: the current folder's first, newest first within each part. */
export function orderForPicking(sessions: readonly FoundSession[], here: (session: FoundSession) => boolean): FoundSession[] {
  const newest = [...sessions].sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return [...newest.filter(here), ...newest.filter((s) => !here(s))];
}

function labelFor(session: FoundSession, options: PickListOptions): string {
  const { glance } = session;
  const clearedForPeople = (text: string) => options.printed.clearedForPeople(text);
  const title = cutLine(clearedForPeople(glance.title ?? glance.firstRequest ?? "(no title)"), TITLE_WIDTH);
  const folder = glance.cwd === undefined ? "(no folder)" : tildePath(glance.cwd, options.home);
  const line = `${title.padEnd(TITLE_WIDTH)}  ${session.format.label.padEnd(11)}  ${describeAge(session.mtimeMs, options.now).padEnd(14)}  ${folder}`;
  return fitEnd(clearedForPeople(line), Math.max(20, options.width));
}

/** The choices `--pick` offers, in order. */
export function listForPicking(sessions: readonly FoundSession[], options: PickListOptions): PickChoice[] {
  return orderForPicking(sessions, options.here).map((session) => ({
    path: session.path,
    label: labelFor(session, options),
    searched: [session.glance.title ?? session.glance.firstRequest ?? "", session.glance.cwd ?? "", session.glance.id]
      .join("\n")
      .toLowerCase(),
  }));
}

/** Whether a choice matches what was typed: every word of it, in its title, folder or id. */
export function matchesSearch(search: string, choice: PickChoice): boolean {
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")
    .every((word) => choice.searched.includes(word));
}
