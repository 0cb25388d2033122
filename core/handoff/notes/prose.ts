/**
 * What a person wrote, apart from what they pasted. Users paste stack traces, logs, terminal
 * sessions, JSON lines and diffs into their messages; none of that is a request, a goal or a
 * rule, however it is worded ("must have a corresponding tool_result"). This module keeps the
 * prose and sets the pastes aside, so the engine reads only the user's own words.
 */
import { lazily } from "../../lazy.ts";
import { markFencedLines } from "../fences.ts";

/** A line that starts as output whatever follows: a prompt, a stack frame, a box, npm's or node's words. */
const OUTPUT_START = String.raw`^\s*(?:➜|\$ |> |at |\{|\[|\||[│─┌└├╭╰┃━]|npm (?:ERR|error|notice|warn)|node:|Debugger attached|Waiting for the debugger)`;

/**
 * The other shapes of a pasted line, each with what a line needs for its pattern to match
 * (`start` is the line without its leading white space): most lines need none, so most ask no
 * pattern, and each pattern is compiled only when a line may match it. `may` may say yes where
 * the pattern says no, never the other way (prose.test.ts checks).
 */
const ERROR_NAME = shape(
  String.raw`^\s*(?:\w+\.)*\w*(?:Error|Exception):`,
  (_, start) => isWordChar(start.charCodeAt(0)) && (start.includes("Error:") || start.includes("Exception:")),
);
// A tool's version banner ("Node.js v23.4.0", "bun test v1.3.2"), printed at the end or start of output.
const BANNER = shape(
  String.raw`^\s*[\w.@/-]+(?: \w+)? v\d+\.\d+(?:\.\d+)?(?: \(\w+\))?\s*$`,
  (_, start) => (isWordChar(start.charCodeAt(0)) || ".@/-".includes(start.charAt(0))) && hasVersion(start),
);
const SHAPES = [
  ERROR_NAME,
  shape(String.raw`^\s*['"]?~?\/[^\s/]+\/\S*`, (_, start) => "'\"~/".includes(start.charAt(0))),
  shape(String.raw`^\s*[+-]\s*\d+\s`, (_, start) => "+-".includes(start.charAt(0))),
  shape(String.raw`^(?:\+\+\+|---|@@) `, (line) => "+-@".includes(line.charAt(0))),
  shape(String.raw`^\s*\[?\d{4}-\d\d-\d\d[T ]\d\d:`, (_, start) => start.startsWith("[") || isDigit(start.charCodeAt(0))),
  // Symbols alone ("───", "****"): no letter, digit or space between the line's ends.
  shape(String.raw`^\s*[^\p{L}\p{N}\s]{3,}\s*$`, (_, start) => !/[\sA-Za-z0-9]/.test(start.trimEnd())),
  BANNER,
];

function shape(source: string, may: (line: string, start: string) => boolean) {
  return { source, may, pattern: lazily(() => new RegExp(source, "u")) };
}

/** A line that is pasted output, a stack frame, a path or a diff, not a sentence a person wrote: all the shapes at once. */
const PASTED_LINE = new RegExp([OUTPUT_START, ...SHAPES.map((s) => s.source)].join("|"), "u");

/** A list item a person typed: kept, even when indented. */
const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+\S/;

export function isPastedLine(line: string): boolean {
  return checkPastedLine(line, true);
}

/** `isPastedLine` with its patterns asked of every line (what the tests hold its shortcuts to). */
export function isPastedLineUnhinted(line: string): boolean {
  return checkPastedLine(line, false);
}

function checkPastedLine(line: string, hinted: boolean): boolean {
  // The patterns are long, and most lines are prose: the first characters say which can match.
  // Most of all start with a letter (no white space, no list mark before it): asked first, in few steps.
  if (hinted && isLetter(line.charCodeAt(0))) return pastedFromLetter(line, line);
  const start = line.trimStart();
  const first = start.charAt(0);
  const listed = first !== "" && ("-*+•".includes(first) || isDigit(start.charCodeAt(0)));
  if ((!hinted || listed) && LIST_ITEM.test(line) && !/^\s*[+-]\s*\d+\s/.test(line)) return false;
  // People do not indent prose; pasted terminal output and wrapped error messages are.
  if ((!hinted || line.startsWith("  ") || line.startsWith("\t")) && /^(?: {2,}|\t)\S/.test(line)) return true;
  if (!hinted) return PASTED_LINE.test(line);
  if (first === "") return false;
  // Prose starts with a letter: of the shapes, only output's openings, an error's name and a banner can.
  if (isLetter(start.charCodeAt(0))) return pastedFromLetter(line, start);
  if ("➜{[|│─┌└├╭╰┃━".includes(first) || ((first === "$" || first === ">") && OUTPUT_OPENINGS.some((opening) => start.startsWith(opening))))
    return true;
  return SHAPES.some((s) => s.may(line, start) && s.pattern().test(line));
}

/** A line whose first character after its white space (`start`) is a letter: of the shapes, only output's openings, an error's name and a banner can be it. */
function pastedFromLetter(line: string, start: string): boolean {
  const code = start.charCodeAt(0);
  // "at ", "npm …", "node:", "Debugger attached", "Waiting for the debugger".
  if ((code === 0x61 || code === 0x6e || code === 0x44 || code === 0x57) && OUTPUT_OPENINGS.some((opening) => start.startsWith(opening)))
    return true;
  if ((start.includes("Error:") || start.includes("Exception:")) && ERROR_NAME.pattern().test(line)) return true;
  return hasVersion(start) && BANNER.pattern().test(line);
}

/** ASCII letters. */
function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** What `OUTPUT_START` takes after its first characters. */
const OUTPUT_OPENINGS = [
  "$ ",
  "> ",
  "at ",
  "npm ERR",
  "npm error",
  "npm notice",
  "npm warn",
  "node:",
  "Debugger attached",
  "Waiting for the debugger",
];

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** ASCII letters, digits and `_`: the patterns' `\w`. */
function isWordChar(code: number): boolean {
  return isDigit(code) || isLetter(code) || code === 0x5f;
}

/** " v" and a digit: a version banner's "bun test v1.3.2". */
function hasVersion(text: string): boolean {
  for (let at = text.indexOf(" v"); at !== -1; at = text.indexOf(" v", at + 1)) if (isDigit(text.charCodeAt(at + 2))) return true;
  return false;
}

export interface UserProse {
  /** The user's own words: paragraphs joined with a blank line. */
  prose: string;
  /** The same paragraphs one by one (what `prose` splits into at its blank lines). */
  paragraphs: string[];
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
  return { prose: kept.join("\n\n"), paragraphs: kept, pastes };
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
