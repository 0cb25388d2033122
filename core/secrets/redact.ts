import {
  ASSIGNMENT_HINT,
  assignmentPatternFor,
  assignmentKind,
  escapesAround,
  isKeyInSentence,
  mayHoldAssignment,
  operatorFollows,
  plainLead,
  secretKeyKind,
  separationOf,
  wordsFollow,
} from "./redact-assignments.ts";
import { createKnownReplacer, type ReplaceKnown } from "./redact-known.ts";
import { findKeyTails, KEY_TAIL_HINT } from "./redact-pem.ts";
import { TOKEN_RULES } from "./redact-rules.ts";
import { heldRules, hintedRules, tokenPatterns } from "./redact-token-pattern.ts";
import { bareValueLength, isPlaceholderValue, judgeBareValue } from "./redact-values.ts";

/**
 * Replaces likely secrets with stable placeholders before text leaves the machine, and puts
 * them back in the final document. One redactor per handoff: the same secret always gets the
 * same placeholder (`[REDACTED:github-token:1]`), so the model can still tell two keys apart.
 */
export interface Redactor {
  redact(text: string): string;
  /** A string value found under `key` in structured data: the whole value is a secret when the key names one (`{"password": …}`). */
  redactAssigned(key: string, value: string): string;
  /**
   * Replaces every occurrence of a secret found so far (at least `MIN_KNOWN_SECRET_LENGTH`
   * characters) by its placeholder, also where no rule would find it (no key before it). Run it
   * over everything that leaves, after `redact` has seen all of it.
   */
  redactKnown(text: string): string;
  /** Puts the originals back wherever the text repeats a placeholder this redactor issued (also `\[…\]`-escaped). */
  restore(text: string): string;
  /** Distinct secrets replaced so far. */
  readonly count: number;
  /** Distinct secrets replaced so far, by kind. */
  readonly kinds: Record<string, number>;
}

export interface RedactorOptions {
  /**
   * The word placeholders start with (`REDACTED` → `[REDACTED:kind:n]`). A run picks one that
   * its input does not contain (see `choosePlaceholderWord`), so text that merely looks like a
   * placeholder is never taken for one. A function is asked once, when the first placeholder
   * is issued: most runs find no secret, and never need to look for the word in their input.
   */
  word?: string | (() => string);
}

export const DEFAULT_PLACEHOLDER_WORD = "REDACTED";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * The first placeholder word (`REDACTED`, `REDACTED-2`, `REDACTED-3`, …) such that no text of
 * the input contains `<word>:`: deterministic for one input, and absent from it. One pass over
 * the texts that mention the word at all, however many variants a hostile input holds.
 */
export function choosePlaceholderWord(texts: Iterable<string>): string {
  const taken = new Set<number>();
  for (const text of texts) {
    if (!text.includes(DEFAULT_PLACEHOLDER_WORD)) continue;
    for (const match of text.matchAll(/REDACTED(?:-(\d{1,9}))?:/g)) taken.add(match[1] === undefined ? 1 : Number(match[1]));
  }
  let n = 1;
  while (taken.has(n)) n++;
  return n === 1 ? DEFAULT_PLACEHOLDER_WORD : `${DEFAULT_PLACEHOLDER_WORD}-${n}`;
}

