/**
 * Every cut we make for display, and only of text that has nothing left to hide: a cut first and
 * withheld after would print the start of a key or a token (`sk-proj-SECRETKEY1…`), and a prefix
 * of a secret is most of it. `Cleared` text comes only from `printed.ts`, which withholds (and,
 * for people, redacts) the whole value; these helpers take nothing else.
 */
declare const cleared: unique symbol;
export type Cleared = string & { readonly [cleared]: true };

/** Only printed.ts calls this, with text it has just cleared. */
export function markCleared(text: string): Cleared {
  return text as Cleared;
}

/** Columns a character takes on a terminal: East Asian wide characters and emoji two, combining marks none. */
function charWidth(code: number): number {
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || code === 0xfe0f) return 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0) ?? 0);
  return width;
}

/** Runs of whitespace (line breaks, tabs) as one space, cut to `max` characters with an ellipsis; never half a character. */
export function cutLine(text: Cleared, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : flat;
}

/** `text` cut to `width` columns, an ellipsis marking the cut. */
export function fitEnd(text: Cleared, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0) ?? 0);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** A path cut in its middle to `width` columns, so both its start and its file name show. */
export function fitMiddle(text: Cleared, width: number): string {
  if (displayWidth(text) <= width || width < 5) return text;
  const chars = [...text];
  const keepEnd = Math.ceil((width - 1) / 2);
  const keepStart = width - 1 - keepEnd;
  return `${chars.slice(0, keepStart).join("")}…${chars.slice(chars.length - keepEnd).join("")}`;
}
