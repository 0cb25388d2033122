/**
 * The one rule for strings that must never leave the process in any output: the configured
 * secrets (the API key, the base URL's credentials; an endpoint or a session may quote them
 * back). Unlike a redacted secret, a withheld string is never restored: requests, documents,
 * files and printed lines all carry `WITHHELD` instead.
 */
import { notAfterWord } from "./redact-rules.ts";

/** What a withheld string is replaced by, everywhere. */
export const WITHHELD = "[withheld]";

/**
 * Shorter than this, a key cannot protect anything (a few hundred thousand guesses at most), and
 * blanking each occurrence of two or three characters would wreck the text around it.
 */
export const MIN_WITHHELD_LENGTH = 4;

/**
 * From this length on a key is withheld wherever it occurs, even inside a longer word: no
 * ordinary text contains a run this long by chance. Shorter keys (`ollama`, `dummy1`) are
 * withheld only as whole tokens, so the words they are part of stay readable.
 */
export const WITHHELD_ANYWHERE_LENGTH = 12;

/** A function that replaces every withheld string in a text. */
export type Withhold = (text: string) => string;

const WORD_CHAR = /[A-Za-z0-9]/;

/**
 * Characters nobody sees: C0 controls but tab and newline, DEL, C1 controls, soft hyphen,
 * bidirectional marks, overrides and isolates, zero-width spaces and joiners, the word joiner
 * and invisible operators, the byte-order mark.
 */
const INVISIBLE_CHARS = String.raw`\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff`;

/**
 * A terminal escape sequence, whole (the source of a pattern): CSI such as colours, OSC such as
 * a window title with what it carries, and two-character escapes. Bounded, so a long run of
 * unterminated ones cannot make a scan quadratic.
 */
export const TERMINAL_ESCAPE = [
  String.raw`(?:\x1b\[|\u009b)[0-?]{0,32}[ -/]{0,8}[@-~]`,
  String.raw`(?:\x1b[\]P^_X]|[\u0090\u0098\u009d-\u009f])[^\x07\x1b\u009c]{0,256}(?:\x07|\x1b\\|\u009c)`,
  String.raw`\x1b[ -/]{0,4}[0-~]`,
].join("|");

/**
 * What a terminal shows as nothing: an escape sequence or one invisible character. A secret
 * with any of these between its characters still reads whole on a screen, so it is withheld in
 * that form too, whatever prints or stores it.
 */
const SHOWS_AS_NOTHING = `${TERMINAL_ESCAPE}|[${INVISIBLE_CHARS}]`;

/** Tells text that might hide a secret between invisible characters from text that cannot. */
const HAS_INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`);
/**
 * Anything but printable ASCII, tab and line feed: every invisible character is one of these, and
 * most text holds none, so this one-range test (several times faster than HAS_INVISIBLE's many
 * ranges) settles most texts alone.
 */
const BEYOND_PRINTABLE = /[^\t\n -~]/;
const BEYOND_PRINTABLE_RUNS = /[^\t\n -~]+/g;

/** Whether a text holds an invisible character: only its runs beyond printable ASCII are read by HAS_INVISIBLE (most text is ASCII with a few). */
function mayHideBetween(text: string): boolean {
  if (!BEYOND_PRINTABLE.test(text)) return false;
  // One pattern for every call, its place reset first: nothing in the loop calls back in here.
  BEYOND_PRINTABLE_RUNS.lastIndex = 0;
  for (let run = BEYOND_PRINTABLE_RUNS.exec(text); run !== null; run = BEYOND_PRINTABLE_RUNS.exec(text))
    if (HAS_INVISIBLE.test(run[0])) return true;
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function uriEncoded(text: string): string | undefined {
  try {
    return encodeURIComponent(text);
  } catch {
    return undefined; // a lone surrogate has no URL form
  }
}

/** JSON text of `text` without its quotes (`a"b` → `a\"b`). */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * The forms a secret takes in text: as it is, inside JSON text, inside JSON text quoted in JSON
 * text (a tool's JSON output stored in a session), inside a URL.
 */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, inJson(secret), inJson(inJson(secret))]);
  const encoded = uriEncoded(secret);
  if (encoded !== undefined) forms.add(encoded);
  return [...forms];
}

/** A pattern for one form, anything that shows as nothing allowed between its characters; a short one must not be part of a longer word. */
function patternFor(form: string, anywhere: boolean): string {
  const body = [...form].map(escapeRegExp).join(`(?:${SHOWS_AS_NOTHING})*`);
  if (anywhere) return body;
  // Not inside a longer word, but after an escape (`\x1b[31mdummy1`, `\ndummy1`), as a token starts.
  const before = WORD_CHAR.test(form[0] ?? "") ? notAfterWord("") : "";
  const after = WORD_CHAR.test(form.at(-1) ?? "") ? "(?![A-Za-z0-9])" : "";
  return `${before}${body}${after}`;
}

