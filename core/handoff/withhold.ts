/**
 * The one rule for strings that must never leave the process in any output: the configured API
 * key (an endpoint or a session may quote it back). Unlike a redacted secret, a withheld string
 * is never restored: requests, documents, files and printed lines all carry `WITHHELD` instead.
 */

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

/** The forms a secret takes in text: as it is, inside JSON text, inside a URL. */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
  const encoded = uriEncoded(secret);
  if (encoded !== undefined) forms.add(encoded);
  return [...forms];
}

/** A pattern for one form; a short one must not be part of a longer word. */
function patternFor(form: string, anywhere: boolean): string {
  const body = escapeRegExp(form);
  if (anywhere) return body;
  const before = WORD_CHAR.test(form[0] ?? "") ? "(?<![A-Za-z0-9])" : "";
  const after = WORD_CHAR.test(form.at(-1) ?? "") ? "(?![A-Za-z0-9])" : "";
  return `${before}${body}${after}`;
}

/**
 * A function that replaces each of `secrets` (and its JSON-escaped and URL-encoded forms) by
 * `WITHHELD`. Secrets shorter than `MIN_WITHHELD_LENGTH` are ignored.
 */
export function createWithholder(secrets: readonly (string | undefined)[]): Withhold {
  const kept = [...new Set(secrets)].filter((s): s is string => s !== undefined && s.length >= MIN_WITHHELD_LENGTH);
  if (kept.length === 0) return (text) => text;
  const forms = kept.flatMap((secret) => formsOf(secret).map((form) => ({ form, anywhere: secret.length >= WITHHELD_ANYWHERE_LENGTH })));
  // Longest first, so a form that contains another is replaced whole.
  forms.sort((a, b) => b.form.length - a.form.length);
  const pattern = new RegExp(forms.map((f) => patternFor(f.form, f.anywhere)).join("|"), "g");
  return (text) => (forms.some((f) => text.includes(f.form)) ? text.replace(pattern, WITHHELD) : text);
}
