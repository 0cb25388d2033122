/**
 * What a person wrote, apart from what they pasted. Users paste stack traces, logs, terminal
 * sessions, JSON lines and diffs into their messages; none of that is a request, a goal or a
 * rule, however it is worded ("must have a corresponding tool_result"). This module keeps the
 * prose and sets the pastes aside, so the engine reads only the user's own words.
 */
import { markFencedLines } from "../fences.ts";

/** A line that is pasted output, a stack frame, a path or a diff, not a sentence a person wrote. */
const PASTED_LINE = new RegExp(
  [
    String.raw`^\s*(?:➜|\$ |> |at |\{|\[|\||[│─┌└├╭╰┃━]|npm (?:ERR|error|notice|warn)|node:|Debugger attached|Waiting for the debugger)`,
    String.raw`^\s*(?:\w+\.)*\w*(?:Error|Exception):`,
    String.raw`^\s*['"]?~?\/[^\s/]+\/\S*`,
    String.raw`^\s*[+-]\s*\d+\s`,
    String.raw`^(?:\+\+\+|---|@@) `,
    String.raw`^\s*\[?\d{4}-\d\d-\d\d[T ]\d\d:`,
    String.raw`^\s*[^\p{L}\p{N}\s]{3,}\s*$`,
    // A tool's version banner ("Node.js v23.4.0", "bun test v1.3.2"), printed at the end or start of output.
    String.raw`^\s*[\w.@/-]+(?: \w+)? v\d+\.\d+(?:\.\d+)?(?: \(\w+\))?\s*$`,
  ].join("|"),
  "u",
);

/** A list item a person typed: kept, even when indented. */
const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+\S/;

export function isPastedLine(line: string): boolean {
  if (LIST_ITEM.test(line) && !/^\s*[+-]\s*\d+\s/.test(line)) return false;
  // People do not indent prose; pasted terminal output and wrapped error messages are.
  return /^(?: {2,}|\t)\S/.test(line) || PASTED_LINE.test(line);
}

export interface UserProse {
  /** The user's own words: paragraphs joined with a blank line. */
  prose: string;
  /** Everything set aside: code blocks and pasted paragraphs, in order. */
  pastes: string[];
}

/**
 * Splits a user's message into their own words and what they pasted. Fenced code is pasted;
 * a paragraph whose first line, or at least half of whose lines, look pasted is pasted whole;
 * in other paragraphs single pasted lines are dropped.
 */
export function userProse(text: string): UserProse {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const fenced = markFencedLines(lines);
  const pastes: string[] = [];
  const paragraphs: string[][] = [[]];
  let code: string[] = [];
  lines.forEach((line, i) => {
    if (fenced[i] !== false) {
      code.push(line);
      return;
    }
    if (code.length > 0) {
      pastes.push(code.join("\n"));
      code = [];
    }
    if (line.trim() === "") paragraphs.push([]);
    else paragraphs.at(-1)?.push(line);
  });
  if (code.length > 0) pastes.push(code.join("\n"));
  const kept: string[] = [];
  for (const paragraph of paragraphs.filter((p) => p.length > 0)) {
    // Each line judged once: the judgement is a long pattern, and it decides three things here.
    const pastedLines = paragraph.map(isPastedLine);
    const pasted = pastedLines.filter((isPasted) => isPasted).length;
    if (pastedLines[0] === true || pasted * 2 >= paragraph.length) {
      pastes.push(paragraph.join("\n"));
      continue;
    }
    kept.push(paragraph.filter((_, i) => !pastedLines[i]).join("\n"));
  }
  return { prose: kept.join("\n\n"), pastes };
}

/** A line naming an error, the way people and tools write them. */
const ERROR_WORDS =
  /\b\w*(?:Error|Exception)\b|\berror\b|\bERR!|\bE[A-Z0-9]{3,}\b|\bTS\d{4}\b|\bFAIL(?:ED)?\b|\bfatal\b|\bpanic(?:ked)?\b|no such file|not found|cannot|can't|denied|refused/;

/** The headline of a paste: its first line naming an error, when short enough to name the problem. */
export function pasteHeadline(pastes: readonly string[], max = 120): string | undefined {
  for (const paste of pastes) {
    const line = paste
      .split("\n")
      .map((l) => l.trim())
      .find((l) => ERROR_WORDS.test(l) && !/^at\s/.test(l));
    if (line !== undefined) return line.length <= max ? line : undefined;
  }
  return undefined;
}

/** Openers that carry no meaning of their own: "ok,", "alright,", "sooo", "hm", "wait,". */
const FILLER =
  /^(?:ok(?:ay)?|separately|anyway|next(?=\s*[:,])|alright|all right|so+|well|hm+|hmm+|oh|ah|yo|nice|good|great|cool|perfect|wow|wait|like|actually|btw|dude|my dude|omfg|omg|wtf|jesus|fine|right|then|now|also|and)\b[\s,.!:;—–-]*/i;

/** Drops leading fillers ("ok, so now …" → "…"). */
export function stripFillers(text: string): string {
  let rest = text.trim();
  for (let i = 0; i < 6; i++) {
    const next = rest.replace(FILLER, "");
    if (next === rest) break;
    rest = next;
  }
  return rest;
}
