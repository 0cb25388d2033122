/**
 * JSON checked from its bytes, without decoding it or building a value: what the pass-over
 * needs to PROVE that `JSON.parse` accepts a line, and to see the members it would read. Each
 * function returns where the value it checked ends, or -1 when the bytes are not JSON that
 * `JSON.parse` is sure to accept (then the line is simply parsed, and reported if broken).
 */

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const LETTER_E = 0x65;
const LETTER_CAPITAL_E = 0x45;
const PLUS = 0x2b;
const LETTER_U = 0x75;
/** The characters a short escape may name: `" \ / b f n r t`. */
const SHORT_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LITERALS = [new TextEncoder().encode("true"), new TextEncoder().encode("false"), new TextEncoder().encode("null")];
/** How many bytes of a string are looked at one by one before a native search takes over (a timestamp is 24). */
const SHORT_STRING = 32;
/** Nesting deeper than this is not vouched for (a parser may refuse it); no rollout line comes near. */
const MAX_DEPTH = 200;

/**
 * Reads an object member's value at `valueAt` (its first byte, after the colon and spaces) and
 * returns where the value ends, or -1. `keyEscaped`: the key is spelled with an escape, so its
 * bytes need not be its name.
 */
export type MemberReader = (
  bytes: Uint8Array,
  keyStart: number,
  keyEnd: number,
  keyEscaped: boolean,
  valueAt: number,
  depth: number,
) => number;

/** Set by `stringEnd`: whether the string it read holds an escape (its bytes are then not its text). */
let lastStringEscaped = false;
/**
 * The first backslash at or after where the walk of the current line has come, or -1: found by
 * the native `indexOf`, so a string without escapes (nearly all) costs one native search for its
 * closing quote and no look at its bytes one by one.
 */
let nextBackslash = -1;

/** Whether the string `stringEnd` read last holds an escape: then its bytes need not spell its text. */
export function wasEscaped(): boolean {
  return lastStringEscaped;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= NINE;
}

