import { unwrapHandoffDocument } from "../../session/formats/handoff-text.ts";
import { markFencedLines } from "../fences.ts";
import { capText, firstParagraph } from "./text.ts";

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
}

interface Section {
  title: string;
  lines: string[];
}

/** Splits markdown into sections at every heading, skipping fenced code. */
function splitSections(text: string): Section[] {
  const sections: Section[] = [{ title: "", lines: [] }];
  const lines = text.split("\n");
  const fenced = markFencedLines(lines);
  lines.forEach((line, i) => {
    if (fenced[i] !== false) return;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1] !== undefined) sections.push({ title: heading[1], lines: [] });
    else sections.at(-1)?.lines.push(line);
  });
  return sections;
}

/** A section's list items, or its prose lines when it has no list. */
function items(section: Section | undefined, max: number): string[] {
  if (!section) return [];
  const bullets: string[] = [];
  const prose: string[] = [];
  for (const line of section.lines) {
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line)?.[1];
    if (item !== undefined && item.trim() !== "") bullets.push(capText(item, 200));
    else if (line.trim() !== "") prose.push(capText(line, 200));
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

/** A line that states the goal in a summary without headings: "Goal: …", "The user wants …". */
const GOAL_LINE =
  /^\s*(?:[-*+]\s+)?(?:\*\*)?(?:(?:goal|task|objective)(?:\*\*)?\s*:(?:\*\*)?\s*|(?=the user (?:wants|wanted|asked|asks|needs|needed|would like|requested)\b))/i;

/** The goal line of a headingless summary (the first that states one), and the rest as its own section. */
function splitGoalLine(lines: readonly string[]): { goal: string | undefined; rest: Section } {
  const at = lines.findIndex((line) => GOAL_LINE.test(line) && line.replace(GOAL_LINE, "").trim() !== "");
  const goal = at === -1 ? undefined : lines[at]?.replace(GOAL_LINE, "");
  return { goal, rest: { title: "", lines: lines.filter((_, i) => i !== at) } };
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
  const goalSection = find(sections, /\bgoal/i, /\b(task|objective)/i);
  // A summary with no headings at all is a report of the work: progress, but for a line that states the goal.
  const plain = sections.length === 1 ? splitGoalLine(sections[0]?.lines ?? []) : undefined;
  const goalText = goalSection ? goalSection.lines.join("\n") : (plain?.goal ?? "");
  const goal = firstParagraph(goalText);
  const branchSection = find(sections, /^branch\b/i);
  const branchText = branchSection?.lines.join(" ").trim() ?? "";
  const branch =
    /`([^`\s]+)`/.exec(branchText)?.[1] ??
    (branchText.split(/\s+/)[0] || undefined) ??
    /\bbranch\s+`?([\w][\w./-]*[\w])`?/i.exec(goalSection ? goalText : text)?.[1];
  return {
    source,
    goal: goal === "" ? undefined : capText(goal, 300),
    branch,
    critical: items(find(sections, /critical|important|key files/i), 4),
    constraints: items(find(sections, /constraint|preference|rules/i), 5),
    done: items(find(sections, /\b(done|completed?|accomplished|finished)\b/i, /progress/i) ?? plain?.rest, 6),
    decisions: items(find(sections, /decision/i), 4),
  };
}
