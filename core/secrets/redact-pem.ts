/**
 * The tail of a private key whose BEGIN line is not in the text (output cut by `tail`, a
 * terminal, a log): base64 lines and the END line. TOKEN_PATTERN's private-key rule needs the
 * BEGIN line, so tails are found from the END line backwards, in code: a pattern that starts at
 * every base64 line would rescan the rest of the run from each one.
 */

const END_LINE = /-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;
const BASE64 = /[A-Za-z0-9+/=]/;
/** Fewer base64 characters than this before an END line are not a key (a parser's string, say). */
const MIN_TAIL_CHARS = 16;

export const KEY_TAIL_HINT = "PRIVATE KEY";

function isBase64At(text: string, i: number): boolean {
  const c = text[i];
  if (c === undefined || !BASE64.test(c)) return false;
  // The `n` of an escaped line break (`\n` in JSON text), or the `t` of an escaped tab, is not base64.
  return !((c === "n" || c === "r" || c === "t") && text[i - 1] === "\\");
}

/**
 * A line of key text long enough that blanks around it are a flattened line break, not prose:
 * `echo $KEY` unquoted, a log or a path joins a key's lines with spaces (PEM lines are 64).
 */
const FLATTENED_LINE_CHARS = 32;

/** Blanks, and what tools and formats put at the start or the end of a line: `>` quotes, table pipes, `12:`. */
const LINE_DECORATION = new Set([" ", "\t", "\r", ">", "|", ":"]);

/**
 * The start of the line break that ends at `end` (real or escaped, with `\r`s and blanks around
 * it, and the decoration of the lines on both sides: the next line's prefix, `cat -n`'s number
 * included, and the previous line's closing pipe), or `undefined` when the text before `end` is
 * not a line break.
 */
function lineBreakBefore(text: string, end: number): number | undefined {
  let i = end;
  let newline = false;
  for (;;) {
    const c = text[i - 1];
    if (c === "\n") newline = true;
    if (c === "\n" || (c !== undefined && LINE_DECORATION.has(c))) i--;
    // A line number belongs to the line after the break only.
    else if (!newline && c !== undefined && c >= "0" && c <= "9") i--;
    else if ((c === "n" || c === "r" || c === "t") && text[i - 2] === "\\") {
      newline ||= c === "n";
      i -= 2;
      while (text[i - 1] === "\\") i--; // `\\n`: JSON text shown inside JSON text
    } else return newline ? i : undefined;
  }
}

/** The base64 run that ends at `end`: where it starts. */
function runStart(text: string, end: number): number {
  let j = end;
  while (j > 0 && isBase64At(text, j - 1)) j--;
  return j;
}

/**
 * The start of the blanks that end at `end`, when they stand for a line break of a flattened
 * key: a long base64 run before them (the line above). Otherwise `undefined`.
 */
function flattenedBreakBefore(text: string, end: number): number | undefined {
  let i = end;
  while (text[i - 1] === " " || text[i - 1] === "\t") i--;
  if (i === end) return undefined;
  return i - runStart(text, i) >= FLATTENED_LINE_CHARS ? i : undefined;
}

/** The line break (real, escaped, or a flattened key's blanks) that ends at `end`. */
function breakBefore(text: string, end: number): number | undefined {
  return lineBreakBefore(text, end) ?? flattenedBreakBefore(text, end);
}

/** Before the END line any blanks will do: its last line may be short (`Gh==`); the lines above it decide. */
function breakBeforeEnd(text: string, end: number): number {
  let i = end;
  while (text[i - 1] === " " || text[i - 1] === "\t") i--;
  return lineBreakBefore(text, end) ?? i;
}

/** Where the base64 lines that end at the END line at `end` start; `end` when there are none. */
function tailStart(text: string, end: number): number {
  let start = end;
  let base64Chars = 0;
  let lineEnd = breakBeforeEnd(text, end);
  for (;;) {
    const j = runStart(text, lineEnd);
    const run = lineEnd - j;
    if (run === 0) break;
    const above = j === 0 ? undefined : breakBefore(text, j);
    // The first line of a cut tail may follow other text on its line (`"content":"MIIE…`);
    // a short word there is more likely prose than key.
    if (above === undefined && j > 0 && run < MIN_TAIL_CHARS) break;
    start = j;
    base64Chars += run;
    if (above === undefined) break;
    lineEnd = above;
  }
  return base64Chars >= MIN_TAIL_CHARS ? start : end;
}

/** The spans (start, end) of every private-key tail in `text`, in order, not overlapping. */
export function findKeyTails(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let floor = 0;
  for (const match of text.matchAll(END_LINE)) {
    const index = match.index ?? 0;
    const start = Math.max(tailStart(text, index), floor);
    const end = index + match[0].length;
    if (start < index) spans.push([start, end]);
    floor = end;
  }
  return spans;
}
