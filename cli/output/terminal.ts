import { TERMINAL_ESCAPE } from "../../core/index.ts";

/**
 * Characters a terminal acts on instead of showing: C0 controls except tab and newline (ESC
 * starts colour, title and clear-screen sequences; CR rewrites the line), DEL, the C1 controls
 * U+0080–U+009F (U+009B alone is a CSI on some terminals), and the bidirectional overrides,
 * isolates and marks that make text read in an order other than its bytes'.
 */
const TERMINAL_CONTROL_CHARS = String.raw`\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
const TERMINAL_CONTROLS = new RegExp(`[${TERMINAL_CONTROL_CHARS}]`, "g");

/**
 * Characters that do not show as themselves on a line a person reads and copies: every one
 * `stripControls` removes, line breaks and tabs, every other control and format character
 * (zero-width spaces and joiners, tags, the soft hyphen), the other invisible ones (variation
 * selectors, fillers), lone surrogates (written as U+FFFD, a different name), the line and
 * paragraph separators, and every space but the plain one (a no-break space looks like it).
 * A command to paste writes each of them as an escape (see shell-quote.ts), so what is read is
 * what runs.
 */
export const NOT_AS_ITSELF = new RegExp(
  String.raw`[${TERMINAL_CONTROL_CHARS}\t\n\r\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]`,
  "u",
);

/**
 * The same characters, plus the line and paragraph separators, that `JSON.stringify` leaves
 * raw (it escapes only U+0000–U+001F).
 */
const JSON_RAW_CONTROLS = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Escape sequences whole: removing only their ESC would leave their bodies (`[31m`) as text. */
const TERMINAL_ESCAPES = new RegExp(TERMINAL_ESCAPE, "g");

const NOT_AS_ITSELF_ALL = new RegExp(NOT_AS_ITSELF.source, "gu");

/** What a person sees of `text`: its escape sequences and every character that does not show as itself (NOT_AS_ITSELF) left out. */
export function visiblePart(text: string): string {
  return text.replace(TERMINAL_ESCAPES, "").replace(NOT_AS_ITSELF_ALL, "");
}

/** Text from a session, an endpoint, an agent or a path, made safe to show on a terminal: escape sequences and controls removed. */
export function stripControls(text: string): string {
  return text.replace(TERMINAL_ESCAPES, "").replace(TERMINAL_CONTROLS, "");
}

/**
 * `JSON.stringify`, with every character a terminal could act on written as a `\uXXXX` escape:
 * the same JSON value, byte-safe on a terminal and in a pipe alike.
 */
export function stringifyForTerminal(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A value from a session or the file system (an id, a title, a path) as one field of a line we
 * print: line breaks and tabs written as `\n`, `\r`, `\t`, so it can neither start a line that
 * looks like one of ours (`error: …`) nor shift a tab-separated column; the other controls are
 * stripped as everywhere (see stripControls).
 */
export function asField(text: string): string {
  return stripControls(text.replace(/[\t\n\r]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t")));
}
