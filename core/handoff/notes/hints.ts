/**
 * The words the rule patterns need (rules.ts, language.ts, withdrawn.ts), to find before them.
 * Most of a user's messages and sentences hold none: one pattern of all the words, run once over
 * all the requests (`hintsOf`), turns those messages down, a few `includes` their sentences, and
 * a long pattern is compiled and run only where one of its words stands. Each family of
 * words belongs to one pattern (or a few); a text's hints are the families whose words it holds.
 * A hint may be there where its pattern does not match, never the other way (hints.test.ts).
 * All words are lower-case: the patterns are case-blind in ASCII only, like `toLowerCase` here.
 */
import { lazily } from "../../lazy.ts";

/** Words of each family; "no" before white space and letters of other scripts are found apart. */
const WORDS = {
  ruleWord: ["must", "prefer", "not allowed", "never", "always", "should not", "shouldn't"],
  standingCondition: ["make sure"],
  onlyAtEnd: ["only"],
  standing: ["from now on", "going forward", "henceforth"],
  standingManner: ["throughout", "everywhere", "consistently", "at all times"],
  ruleClause: ["don't", "dont", "do not", "never", "always", "avoid", "prefer", "only", "rule"],
  keep: ["keep"],
  verdict: ["never happen"],
  correction: ["never", "must", "has to", "have to", "need to", "needs to", "always", "only", "is not ", "isn't ", "are not ", "aren't "],
  withdrawal: [
    "after all",
    "no longer ",
    "anymore",
    "any more",
    "forget ",
    "ignore ",
    "scratch that rule",
    "that rule is ",
    "fine ",
    "ok to",
    "okay to",
  ],
  /** "you can change X now": only before one of `CAN_MAY_VERBS`, and a withdrawal only with one of `withdrawalWhen` too. */
  withdrawalCanMay: ["can ", "may "],
  withdrawalWhen: ["after all", "now", "again", "too"],
  /** The ASCII rule words of other languages, counted only with no ASCII letter either side (as the pattern needs no letter there). */
  foreignWord: [
    ...["niemals", "nie", "immer", "muss", "musst", "darf nicht", "auf keinen fall", "jamais", "toujours", "doit", "doivent"],
    ...["il faut", "interdit", "nunca", "siempre", "debe", "deben", "hay que", "prohibido", "sempre", "deve", "devem"],
    ...["proibido", "devono", "nooit", "altijd", "moet", "moeten"],
  ],
  noSpace: [],
  foreignLetter: [],
} as const satisfies Record<string, readonly string[]>;

export type HintFamily = keyof typeof WORDS;

/** Each family's bit in a set of hints. */
const BIT: Record<HintFamily, number> = {
  ruleWord: 1 << 0,
  standingCondition: 1 << 1,
  onlyAtEnd: 1 << 2,
  standing: 1 << 3,
  standingManner: 1 << 4,
  ruleClause: 1 << 5,
  keep: 1 << 6,
  verdict: 1 << 7,
  correction: 1 << 8,
  withdrawal: 1 << 9,
  withdrawalCanMay: 1 << 10,
  withdrawalWhen: 1 << 11,
  foreignWord: 1 << 12,
  noSpace: 1 << 13,
  foreignLetter: 1 << 14,
};
const FAMILIES = lazily(() => Object.keys(BIT) as HintFamily[]);

/** The set of hints of these families. */
export function hints(...families: HintFamily[]): number {
  let set = 0;
  for (const family of families) set |= BIT[family];
  return set;
}

/** Whether a set of hints holds a family. */
export function holds(set: number, family: HintFamily): boolean {
  return (set & BIT[family]) !== 0;
}

/** Every family. */
export const ALL_HINTS = -1;

/** "no" before white space: `RULE_CLAUSE`'s "no <thing>". */
const NO_SPACE = /no\s/;
/** The same in a text of many lines: no sentence holds a line break, so "no" at a line's end is none. */
const NO_SPACE_IN_LINE = /no[^\S\n]/;
/** Letters of the other languages' rule words that no English text needs (ü, ù, ſ, Cyrillic, Kana, Han, Hangul). */
const FOREIGN_LETTER = /[ùüſ\u0400-\u04ff\u1c80-\u1c8f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/** What follows "can " or "may " in a withdrawal ("you can go ahead and edit X now"). */
const CAN_MAY_VERBS = ["now ", "go ahead and ", "change", "touch", "edit", "use", "modify", "update", "delete", "remove"];

function isAsciiLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** Whether a word of `family` at `at` in `text` counts: the other languages' words with no ASCII letter either side, "can " before its verb. */
function stands(text: string, family: HintFamily, at: number, length: number): boolean {
  if (family === "foreignWord") return !isAsciiLetter(text.charCodeAt(at - 1)) && !isAsciiLetter(text.charCodeAt(at + length));
  if (family === "withdrawalCanMay") return CAN_MAY_VERBS.some((verb) => text.startsWith(verb, at + length));
  return true;
}

/** Whether a word of `family` stands anywhere in `text`. */
function standsIn(text: string, family: HintFamily, word: string): boolean {
  if (family !== "foreignWord" && family !== "withdrawalCanMay") return text.includes(word);
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) if (stands(text, family, at, word.length)) return true;
  return false;
}

