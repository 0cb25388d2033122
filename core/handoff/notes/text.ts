/** Small text tools for pulling sentences out of chat turns and keeping them short and safe. */
import { markFencedLines } from "../fences.ts";
import { isPastedLine } from "./prose.ts";

/** Letters of scripts written without spaces between words (Chinese, Japanese). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAS_UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Words in a text: whitespace-separated tokens holding a letter or digit; in scripts written
 * without spaces (Chinese, Japanese) every two characters count as a word, so a Japanese request
 * is not "one word".
 */
export function countWords(text: string): number {
  if (!HAS_UNSPACED.test(text)) return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  let count = 0;
  for (const token of text.split(/\s+/)) {
    const unspaced = token.match(UNSPACED)?.length ?? 0;
    if (unspaced > 0) count += Math.ceil(unspaced / 2) + (/[\p{L}\p{N}]/u.test(token.replace(UNSPACED, "")) ? 1 : 0);
    else if (/[\p{L}\p{N}]/u.test(token)) count += 1;
  }
  return count;
}

/** Collapses every run of whitespace (newlines included) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Shortens one-line text to `max` characters, marking the cut with `…`. A cut that leaves an
 * odd number of backticks gets one closing backtick, so a code span cannot swallow what follows.
 */
export function capText(text: string, max: number): string {
  const flat = collapseWhitespace(text);
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, Math.max(1, max - 1)).trimEnd();
  if ((cut.match(/`/g) ?? []).length % 2 === 1) cut += "`";
  return `${cut}…`;
}

/** Drops fenced code blocks (``` or ~~~), which hold code and logs rather than prose. */
export function stripCodeBlocks(text: string): string {
  const lines = text.split("\n");
  const fenced = markFencedLines(lines);
  return lines.filter((_, i) => fenced[i] === false).join("\n");
}

/**
 * Splits prose into trimmed sentences: code blocks and pasted output are dropped, each line
 * stands alone, and a line splits after `.`, `!` or `?` followed by a space.
 */
export function splitSentences(text: string): string[] {
  // A short text (one line of a printed file) is split afresh: a lookup costs about what splitting
  // it does, and a file's lines would push out the replies that are split again.
  if (text.length < RECENT_SPLIT_LENGTH) return sentencesOf(text);
  let sentences = RECENT_SPLITS.get(text);
  if (sentences === undefined) {
    sentences = sentencesOf(text);
    if (RECENT_SPLITS.size >= RECENT_SPLITS_KEPT) RECENT_SPLITS.delete(RECENT_SPLITS.keys().next().value as string);
    RECENT_SPLITS.set(text, sentences);
  }
  // A copy: callers filter and keep the array as their own, and the kept one must stay as it was split.
  return [...sentences];
}

/**
 * The last texts split, and their sentences. The offline engine's readers split the same reply
 * or request one after another (its decisions, its ending, the offer it closes with, what it
 * reported), so a few recent splits spare most of the work; a bounded number of texts is kept,
 * the oldest dropped first, so nothing grows with the session.
 */
const RECENT_SPLITS = new Map<string, readonly string[]>();
const RECENT_SPLITS_KEPT = 32;
const RECENT_SPLIT_LENGTH = 80;

function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const line of stripCodeBlocks(text).split("\n")) if (!isPastedLine(line)) sentencesOfLine(line, sentences);
  return sentences;
}

/**
 * The sentences of a paragraph of `userProse`: as `splitSentences` splits it, without asking again
 * what userProse asked of each line (such a paragraph holds no code and no pasted line).
 */
export function proseSentences(paragraph: string): string[] {
  const sentences: string[] = [];
  for (const line of paragraph.split("\n")) sentencesOfLine(line, sentences);
  return sentences;
}

/** Adds the sentences of one line of prose to `sentences`. */
function sentencesOfLine(line: string, sentences: string[]): void {
  // List markers and heading marks are layout, not words (and must never become a heading of ours).
  const bare = line.replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/, "").trim();
  // A `?` or `.` inside inline code (`a ?? b`) ends no sentence.
  const spans: string[] = [];
  const masked = bare.replace(/`[^`]*`/g, (span) => `\u0000${spans.push(span) - 1}\u0000`);
  // Chinese and Japanese end a sentence with 。！？ and no space.
  for (const part of masked.split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
    const sentence = part.replace(/\u0000(\d+)\u0000/g, (_, i: string) => spans[Number(i)] ?? "").trim();
    if (sentence !== "") sentences.push(sentence);
  }
}

/** The first paragraph of prose in a text (code blocks dropped), on one line. */
export function firstParagraph(text: string): string {
  for (const paragraph of stripCodeBlocks(text).split(/\n\s*\n/)) {
    const flat = collapseWhitespace(paragraph);
    if (flat !== "") return flat;
  }
  return "";
}

/** A slash command typed into the agent's editor ("/mode", "/them"), not a request. */
export function isSlashCommand(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith("/")) return false;
  // "/" and then letters, digits, "_", ":" and "-" only (`/^\/[\w:-]*$/`), read by hand: a pasted path stops it at its next "/".
  for (let i = 1; i < trimmed.length; i++) {
    const code = trimmed.charCodeAt(i);
    const word = (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
    if (!word && code !== 0x3a && code !== 0x2d) return false;
  }
  return true;
}

const NOISE_LINE =
  /^(Command exited with code -?\d+|Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|\(no output\)|at .*|npm notice\b.*|> .*)$/;
/** Lines that name the error best, in order: an error with its message, a failed test, any error word, a failure word. */
const ERROR_TIERS = [
  /\b[A-Z]\w*(?:Error|Exception):|\berror TS\d{3,5}\b|\bERR! code\b|\bE[A-Z0-9]{3,}:/,
  /^\s*[✗✘✕×●]\s/,
  /(\b[A-Z]\w*Error\b|\berror\b|\bERR!|\bE[A-Z0-9]{3,}\b|exception|fatal|\bTS\d{4}\b|no such file|not found|cannot|can't|denied|refused|^\s*FAIL\b)/i,
  /\b(fail|failed|failure|failing|invalid|aborted)\b/i,
];

/**
 * The line of a failed tool's output that says what went wrong: the best line by
 * `ERROR_TIERS`, else the first meaningful line; `undefined` when there is nothing but noise.
 * Very long lines (minified code) are passed over.
 */
export function firstErrorLine(output: string): string | undefined {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && l.length <= 400 && !NOISE_LINE.test(l));
  for (const tier of ERROR_TIERS) {
    const line = lines.find((l) => tier.test(l));
    if (line !== undefined) return line;
  }
  return lines[0];
}

/**
 * The distinct lines of one run's output that name its errors, up to `max`, in order: every line
 * of the best tier that matched (all the `error TS…` lines of a build, not only the first), since
 * the set is what points at the cause.
 */
export function errorLines(output: string, max = 10): string[] {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && l.length <= 400 && !NOISE_LINE.test(l));
  for (const tier of ERROR_TIERS) {
    const found = [...new Set(lines.filter((l) => tier.test(l)))];
    if (found.length > 0) return found.slice(0, max);
  }
  return [];
}

/** What a failed run says went wrong: its error line, and the expected and received values a test printed. */
export function errorExcerpt(output: string): string | undefined {
  const line = firstErrorLine(output);
  const expected = /^\s*Expected:?\s+(.+)$/m.exec(output)?.[1]?.trim();
  const received = /^\s*Received:?\s+(.+)$/m.exec(output)?.[1]?.trim();
  if (expected === undefined || received === undefined) return line;
  return `${line ?? "failed"} (expected ${capText(expected, 80)}, received ${capText(received, 80)})`;
}
