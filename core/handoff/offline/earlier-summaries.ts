import { unwrapHandoffDocument } from "../../session/formats/handoff-text.ts";
import { GOAL_TITLE, isPlaceholder, splitSections, type Section } from "./summary-sections.ts";
import { capText, firstParagraph } from "../notes/text.ts";

/**
 * What an earlier summary says: a compaction summary (the best record of compacted work) or
 * the document of a previous handoff. Everything taken from it is labelled with `source`.
 */
export interface Background {
  source: string;
  goal: string | undefined;
  constraints: string[];
  done: string[];
  decisions: string[];
  /** The git branch the summary names ("## Branch" or "on branch `x`"). */
  branch: string | undefined;
  /** Facts the summary marks as critical (how to run things, key files). */
  critical: string[];
  /** Work the summary says is still open: its Pending, In Progress, Next Steps, Current Work sections. */
  pending: string[];
}

/** A section's list items, or its prose lines when it has no list; `open`: only items not ticked off ("- [x] …"). */
function items(section: Section | undefined, max: number, open = false): string[] {
  if (!section) return [];
  const bullets: string[] = [];
  const prose: string[] = [];
  for (const line of section.lines) {
    if (open && /^\s*(?:[-*+]|\d+[.)])\s+\[[xX]\]/.test(line)) continue;
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/.exec(line)?.[1];
    if (item !== undefined && !isPlaceholder(item)) bullets.push(capText(item, 200));
    else if (item === undefined && !isPlaceholder(line)) prose.push(capText(line, 200));
  }
  return (bullets.length > 0 ? bullets : prose).slice(0, max);
}

function find(sections: readonly Section[], ...patterns: RegExp[]): Section | undefined {
  for (const pattern of patterns) {
    const hit = sections.find((s) => pattern.test(s.title) && s.lines.some((l) => l.trim() !== ""));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The agents' bookkeeping around a summary, not prose for the next session: file lists in tags
 * (omp's `<files>`, pi's `<read-files>`/`<modified-files>`), horizontal rules, a bold label alone
 * on its line ("**Turn Context (split turn):**"), and omp's "No prior history." when nothing
 * before the split turn was summarised.
 */
function withoutBookkeeping(text: string): string {
  return text
    .replace(/^[ \t]*<((?:[a-z][\w-]*-)?files)>[\s\S]*?<\/\1>[ \t]*$/gim, "")
    .split("\n")
    .filter((line) => !/^\s*(?:(?:-{3,}|\*{3,}|_{3,})|\*\*[^*]+:\*\*|No prior history\.)\s*$/.test(line))
    .join("\n");
}

/** A label that names the goal, anywhere in a summary, bold or not: "Goal: …", "- **Task:** …". */
const GOAL_LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*)?(?:goals?|task|objective|primary request(?: and intent)?)(?:\*\*)?\s*:(?:\*\*)?\s*/i;
/** In a summary without headings, a line saying what the user wants states the goal too. */
const USER_WANTS = /^\s*(?:[-*+]\s+)?(?=the user (?:wants|wanted|asked|asks|needs|needed|would like|requested)\b)/i;
/** A label line that reports its task finished ("Task: fixed the parser (done)") states no goal. */
const MARKED_DONE = /\((?:done|completed?|finished|fixed|resolved)\)\W*$|^(?:done|completed?|finished)\b/i;

/** Under headings, only a "Goal:" label states the goal: "- Task: …" in a Pending or Done list is an item of work. */
const GOAL_ONLY_LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*)?(?:goals?|primary request(?: and intent)?)(?:\*\*)?\s*:(?:\*\*)?\s*/i;

function goalOfLine(line: string, plain: boolean): string | undefined {
  const label = plain ? GOAL_LABEL : GOAL_ONLY_LABEL;
  const pattern = label.test(line) ? label : plain && USER_WANTS.test(line) ? USER_WANTS : undefined;
  const goal = pattern === undefined ? undefined : line.replace(pattern, "").trim();
  return goal === undefined || isPlaceholder(goal) || MARKED_DONE.test(goal) ? undefined : goal;
}

/** The first line stating the goal, wherever it stands, taken out of its section (it is not progress too). */
function takeGoalLine(sections: Section[]): string | undefined {
  const plain = sections.length === 1;
  for (const section of sections) {
    const at = section.lines.findIndex((line) => goalOfLine(line, plain) !== undefined);
    if (at === -1) continue;
    const goal = goalOfLine(section.lines[at] ?? "", plain);
    section.lines.splice(at, 1);
    return goal;
  }
  return undefined;
}

/** A goal section's text: its list items joined, or its first paragraph; nothing when it only says "N/A". */
function goalOfSection(section: Section | undefined): string | undefined {
  if (!section) return undefined;
  const listed = items(section, 4);
  const text = section.lines.some((line) => /^\s*(?:[-*+]|\d+[.)])\s/.test(line))
    ? listed.join("; ")
    : firstParagraph(section.lines.join("\n"));
  return isPlaceholder(text) ? undefined : text;
}

/**
 * Reads the goal, rules, finished work and decisions out of a summary written by a model: a
 * compaction summary as recorded (already out of its wrapper), or a custom message holding a
 * previous handoff document in its `<handoff-context>` wrapper. Only a section about the goal
 * gives a goal: a summary without one (a short report of what was done) is progress, never the
 * user's request.
 */
export function readBackground(summary: string, kind: "compaction" | "handoff"): Background {
  const source = kind === "compaction" ? "the earlier compaction summary" : "the previous handoff document";
  const text = withoutBookkeeping(kind === "compaction" ? summary : (unwrapHandoffDocument(summary) ?? summary));
  const sections = splitSections(text);
  const goalSection = sections.find((s) => GOAL_TITLE.test(s.title) && goalOfSection(s) !== undefined);
  const goal = goalOfSection(goalSection) ?? takeGoalLine(sections);
  // A summary with no headings at all is a report of the work: progress.
  const plain = sections.length === 1 ? sections[0] : undefined;
  const branchSection = find(sections, /^branch\b/i);
  const branchText = branchSection?.lines.join(" ").trim() ?? "";
  const branch =
    /`([^`\s]+)`/.exec(branchText)?.[1] ??
    (branchText.split(/\s+/)[0] || undefined) ??
    /\bbranch\s+`?([\w][\w./-]*[\w])`?/i.exec(goalSection ? (goal ?? "") : text)?.[1];
  return {
    source,
    goal: goal === undefined ? undefined : capText(goal, 300),
    branch,
    critical: items(find(sections, /critical|important|key files/i), 4),
    constraints: items(find(sections, /constraint|preference|rules|non-goals?|out of scope/i), 5),
    done: items(find(sections, /\b(done|completed?|accomplished|finished|met)\b/i, /^(?!in progress).*progress/i) ?? plain, 6),
    decisions: items(find(sections, /decision/i), 4),
    pending: sections
      .filter((s) => PENDING_TITLE.test(s.title))
      .flatMap((s) => items(s, 4, true))
      .slice(0, 6),
  };
}

/** Titles of the sections that list open work. */
const PENDING_TITLE =
  /^(?:pending|in progress|remaining|outstanding|blocked|current work|(?:optional )?next\b|open (?:items|tasks|work)|to ?do|still to do)/i;
