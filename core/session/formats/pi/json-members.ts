/**
 * Reading the members of a JSON object out of its text, without parsing its values: where each
 * key and value sits, so a line can be edited in place and every other byte kept (numbers past
 * 2^53, `1.0`, escapes, key order). Iterative, so nesting depth costs nothing. The text is
 * assumed to be valid JSON (it has already parsed); anything else gives `undefined`.
 */

/** Where one member of an object sits in the text. */
export interface MemberSpan {
  key: string;
  /** Index of the key's opening quote. */
  start: number;
  valueStart: number;
  /** Index just past the value. */
  valueEnd: number;
}

export interface ObjectSpan {
  members: MemberSpan[];
  /** Index of the `{`. */
  open: number;
  /** Index of the `}`. */
  close: number;
}

const QUOTE = 34;
const BACKSLASH = 92;

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  return i;
}

/** Index just past the string whose opening quote is at `i`, or -1. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the value that starts at `i`, or -1. */
function skipValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return skipString(text, i);
  if (first === "{" || first === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        j = skipString(text, j);
        if (j === -1) return -1;
        j--; // the loop steps past the closing quote
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !",}] \t\n\r".includes(text[j] ?? "")) j++;
  return j > i ? j : -1;
}

function decodeKey(raw: string): string | undefined {
  try {
    const key: unknown = JSON.parse(raw);
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The members of the object that starts at `from` (after any whitespace), in text order. */
export function readObjectMembers(text: string, from = 0): ObjectSpan | undefined {
  const open = skipWhitespace(text, from);
  if (text[open] !== "{") return undefined;
  const members: MemberSpan[] = [];
  let i = skipWhitespace(text, open + 1);
  if (text[i] === "}") return { members, open, close: i };
  for (;;) {
    if (text[i] !== '"') return undefined;
    const start = i;
    i = skipString(text, i);
    if (i === -1) return undefined;
    const key = decodeKey(text.slice(start, i));
    if (key === undefined) return undefined;
    i = skipWhitespace(text, i);
    if (text[i] !== ":") return undefined;
    const valueStart = skipWhitespace(text, i + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd === -1) return undefined;
    members.push({ key, start, valueStart, valueEnd });
    i = skipWhitespace(text, valueEnd);
    if (text[i] === "}") return { members, open, close: i };
    if (text[i] !== ",") return undefined;
    i = skipWhitespace(text, i + 1);
  }
}