/**
 * A function that replaces each of `secrets` (and its JSON-escaped and URL-encoded forms, and
 * any of them with invisible characters or terminal escapes between its characters) by
 * `WITHHELD`. Secrets shorter than `MIN_WITHHELD_LENGTH` are ignored.
 */
export function createWithholder(secrets: readonly (string | undefined)[]): Withhold {
  return createWithholding(secrets).withhold;
}

/** A withholder (`createWithholder`), and the check that tells JSON text it leaves alone, unparsed. */
export interface Withholding {
  withhold: Withhold;
  /**
   * True only when withholding would give back every string and number the JSON text `json`
   * holds, and the text itself, as they are: it has no escape but `\n`, `\t`, `\"` and `\\` (so
   * each string in it reads as printable ASCII, line breaks and tabs, nothing invisible, and a form
   * in one would stand in the text as its JSON form), nothing beyond printable ASCII, no form of a
   * secret nor a form's JSON form; and no form is one `String(n)` may write (a number is read and
   * written again as `String(n)`, which the text need not hold: `1e5` is `100000`, `1e999` is
   * `Infinity`).
   */
  keepsJson(json: string): boolean;
  /**
   * `withhold` after each lone surrogate is replaced by U+FFFD (`toWellFormed`): what leaves the
   * process is text every reader takes. Printable ASCII, most text, is well-formed and hides
   * nothing between its characters: one test settles both, and only the forms are looked for.
   */
  withholdWellFormed: Withhold;
}

/**
 * An escape in JSON text other than `\n`, `\t`, `\"`, `\\` (a `\u…`, `\/`, `\b`, `\f`, `\r`), or a
 * backslash that ends the text. Read at each backslash, so it may say yes where there is none
 * (an escaped backslash before a letter, `\\d`), never no where there is one; a literal first,
 * so the search skips to the backslashes.
 */
const OTHER_ESCAPE = /\\(?:[^nt"\\]|$)/;

/**
 * JSON text with nothing beyond printable ASCII and no escape but `\n`, `\t`, `\"`, `\\`: each
 * string in it reads as printable ASCII, line breaks and tabs (none holds an invisible character
 * or a lone surrogate), each written in the one way JSON.stringify writes it, so a form of a
 * secret in one stands in the text as that form's JSON form (see `formsOf`).
 */
function plainJson(json: string): boolean {
  return !BEYOND_PRINTABLE.test(json) && !(json.includes("\\") && OTHER_ESCAPE.test(json));
}

/**
 * A form `String(n)` may write for a number read from JSON, in part or whole: its characters, or
 * `Infinity` (`1e999`, `-1e400` are read as ±Infinity, a word the text does not hold). A short
 * form is withheld only as a whole token, so `Infinity` and `-Infinity` are its only tokens.
 */
const NUMBER_FORM = /^(?:[0-9.eE+-]+|-?Infinity)$/;

export function createWithholding(secrets: readonly (string | undefined)[]): Withholding {
  const kept = [...new Set(secrets)].filter((s): s is string => s !== undefined && s.length >= MIN_WITHHELD_LENGTH);
  const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());
  if (kept.length === 0) return { withhold: (text) => text, keepsJson: plainJson, withholdWellFormed: wellFormed };
  const forms = kept.flatMap((secret) => formsOf(secret).map((form) => ({ form, anywhere: secret.length >= WITHHELD_ANYWHERE_LENGTH })));
  // Longest first, so a form that contains another is replaced whole.
  forms.sort((a, b) => b.form.length - a.form.length);
  const pattern = new RegExp(forms.map((f) => patternFor(f.form, f.anywhere)).join("|"), "g");
  // Most text holds neither a form as it is nor anything invisible: it skips the pattern.
  const texts = forms.map((f) => f.form);
  const holdsForm = (text: string) => {
    for (let i = 0; i < texts.length; i++) if (text.includes(texts[i] as string)) return true;
    return false;
  };
  // A string of JSON text is written there as its JSON form: a form found in one is found in the
  // text as that. Most forms are their own JSON form (no quote, backslash, line break or tab), but
  // the JSON form of a key's twice-escaped form (escaped three times) is no form of the key's.
  const jsonTexts = [...new Set(texts.map(inJson))].filter((form) => !texts.includes(form));
  const holdsJsonForm = (json: string) => {
    for (let i = 0; i < jsonTexts.length; i++) if (json.includes(jsonTexts[i] as string)) return true;
    return false;
  };
  const mayHold = (text: string) => holdsForm(text) || mayHideBetween(text);
  const numeric = forms.some((f) => NUMBER_FORM.test(f.form));
  const withhold = (text: string) => (mayHold(text) ? text.replace(pattern, WITHHELD) : text);
  return {
    withhold,
    keepsJson: (json) => !numeric && plainJson(json) && !holdsForm(json) && !holdsJsonForm(json),
    withholdWellFormed: (text) => {
      if (BEYOND_PRINTABLE.test(text)) return withhold(wellFormed(text));
      return holdsForm(text) ? text.replace(pattern, WITHHELD) : text;
    },
  };
}