function isHexDigit(byte: number | undefined): boolean {
  return byte !== undefined && (isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

/** The first byte at or after `at` that is not JSON whitespace. */
function skipSpace(bytes: Uint8Array, at: number): number {
  for (;;) {
    const byte = bytes[at];
    if (byte !== SPACE && byte !== LF && byte !== CR && byte !== TAB) return at;
    at++;
  }
}

/**
 * The end (past its closing quote) of the string whose opening quote is at `at`; an unknown
 * escape is not JSON. A raw control character inside it (JSON forbids them) is not looked for:
 * see `isWholeObject`.
 */
export function stringEnd(bytes: Uint8Array, at: number): number {
  lastStringEscaped = false;
  // Most strings are short keys and values: a look at their first bytes costs less than a native call.
  const stop = Math.min(bytes.length, at + 1 + SHORT_STRING);
  for (let i = at + 1; i < stop; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) return i + 1;
    if (byte === BACKSLASH) break;
  }
  let from = at + 1;
  // Each search starts where the last one ended, and the quote is looked for again only once an
  // escape passed it (`\"`): a string of many escapes costs one pass, not one per escape.
  let quote = bytes.indexOf(QUOTE, from);
  for (;;) {
    if (quote === -1) return -1;
    if (nextBackslash !== -1 && nextBackslash < from) nextBackslash = bytes.indexOf(BACKSLASH, from);
    if (nextBackslash === -1 || nextBackslash > quote) return quote + 1;
    // An escape before that quote (perhaps escaping it): checked, and the search goes on after it.
    lastStringEscaped = true;
    const named = bytes[nextBackslash + 1] ?? 0;
    if (named === LETTER_U) {
      for (let h = nextBackslash + 2; h < nextBackslash + 6; h++) if (!isHexDigit(bytes[h])) return -1;
      from = nextBackslash + 6;
    } else if (SHORT_ESCAPES.has(named)) from = nextBackslash + 2;
    else return -1;
    nextBackslash = bytes.indexOf(BACKSLASH, from);
    if (quote < from) quote = bytes.indexOf(QUOTE, from);
  }
}

function numberEnd(bytes: Uint8Array, at: number): number {
  let i = at;
  if (bytes[i] === MINUS) i++;
  if (bytes[i] === ZERO) i++;
  else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
  else return -1;
  if (bytes[i] === DOT) {
    if (!isDigit(bytes[++i])) return -1;
    while (isDigit(bytes[i])) i++;
  }
  if (bytes[i] === LETTER_E || bytes[i] === LETTER_CAPITAL_E) {
    i++;
    if (bytes[i] === PLUS || bytes[i] === MINUS) i++;
    if (!isDigit(bytes[i])) return -1;
    while (isDigit(bytes[i])) i++;
  }
  return i;
}

function literalEnd(bytes: Uint8Array, at: number): number {
  for (const literal of LITERALS) {
    if (bytes[at] !== literal[0]) continue;
    for (let i = 1; i < literal.length; i++) if (bytes[at + i] !== literal[i]) return -1;
    return at + literal.length;
  }
  return -1;
}

/** The end of the value that starts at `at` (no whitespace before it). */
export function valueEnd(bytes: Uint8Array, at: number, depth: number): number {
  const byte = bytes[at];
  if (byte === QUOTE) return stringEnd(bytes, at);
  if (byte === OPEN_BRACE) return objectEnd(bytes, at, depth + 1);
  if (byte === OPEN_BRACKET) return arrayEnd(bytes, at, depth + 1);
  if (byte === MINUS || isDigit(byte)) return numberEnd(bytes, at);
  return literalEnd(bytes, at);
}

/** The end of the object whose `{` is at `at`, each member's value read by `member` (without one: only checked). */
export function objectEnd(bytes: Uint8Array, at: number, depth: number, member?: MemberReader): number {
  if (depth > MAX_DEPTH) return -1;
  let i = skipSpace(bytes, at + 1);
  if (bytes[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (bytes[i] !== QUOTE) return -1;
    const keyEnd = stringEnd(bytes, i);
    if (keyEnd === -1) return -1;
    const keyEscaped = lastStringEscaped;
    const colon = skipSpace(bytes, keyEnd);
    if (bytes[colon] !== COLON) return -1;
    const valueAt = skipSpace(bytes, colon + 1);
    const end = member === undefined ? valueEnd(bytes, valueAt, depth) : member(bytes, i + 1, keyEnd - 1, keyEscaped, valueAt, depth);
    if (end === -1) return -1;
    i = skipSpace(bytes, end);
    if (bytes[i] === CLOSE_BRACE) return i + 1;
    if (bytes[i] !== COMMA) return -1;
    i = skipSpace(bytes, i + 1);
  }
}

function arrayEnd(bytes: Uint8Array, at: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  let i = skipSpace(bytes, at + 1);
  if (bytes[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const end = valueEnd(bytes, i, depth);
    if (end === -1) return -1;
    i = skipSpace(bytes, end);
    if (bytes[i] === CLOSE_BRACKET) return i + 1;
    if (bytes[i] !== COMMA) return -1;
    i = skipSpace(bytes, i + 1);
  }
}

/**
 * Whether `bytes` are one JSON object and nothing else but whitespace, each top-level member
 * read by `member`: its structure, numbers, literals and escapes as JSON.parse checks them. One
 * thing is not looked for: a raw control character inside a string, which JSON.parse refuses.
 * Looking would cost a look at every byte of every string (encrypted reasoning is half a
 * rollout's bytes), no writer and no crash leaves one (a torn line ends at the cut, and the
 * next write onto it breaks the structure, which is checked), and such a line, refused by the
 * parse, would hold nothing to read either way: only its warning is lost.
 */
export function isWholeObject(bytes: Uint8Array, member: MemberReader): boolean {
  nextBackslash = 0; // not looked for yet: the first string looks from where it starts
  const start = skipSpace(bytes, 0);
  if (bytes[start] !== OPEN_BRACE) return false;
  const end = objectEnd(bytes, start, 1, member);
  return end !== -1 && skipSpace(bytes, end) === bytes.length;
}

/** Whether the bytes from `start` to `end` spell `name` exactly. */
export function spells(bytes: Uint8Array, start: number, end: number, name: Uint8Array): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name[i]) return false;
  return true;
}
