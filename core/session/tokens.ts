import type { ContextMessage } from "./messages.ts";

/** What one image costs in our estimate; providers charge roughly this for a typical screenshot. */
export const IMAGE_TOKENS = 1200;

/** A run of word characters at least this long, with a digit and a letter in it, reads as random (base64, hex, a key). */
const DENSE_RUN = 16;

/** Each ASCII code's class: 0 not a word character, 1 a word character, 2 a digit (a word character too). */
const ASCII_CLASS = (() => {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    const symbol = code === 43 /* + */ || code === 45 /* - */ || code === 61 /* = */ || code === 95; /* _ */
    table[code] = code >= 48 && code <= 57 ? 2 : letter || symbol ? 1 : 0;
  }
  return table;
})();

/** Text whose estimate is its length: ASCII with no digit (every word run prose, every other character a quarter). */
const NOT_PLAIN = /[0-9\u0080-\uffff]/;
const NOT_ASCII = /[\u0080-\uffff]/;
const ASCII_RUNS = /[\u0000-\u007f]+/g;
const TWO_BYTE_RUNS = /[\u0080-\u07ff]+/g;
/**
 * From the next digit to the end of its word run. `lastIndex` is set before each search (the
 * estimate's only state, reset on every call).
 */
const TO_RUN_END = /[0-9][A-Za-z0-9+=_-]*/g;

/**
 * Our estimate of a text's tokens, in quarters of a token so that parts add up exactly. Made so
 * that it is never much below what a tokenizer counts, whatever the script (tokenizers take
 * about four characters of English a token, but far fewer of anything else):
 * - ASCII: a quarter token a character; a run of digits a third of a token a digit (numbers are
 *   cut into groups of three); a run of 16 or more letters and digits mixed (base64, hex, a key)
 *   three quarters a character;
 * - two-byte characters (accented Latin, Greek, Cyrillic, Hebrew, Arabic): half a token;
 * - other characters of the Basic Multilingual Plane (CJK, kana, Hangul, symbols): a token and a half;
 * - characters beyond it (emoji, rare CJK): three tokens.
 *
 * Counted as a quarter a character, plus what each class adds: most text is ASCII with digits
 * here and there, so regular expressions (native) find the non-ASCII characters and the digits,
 * and only the word runs holding a digit are walked. A surrogate pair is two code units of six
 * quarters, a lone surrogate one: the rule above, unit by unit.
 */
export function estimateTextQuarters(text: string): number {
  if (!NOT_PLAIN.test(text)) return text.length;
  let quarters = text.length;
  if (NOT_ASCII.test(text)) {
    const wide = text.replace(ASCII_RUNS, "");
    const beyondTwoBytes = wide.replace(TWO_BYTE_RUNS, "").length;
    quarters += wide.length - beyondTwoBytes + beyondTwoBytes * 5;
  }
  // Each digit found opens a word run: on to its end (a native search; `test` builds no match),
  // then back over it to its start, which the previous search stopped before.
  TO_RUN_END.lastIndex = 0;
  while (TO_RUN_END.test(text)) {
    const end = TO_RUN_END.lastIndex;
    let start = end;
    let allDigits = true;
    for (; start > 0; start--) {
      const code = text.charCodeAt(start - 1);
      const kind = code < 128 ? (ASCII_CLASS[code] ?? 0) : 0;
      if (kind === 0) break;
      if (kind === 1) allDigits = false;
    }
    const length = end - start;
    // What the run adds to a quarter a character: digits 4/3 (a third more), random text 3 (2 more).
    quarters += allDigits ? Math.ceil(length / 3) : length >= DENSE_RUN ? length * 2 : 0;
  }
  return quarters;
}

/**
 * Quarter tokens of a text: `estimateTextQuarters` itself, or one run's memo of it
 * (`rememberingQuarters`), which also keeps what each request message, list of messages and list
 * of tools it measured costs, by the object: a request is measured when planned, when checked
 * and when sent, and a message passed on as it is costs what it did. (A request's lists are
 * never changed once built: a changed request is a copy.)
 */
export type TextQuarters = ((text: string) => number) & { readonly parts?: WeakMap<object, number> };

/** Shorter texts are counted again each time: looking one up would cost about what counting it does. */
const REMEMBERED_LENGTH = 256;

/**
 * The most characters a memo keeps texts alive for: most are the context's own strings, alive
 * anyway, but a condensed run also counts transcripts it builds and drops; past this, texts are
 * counted afresh rather than kept.
 */
const REMEMBERED_CHARS = 1 << 25;

/**
 * `estimateTextQuarters` for one handoff, each long text counted once: the plan, its checks and
 * the count of what is sent measure the same messages several times over (the same strings, or
 * copies of them, which a lookup tells apart natively, far faster than counting again).
 * Scoped to whoever makes it, so nothing outlives the run.
 */
export function rememberingQuarters(): TextQuarters {
  const known = new Map<string, number>();
  let kept = 0;
  const count = (text: string) => {
    if (text.length < REMEMBERED_LENGTH) return estimateTextQuarters(text);
    let quarters = known.get(text);
    if (quarters === undefined) {
      quarters = estimateTextQuarters(text);
      if (kept + text.length <= REMEMBERED_CHARS) {
        known.set(text, quarters);
        kept += text.length;
      }
    }
    return quarters;
  };
  return Object.assign(count, { parts: new WeakMap<object, number>() });
}

/** Tokens of a text, by the one estimate every count of ours uses (see `estimateTextQuarters`). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(estimateTextQuarters(text) / 4);
}

/**
 * Tokens a message costs when sent. Reasoning blocks are not counted: we never send them
 * (Chat Completions has no portable place for another model's reasoning).
 */
export function estimateMessageTokens(message: ContextMessage, textQuarters: TextQuarters = estimateTextQuarters): number {
  let quarters = 0;
  let images = 0;
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        quarters += textQuarters(block.text);
        break;
      case "image":
        images++;
        break;
      case "toolCall":
        quarters += textQuarters(block.name) + textQuarters(JSON.stringify(block.arguments ?? {}));
        break;
      case "thinking":
        break;
    }
  }
  return Math.ceil(quarters / 4) + images * IMAGE_TOKENS;
}

export function estimateTokens(messages: readonly ContextMessage[], textQuarters: TextQuarters = estimateTextQuarters): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message, textQuarters);
  return total;
}
