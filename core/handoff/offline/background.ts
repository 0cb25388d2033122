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
}

interface Section {
  title: string;
  lines: string[];
}

const WRAPPERS: { open: string; close: string; source: string }[] = [
  { open: "<summary>", close: "</summary>", source: "the earlier compaction summary" },
  { open: "<handoff-context>", close: "</handoff-context>", source: "the previous handoff document" },
];

/** The text inside our wrapper tags, or the whole text when there is no wrapper. */
function unwrap(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start >= 0 && end > start ? text.slice(start + open.length, end) : text;
}

/** Splits markdown into sections at every heading, skipping fenced code. */
function splitSections(text: string): Section[] {
  const sections: Section[] = [{ title: "", lines: [] }];
  let inFence = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1] !== undefined) sections.push({ title: heading[1], lines: [] });
    else if (!inFence) sections.at(-1)?.lines.push(line);
  }
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

/** Reads the goal, rules, finished work and decisions out of a summary written by a model. */
export function readBackground(wrappedText: string, kind: "compaction" | "handoff"): Background {
  const wrapper = WRAPPERS[kind === "compaction" ? 0 : 1];
  const source = wrapper?.source ?? "an earlier summary";
  const text = wrapper ? unwrap(wrappedText, wrapper.open, wrapper.close) : wrappedText;
  const sections = splitSections(text);
  const goalSection = find(sections, /\bgoal/i, /\b(task|objective)/i);
  const goalText = goalSection ? goalSection.lines.join("\n") : sections.length === 1 ? text : "";
  const goal = firstParagraph(goalText);
  return {
    source,
    goal: goal === "" ? undefined : capText(goal, 300),
    constraints: items(find(sections, /constraint|preference|rules/i), 5),
    done: items(find(sections, /\b(done|completed?|accomplished|finished)\b/i, /progress/i), 6),
    decisions: items(find(sections, /decision/i), 4),
  };
}
