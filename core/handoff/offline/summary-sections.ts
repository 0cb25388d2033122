/**
 * A model-written summary cut into titled sections. Two layouts are read as sections: markdown
 * headings (pi, omp, our own handoff documents), and a title alone on its line ending with a
 * colon, numbered or bold ("2. Key Technical Concepts:", Claude Code's /compact layout), so those
 * titles are never taken for items of work.
 */
import { markFencedLines } from "../fences.ts";

export interface Section {
  title: string;
  lines: string[];
}

/** Titles of Claude Code's summary sections and the usual names of pi's: a bare "Title:" line with one of these opens a section. */
const KNOWN_TITLE =
  /^(?:summary|(?:primary )?request(?: and intent)?|goals?|tasks?|objectives?|key technical concepts|files(?: and code sections)?|errors(?: and fixes)?|problem solving|all user messages|pending(?: tasks)?|current work|(?:optional )?next steps?|progress|done|completed(?: tasks)?|in progress|blocked|(?:key )?decisions|constraints(?: (?:&|and) preferences)?|critical context|non-goals)$/i;

/** "2. Key Technical Concepts:", "**Pending Tasks:**", "Current Work:": a title line, with whatever follows its colon. */
const TITLE_LINE = /^\s*(\d+[.)]\s+)?(?:\*\*)?([A-Za-z][\w ,&/()'-]{1,60}?)(?:\*\*)?\s*:(?:\*\*)?\s*(.*)$/;

/**
 * Only known titles open a section (a list item "1. Run the tests:" or a prose line ending with
 * a colon is not one); numbered, the title may carry its first line after the colon.
 */
function titleOf(line: string): { title: string; rest: string } | undefined {
  const match = TITLE_LINE.exec(line);
  const title = match?.[2]?.trim();
  if (match === null || title === undefined || !KNOWN_TITLE.test(title)) return undefined;
  const rest = match[3] ?? "";
  return match[1] !== undefined || rest === "" ? { title, rest } : undefined;
}

/** Splits a summary into sections at every heading or title line, skipping fenced code. */
export function splitSections(text: string): Section[] {
  const sections: Section[] = [{ title: "", lines: [] }];
  const lines = text.split("\n");
  const fenced = markFencedLines(lines);
  lines.forEach((line, i) => {
    if (fenced[i] !== false) return;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    const titled = heading === undefined ? titleOf(line) : { title: heading, rest: "" };
    if (titled === undefined) sections.at(-1)?.lines.push(line);
    else sections.push({ title: titled.title, lines: titled.rest === "" ? [] : [titled.rest] });
  });
  return sections;
}

/** A title that IS a goal: "Goal", "Goals", "Task", "Objective", "Primary Request and Intent" (not "Non-goals", "Completed Tasks", "Objectives met"). */
export const GOAL_TITLE =
  /^(?:the |main |overall |primary |current |original |user'?s? )?(?:goals?|task|objectives?|request(?: and intent)?|intent)$/i;

/** What a summary writes in a section that has nothing: "N/A", "None", "TBD", "-". */
export function isPlaceholder(text: string): boolean {
  return /^\W*(?:n\/?a|none(?: yet)?|nothing(?: yet)?|tbd|todo|unknown|not (?:stated|specified|known|set)|-+|—|\.\.\.)?\W*$/i.test(
    text.trim(),
  );
}