export function createRedactor(options: RedactorOptions = {}): Redactor {
  const chosen = options.word ?? DEFAULT_PLACEHOLDER_WORD;
  // The word and the pattern of the placeholders issued, made when the first is issued.
  let made: { word: string; issued: RegExp } | undefined;
  function placeholderWord(): { word: string; issued: RegExp } {
    if (made !== undefined) return made;
    const word = typeof chosen === "string" ? chosen : chosen();
    // As issued, or with both brackets escaped (`\[…\]`), as markdown writers do.
    const name = String.raw`${escapeRegExp(word)}:([a-z0-9-]+):(\d+)`;
    made = { word, issued: new RegExp(String.raw`\\\[${name}\\\]|\[${name}\]`, "g") };
    return made;
  }
  const placeholders = new Map<string, string>(); // secret → placeholder
  const originals = new Map<string, string>(); // placeholder → secret
  const kinds: Record<string, number> = {};

  // Every value once judged a secret, a word that reads as a name included (`token =
  // refreshToken`), is that secret wherever it recurs: `redactKnown` replaces them all.
  let knownChanges = 0;

  function placeholderFor(secret: string, kind: string): string {
    const known = placeholders.get(secret);
    if (known !== undefined) return known;
    const n = (kinds[kind] ?? 0) + 1;
    kinds[kind] = n;
    const placeholder = `[${placeholderWord().word}:${kind}:${n}]`;
    placeholders.set(secret, placeholder);
    // A value may hold a token already replaced (`API_KEY=pre-[…:github-token:1]`): its
    // original is kept whole, so one restore pass gives everything back.
    originals.set(placeholder, restore(secret));
    knownChanges++;
    return placeholder;
  }

  function restore(text: string): string {
    if (originals.size === 0) return text;
    const { word, issued } = placeholderWord();
    return text.replace(issued, (whole: string, ...groups: (string | undefined)[]) => {
      const [escapedKind, escapedN, kind = escapedKind, n = escapedN] = groups;
      return originals.get(`[${word}:${kind}:${n}]`) ?? whole;
    });
  }

  // Rebuilt when a secret was found since the last build.
  let known: { changes: number; replace: ReplaceKnown } = { changes: 0, replace: (text) => text };
  function redactKnown(text: string): string {
    if (known.changes !== knownChanges) {
      const byOriginal = new Map<string, string>();
      for (const [placeholder, original] of originals) if (!byOriginal.has(original)) byOriginal.set(original, placeholder);
      known = { changes: knownChanges, replace: createKnownReplacer(byOriginal, placeholderWord().issued) };
    }
    return known.replace(text);
  }

  const tokenPatternFor = tokenPatterns();
  const hintSearches = new Map<number, RegExp>();
  // The rules hinted at (and whose held literal the text holds) are the literal prefilter: a text
  // without a hint is returned as it is.
  function redactTokens(text: string, rules = heldRules(text, hintedRules(text, hintSearches))): string {
    if (rules === 0) return text;
    return replaceMatches(text, tokenPatternFor(text, rules), (match) => {
      const groups = match.groups ?? {};
      for (let i = 0; i < TOKEN_RULES.length; i++) {
        const secret = groups[`s${i}`];
        const rule = TOKEN_RULES[i];
        if (secret === undefined || rule === undefined) continue;
        if (rule.accept && !rule.accept(secret)) return match[0];
        const lead = groups[`l${i}`] ?? "";
        if (lead !== "") {
          if (isPlaceholderValue(secret)) return match[0];
          // A provider token after `Bearer` or in a URL keeps its own, more telling kind.
          const inner = redactTokens(secret);
          if (inner !== secret) return lead + inner;
        }
        return lead + placeholderFor(secret, rule.kind);
      }
      return match[0];
    });
  }

  function redactKeyTails(text: string): string {
    let out = "";
    let from = 0;
    for (const [start, end] of findKeyTails(text)) {
      out += text.slice(from, start) + placeholderFor(text.slice(start, end), "private-key");
      from = end;
    }
    return from === 0 ? text : out + text.slice(from);
  }

  function redactAssignments(text: string, lines: readonly [number, number][]): string {
    return replaceMatchesInLines(text, lines, (match, index) => {
      const { lead = "", flag, word, word2, dq, sq, eq, esc, bare } = match.groups ?? {};
      const kind = assignmentKind(word ?? word2 ?? "");
      const quoted = dq ?? sq ?? esc;
      if (quoted !== undefined) {
        const { before, inner, after } = escapesAround(quoted);
        if (isPlaceholderValue(inner)) return match[0];
        const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : (eq ?? "");
        return `${lead}${quote}${before}${placeholderFor(inner, kind)}${after}${quote}`;
      }
      if (bare === undefined) return match[0];
      // The colour after a value is not part of it (`token: \x1b[32mabc123\x1b[0m`).
      const { inner: token, after: colour } = escapesAround(bare);
      const value = token.slice(0, bareValueLength(token));
      const end = index + match[0].length;
      const verdict = judgeBareValue(token, value, () => {
        const key = plainLead(lead);
        const next = colour === "" ? text.slice(end, end + 8) : plainLead(colour + text.slice(end, end + 48)).slice(0, 8);
        return {
          separation: separationOf(key, flag !== undefined),
          keyInSentence: isKeyInSentence(key, text.slice(Math.max(0, index - 2), index)),
          operatorFollows: value === token && operatorFollows(next),
          wordsFollow: value === token && wordsFollow(next),
        };
      });
      if (verdict === "code") return match[0];
      return `${lead}${placeholderFor(value, kind)}${bare.slice(value.length)}`;
    });
  }

  function redact(text: string): string {
    // Tokens first: their kinds are more precise than "the value of a password key".
    let out = redactTokens(text);
    // The search for the assignments' key words is their prefilter, and the key tails' too (the
    // `KEY` of KEY_TAIL_HINT is one): a text without one is returned as it is.
    let lines = assignmentLines(out);
    if (lines.length === 0) return out;
    if (out.includes(KEY_TAIL_HINT)) {
      const tailless = redactKeyTails(out);
      if (tailless !== out) lines = assignmentLines(tailless);
      out = tailless;
    }
    return redactAssignments(out, lines);
  }

  return {
    redact,
    redactAssigned(key, value) {
      const kind = secretKeyKind(key);
      const redacted = redact(value);
      if (kind === undefined || redacted !== value || isPlaceholderValue(value)) return redacted;
      return placeholderFor(value, kind);
    },
    redactKnown,
    restore,
    get count() {
      return placeholders.size;
    },
    get kinds() {
      return { ...kinds };
    },
  };
}

