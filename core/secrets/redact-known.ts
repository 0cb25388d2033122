import { wordBefore } from "./redact-rules.ts";

/**
 * Once a string is found to be a secret (the value of `password=…`, a URL's password), every
 * occurrence of it is that secret, wherever it recurs without its key: a later message, the
 * focus, the system prompt, a tool argument. This file finds those occurrences.
 */

/**
 * Shorter than this, a found secret is replaced only where its rule found it: a short value
 * (`admin`, `12345`) is also a common word or number, and replacing it everywhere would wreck
 * the text around it while protecting little.
 */
export const MIN_KNOWN_SECRET_LENGTH = 6;

/**
 * From this length on a found secret is replaced even inside a longer word: no ordinary text
 * holds a run this long by chance. Shorter ones only as whole tokens (`Hunter2` not in `Hunter2x`).
 */
const KNOWN_ANYWHERE_LENGTH = 12;

const WORD_CHAR = /[A-Za-z0-9]/;

/**
 * Whether `secret` may stand at `start` of `text`: a short one not inside a longer word. After an
 * escape it stands (`\x1b[31mHunter2`, `\nHunter2`): the escape's last letter is not the word's.
 */
function standsAt(text: string, start: number, secret: string): boolean {
  if (secret.length >= KNOWN_ANYWHERE_LENGTH) return true;
  if (WORD_CHAR.test(secret[0] ?? "") && wordBefore(text, start)) return false;
  return !(WORD_CHAR.test(secret.at(-1) ?? "") && WORD_CHAR.test(text[start + secret.length] ?? ""));
}

/** A function that replaces every occurrence of a known secret by its placeholder. */
export type ReplaceKnown = (text: string) => string;

// A rolling hash over the first `MIN_KNOWN_SECRET_LENGTH` characters (Rabin–Karp): one pass
// over a text finds every place a known secret may start, however many secrets there are.
const WINDOW = MIN_KNOWN_SECRET_LENGTH;
const BASE = 31;
const BASE_TO_WINDOW = Array.from({ length: WINDOW - 1 }).reduce<number>((power) => Math.imul(power, BASE), 1);

function hashAt(text: string, start: number): number {
  let hash = 0;
  for (let k = 0; k < WINDOW; k++) hash = (Math.imul(hash, BASE) + text.charCodeAt(start + k)) | 0;
  return hash;
}

/**
 * One linear scan per text for all `known` secrets (original → placeholder) at once; where two
 * start at one place the longest wins, so a secret that contains another is replaced whole.
 * `placeholders` matches the placeholders already in a text: they are stepped over whole, so a
 * secret that is also part of a placeholder (`password` in `[REDACTED:password:1]`) never breaks one.
 */
export function createKnownReplacer(known: ReadonlyMap<string, string>, placeholders: RegExp): ReplaceKnown {
  // By the hash of their start: the lengths there (longest first) and the secrets, so a place
  // where thousands of secrets share a start costs one look-up per length, not one per secret.
  const byHead = new Map<number, { lengths: number[]; secrets: Set<string> }>();
  for (const secret of known.keys()) {
    if (secret.length < WINDOW) continue;
    const head = hashAt(secret, 0);
    const bucket = byHead.get(head) ?? { lengths: [], secrets: new Set<string>() };
    if (!bucket.lengths.includes(secret.length)) bucket.lengths.push(secret.length);
    bucket.secrets.add(secret);
    byHead.set(head, bucket);
  }
  if (byHead.size === 0) return (text) => text;
  for (const bucket of byHead.values()) bucket.lengths.sort((a, b) => b - a);
  const secretAt = (text: string, i: number, head: number): string | undefined => {
    const bucket = byHead.get(head);
    if (bucket === undefined) return undefined;
    for (const length of bucket.lengths) {
      const candidate = text.slice(i, i + length);
      if (bucket.secrets.has(candidate) && standsAt(text, i, candidate)) return candidate;
    }
    return undefined;
  };
  const skipped = new RegExp(placeholders.source, "g");

  return (text) => {
    const spans = [...text.matchAll(skipped)].map((m) => [m.index, m.index + m[0].length] as const);
    let out = "";
    let from = 0;
    let span = 0;
    let hash = text.length >= WINDOW ? hashAt(text, 0) : 0;
    for (let i = 0; i + WINDOW <= text.length; ) {
      const inPlaceholder = spans[span];
      if (inPlaceholder !== undefined && i >= inPlaceholder[0]) {
        i = Math.max(i, inPlaceholder[1]);
        span++;
        if (i + WINDOW <= text.length) hash = hashAt(text, i);
        continue;
      }
      const secret = secretAt(text, i, hash);
      const placeholder = secret === undefined ? undefined : known.get(secret);
      if (secret !== undefined && placeholder !== undefined) {
        out += text.slice(from, i) + placeholder;
        i += secret.length;
        from = i;
        if (i + WINDOW <= text.length) hash = hashAt(text, i);
        continue;
      }
      i++;
      if (i + WINDOW <= text.length)
        hash = (Math.imul(hash - Math.imul(text.charCodeAt(i - 1), BASE_TO_WINDOW), BASE) + text.charCodeAt(i + WINDOW - 1)) | 0;
    }
    return from === 0 ? text : out + text.slice(from);
  };
}
