/** Small text tools for pulling sentences out of chat turns and keeping them short and safe. */
import { markFencedLines } from "../fences.ts";

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

/** Lines that are pasted terminal output or stack frames, not something a person wrote. */
const PASTED_LINE = /^\s*(➜|\$ |> |at |\{|\[|\||[│─┌└├]|npm (ERR|error)|Error:|node:)/;

/**
 * Splits prose into trimmed sentences: code blocks and pasted output are dropped, each line
 * stands alone, and a line splits after `.`, `!` or `?` followed by a space.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of stripCodeBlocks(text).split("\n")) {
    if (PASTED_LINE.test(line)) continue;
    const bare = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").trim();
    for (const part of bare.split(/(?<=[.!?])\s+/)) {
      const sentence = part.trim();
      if (sentence !== "") sentences.push(sentence);
    }
  }
  return sentences;
}

/** The first paragraph of prose in a text (code blocks dropped), on one line. */
export function firstParagraph(text: string): string {
  for (const paragraph of stripCodeBlocks(text).split(/\n\s*\n/)) {
    const flat = collapseWhitespace(paragraph);
    if (flat !== "") return flat;
  }
  return "";
}

const ACKNOWLEDGEMENTS = new Set(["ok", "okay", "k", "kk", "yo", "wow", "thanks", "thank you", "thx", "great", "nice", "cool", "perfect", "good", "lol", "hm", "hmm", "👍"]);

/** A reply like "ok" or "wow" that asks for nothing. */
export function isAcknowledgement(text: string): boolean {
  const bare = text.toLowerCase().replace(/[.!,\s]+/g, " ").trim();
  return bare === "" || ACKNOWLEDGEMENTS.has(bare);
}

/** A slash command typed into the agent's editor ("/mode", "/them"), not a request. */
export function isSlashCommand(text: string): boolean {
  return /^\/[\w:-]*$/.test(text.trim());
}

const NOISE_LINE = /^(Command exited with code -?\d+|Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|\(no output\)|at .*)$/;
const ERROR_LINE = /(\b[A-Z]\w*Error\b|\berror\b|exception|fatal|ENOENT|EACCES|\bTS\d{4}\b|no such file|not found|cannot|can't|denied|refused)/i;
const FAILURE_LINE = /\b(fail|failed|failure|invalid|aborted)\b/i;

/**
 * The line of a failed tool's output that says what went wrong: the first line naming an
 * error, else the first naming a failure, else the first meaningful line; `undefined` when
 * there is nothing but noise. Very long lines (minified code) are passed over.
 */
export function firstErrorLine(output: string): string | undefined {
  const lines = output.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l.length <= 400 && !NOISE_LINE.test(l));
  return lines.find((l) => ERROR_LINE.test(l)) ?? lines.find((l) => FAILURE_LINE.test(l)) ?? lines[0];
}

/** Makes `path` relative to `cwd` when it lies inside it, so lists stay short. */
export function relativeToCwd(path: string, cwd: string | undefined): string {
  if (!cwd || cwd === "/") return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : path;
}

/** Drops a leading `cd <cwd> &&`: the document states the working directory once. */
export function commandInCwd(command: string, cwd: string | undefined): string {
  if (!cwd) return command;
  for (const prefix of [`cd ${cwd} && `, `cd "${cwd}" && `, `cd '${cwd}' && `]) {
    if (command.startsWith(prefix)) return command.slice(prefix.length);
  }
  return command;
}

/** A command without the `| head`/`| tail`/`| grep` that only trimmed its output (and hid its status). */
export function withoutOutputFilter(command: string): string {
  return command.replace(/(?:\s*2>&1)?(?:\s*\|\s*(?:head|tail|grep)\b[^|]*)+$/, "").trim() || command;
}
