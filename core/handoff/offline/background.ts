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
 * Reads the goal, rules, finished work and decisions out of a summary written by a model: a
 * compaction summary as recorded (already out of its wrapper), or a custom message holding a
 * previous handoff document in its `<handoff-context>` wrapper.
 */
export function readBackground(summary: string, kind: "compaction" | "handoff"): Background {
  const source = kind === "compaction" ? "the earlier compaction summary" : "the previous handoff document";
  const text = kind === "compaction" ? summary : (unwrapHandoffDocument(summary) ?? summary);
  const sections = splitSections(text);
  const goalSection = find(sections, /\bgoal/i, /\b(task|objective)/i);
  const goalText = goalSection ? goalSection.lines.join("\n") : sections.length === 1 ? text : "";
  const goal = firstParagraph(goalText);
  const branchSection = find(sections, /^branch\b/i);
  const branchText = branchSection?.lines.join(" ").trim() ?? "";
  const branch =
    /`([^`\s]+)`/.exec(branchText)?.[1] ??
    (branchText.split(/\s+/)[0] || undefined) ??
    /\bbranch\s+`?([\w][\w./-]*[\w])`?/i.exec(goalText)?.[1];
  return {
    source,
    goal: goal === "" ? undefined : capText(goal, 300),
    branch,
    critical: items(find(sections, /critical|important|key files/i), 4),
    constraints: items(find(sections, /constraint|preference|rules/i), 5),
    done: items(find(sections, /\b(done|completed?|accomplished|finished)\b/i, /progress/i), 6),
    decisions: items(find(sections, /decision/i), 4),
  };
}