/** Any key word of an assignment (ASSIGNMENT_HINT), found one after another. */
const ASSIGNMENT_HINTS = new RegExp(ASSIGNMENT_HINT.source, "gi");

/**
 * The lines of `text` (each with its line break) that hold an assignment's key word, as
 * [start, end) pairs: no assignment holds a line break (keys, separators and values stop at
 * one, and no lookbehind reaches past one), so the pattern needs to see only these lines,
 * not the whole text (the literal key words are found first, the pattern runs after).
 */
function assignmentLines(text: string): [number, number][] {
  const lines: [number, number][] = [];
  // One pattern for every call, its place reset first: nothing in the loop calls back in here.
  const hints = ASSIGNMENT_HINTS;
  hints.lastIndex = 0;
  for (let hint = hints.exec(text); hint !== null; hint = hints.exec(text)) {
    const start = text.lastIndexOf("\n", hint.index - 1) + 1;
    const next = text.indexOf("\n", hint.index);
    const end = next === -1 ? text.length : next + 1;
    lines.push([start, end]);
    hints.lastIndex = end;
  }
  return lines;
}

/**
 * `replaceMatches` of an assignment over only the given [start, end) ranges of `text` (in order,
 * apart), where every match lies: the pattern runs on each range alone (the plain one where the
 * range holds no escape; none where `mayHoldAssignment` says no), `replace` gets the index in `text`.
 */
function replaceMatchesInLines(
  text: string,
  ranges: readonly [number, number][],
  replace: (match: RegExpMatchArray, index: number) => string,
): string {
  let out = "";
  let from = 0;
  for (const [start, end] of ranges) {
    const line = text.slice(start, end);
    if (!mayHoldAssignment(line)) continue;
    for (const match of line.matchAll(assignmentPatternFor(line))) {
      const index = start + (match.index ?? 0);
      out += text.slice(from, index) + replace(match, index);
      from = index + match[0].length;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `text.replace(pattern, fn)` with a typed match and where it starts; `pattern` must be global. Re-entrant. */
function replaceMatches(text: string, pattern: RegExp, replace: (match: RegExpMatchArray, index: number) => string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? from;
    out += text.slice(from, index) + replace(match, index);
    from = index + match[0].length;
  }
  return from === 0 ? text : out + text.slice(from);
}
