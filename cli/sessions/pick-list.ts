/**
 * What `agent handoff --pick` lists, and how a search narrows it (pure): every agent's sessions,
 * the current folder's first, each part newest first; a search matches a session when every word
 * of it is in its title, its folder or its id (any case).
 */
import type { FoundSession } from "./found-session.ts";
import { describeAge, tildePath } from "../output/ages-and-folders.ts";
import type { PrintedFilter } from "../output/printed.ts";
import { cutLine, displayWidth, fitEnd, fitMiddle, type Cleared } from "../output/shorten.ts";

export interface PickChoice {
  /** The session handed off when this is chosen. */
  session: FoundSession;
  /** Its file, or its agent's database (which holds many sessions, each a choice of its own). */
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

/** The widest a title gets, and the least it keeps when the folder needs the room. */
const TITLE_WIDTH = 48;
const MIN_TITLE_WIDTH = 8;
/** "Claude Code", the longest agent label, and "59 minutes ago", the longest age. */
const AGENT_WIDTH = 11;
const AGE_WIDTH = 14;
/** The columns besides the title and the folder: agent, age, and the gaps between the four. */
const FIXED_WIDTH = AGENT_WIDTH + AGE_WIDTH + 3 * 2;

/** The columns of the list: the title gives way first, so the folder shows whole wherever it can. */
interface Columns {
  title: number;
  folder: number;
}

function folderOf(session: FoundSession, home: string, printed: PrintedFilter): Cleared {
  return printed.clearedForPeople(session.glance.cwd === undefined ? "(no folder)" : tildePath(session.glance.cwd, home));
}

/**
 * The widths for `sessions` in `width` columns: the folder as wide as the longest one, the title
 * the rest (at most 48, at least 8); a folder longer than what is left is cut in its middle.
 */
function columnsFor(sessions: readonly FoundSession[], options: PickListOptions): Columns {
  const room = Math.max(0, options.width - FIXED_WIDTH);
  const longest = Math.max(0, ...sessions.map((s) => displayWidth(folderOf(s, options.home, options.printed))));
  const title = Math.min(TITLE_WIDTH, Math.max(MIN_TITLE_WIDTH, room - longest));
  return { title, folder: Math.max(5, room - title) };
}

/** The sessions in the order they are listed: the current folder's first, newest first within each part. */
export function orderForPicking(sessions: readonly FoundSession[], here: (session: FoundSession) => boolean): FoundSession[] {
  const newest = [...sessions].sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return [...newest.filter(here), ...newest.filter((s) => !here(s))];
}

function labelFor(session: FoundSession, options: PickListOptions, columns: Columns): string {
  const { glance } = session;
  const clearedForPeople = (text: string) => options.printed.clearedForPeople(text);
  const title = cutLine(clearedForPeople(glance.title ?? glance.firstRequest ?? "(no title)"), columns.title);
  const folder = fitMiddle(folderOf(session, options.home, options.printed), columns.folder);
  const line = `${title.padEnd(columns.title)}  ${session.format.label.padEnd(AGENT_WIDTH)}  ${describeAge(session.mtimeMs, options.now).padEnd(AGE_WIDTH)}  ${folder}`;
  return fitEnd(clearedForPeople(line), Math.max(20, options.width));
}

/** The choices `--pick` offers, in order. */
export function listForPicking(sessions: readonly FoundSession[], options: PickListOptions): PickChoice[] {
  const columns = columnsFor(sessions, options);
  return orderForPicking(sessions, options.here).map((session) => ({
    session,
    path: session.path,
    label: labelFor(session, options, columns),
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