/** The families of `within` whose words a lower-cased text holds. */
export function hintsIn(lower: string, within = ALL_HINTS): number {
  let found = 0;
  for (const family of FAMILIES()) {
    const bit = BIT[family];
    if ((within & bit) === 0) continue;
    if (family === "noSpace" || family === "foreignLetter") {
      if ((family === "noSpace" ? NO_SPACE : FOREIGN_LETTER).test(lower)) found |= bit;
      continue;
    }
    for (const word of WORDS[family]) {
      if (standsIn(lower, family, word)) {
        found |= bit;
        break;
      }
    }
  }
  return found;
}

/**
 * The families each text holds, found in one pass over all of them: one pattern of every word
 * (and "no " and the other scripts' letters) run over the texts joined, where a word a dozen
 * times in each text would cost a search of every text per word. The pattern takes the longest
 * word at each place, so a match stands for each word it starts with (`bitsOfMatch`), and the
 * next search starts a character on, so a word inside another counts too.
 */
export function hintsOf(texts: readonly string[]): number[] {
  // One lower-casing of them all, unless it changed a length (an "İ" is two characters lower-cased).
  const together = texts.join("\n");
  const once = together.toLowerCase();
  const lower = once.length === together.length ? texts : texts.map((text) => text.toLowerCase());
  const joined = lower === texts ? once : lower.join("\n");
  // Where each text ends in `joined` (at the line break after it).
  const ends: number[] = [];
  let end = -1;
  for (const text of lower) {
    end += text.length + 1;
    ends.push(end);
  }
  const found = texts.map(() => 0);
  // A pattern of this call's own (its place is its own), compiled once for all: the engine keeps patterns by their source.
  const pattern = new RegExp(ANY_WORD_SOURCE, "g");
  for (let match = pattern.exec(joined); match !== null; match = pattern.exec(joined)) {
    const index = textAt(ends, match.index);
    found[index] = (found[index] ?? 0) | bitsOfMatch(joined, match.index, match[0]);
    pattern.lastIndex = match.index + 1;
  }
  return found;
}

/**
 * Every word of every family, the longest first, then "no " and the other scripts' letters: written
 * out, not built from `WORDS` at each run (hints.test.ts checks it is `WORDS`, in that order).
 */
export const ANY_WORD_SOURCE = String.raw`scratch that rule|auf keinen fall|going forward|that rule is |consistently|at all times|never happen|not allowed|from now on|should not|henceforth|throughout|everywhere|no longer |darf nicht|shouldn't|make sure|after all|prohibido|needs to|are not |any more|toujours|interdit|proibido|have to|need to|is not |aren't |anymore|forget |ignore |okay to|niemals|doivent|il faut|siempre|hay que|prefer|always|do not|has to|isn't |jamais|sempre|devono|altijd|moeten|never|don't|avoid|fine |ok to|again|immer|musst|nunca|deben|devem|nooit|must|only|dont|rule|keep|can |may |muss|doit|debe|deve|moet|now|too|nie|no[^\S\n]|[ùüſ\u0400-\u04ff\u1c80-\u1c8f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]`;

/** The words of one family. */
export function wordsOf(family: HintFamily): readonly string[] {
  return WORDS[family];
}

/** The words of every family, each once. */
export function allWords(): string[] {
  return [...new Set(Object.values(WORDS).flat())];
}

/** The families of the words a match at `at` starts with (the match itself and every shorter word it begins with). */
function bitsOfMatch(text: string, at: number, match: string): number {
  let bits = FOREIGN_LETTER.test(match) ? BIT.foreignLetter : 0;
  if (match.startsWith("no") && NO_SPACE_IN_LINE.test(match.slice(0, 3))) bits |= BIT.noSpace;
  for (let length = match.length; length > 0; length--) {
    const word = length === match.length ? match : match.slice(0, length);
    const families = WORD_BITS().get(word);
    if (families === undefined) continue;
    for (const family of FAMILIES()) if ((families & BIT[family]) !== 0 && stands(text, family, at, length)) bits |= BIT[family];
  }
  return bits;
}

/** Each word's families. */
const WORD_BITS = lazily(() => {
  const bits = new Map<string, number>();
  for (const family of FAMILIES()) for (const word of WORDS[family]) bits.set(word, (bits.get(word) ?? 0) | BIT[family]);
  return bits;
});

/** The index of the text holding `at`, by where each text ends. */
function textAt(ends: readonly number[], at: number): number {
  let low = 0;
  let high = ends.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((ends[middle] ?? 0) < at) low = middle + 1;
    else high = middle;
  }
  return low;
}
