/**
 * The token rules (redact-rules.ts) as the patterns a scan runs: all of them as one alternation,
 * the literal prefilter made of their hints, and for each text only the rules whose hint it
 * holds (a rule whose hint is absent matches nowhere in it).
 */
import { ruleStart, TOKEN_RULES, type TokenRule } from "./redact-rules.ts";

/** Rule i as one alternative: its secret is group `s<i>`, its kept lead `l<i>`. */
function ruleAlternative(rule: TokenRule, i: number): string {
  return `${ruleStart(rule)}${rule.lead === undefined ? "" : `(?<l${i}>${rule.lead})`}(?<s${i}>${rule.body})`;
}

/**
 * All token rules as one alternation (TOKEN_PATTERN); rule i's secret is group `s<i>`, its kept
 * lead `l<i>`. Made when first asked for: a run needs it only for a text that hints at every
 * rule, and its parse costs more at import than the rest of this folder.
 */
let everyRule: RegExp | undefined;
export function tokenPattern(): RegExp {
  everyRule ??= new RegExp(TOKEN_RULES.map(ruleAlternative).join("|"), "g");
  return everyRule;
}

/**
 * The literal prefilter, made of the rules' own `hint`s (one place: a rule and its literal are
 * written together, and every match of a rule holds its literal), so a text this does not match
 * holds no match of TOKEN_PATTERN, whatever stands before the match (an escape included). Most
 * of a session's text holds none, and this test costs a fraction of TOKEN_PATTERN's scan. Each hint
 * once: three rules share `sk-`, and every alternative is tried at every place.
 */
export const TOKEN_HINT = new RegExp([...new Set(TOKEN_RULES.map((rule) => rule.hint))].join("|"));

/** Each rule's hint alone, tried at one place (sticky); made for the first text full of hints (`narrowingSearch`). */
let ruleHints: RegExp[] | undefined;
const ALL_RULES = (1 << TOKEN_RULES.length) - 1;

/** The hints of the rules not in `known` (bits), as one search (global: its place is set before each use). */
function hintsBeyond(known: number): RegExp {
  const left = TOKEN_RULES.filter((_, i) => ((known >> i) & 1) === 0).map((rule) => rule.hint);
  return new RegExp([...new Set(left)].join("|"), "g");
}

/**
 * What every match of a rule holds besides its hint, by kind, where texts often hold the hint
 * alone: a URL's password stands before an `@` (`https://…` without one is most URLs), a JWT's
 * payload starts `.eyJ`, a key block names itself a PRIVATE KEY, an OpenAI-shaped key runs 20
 * characters past `sk-` (`task-list` holds `sk-`), an Authorization header's name is followed by
 * a quote, an escape, or blanks and a separator (not `Authorization header`). A text without it
 * cannot match the rule (redact-hints.test.ts checks each against the rule's matches).
 */
const SK_RUN = /sk-[A-Za-z0-9_-]{20}/;
export const HELD_BY_KIND: Readonly<Record<string, RegExp>> = {
  "url-password": /@/,
  jwt: /\.eyJ/,
  "private-key": /PRIVATE KEY/,
  "anthropic-key": SK_RUN,
  "openrouter-key": SK_RUN,
  "openai-key": SK_RUN,
  authorization: /(?:[Aa]uthorization|AUTHORIZATION)(?:["'\\\x1b\u009b]|[ \t]*[:=\\\x1b\u009b])/,
};
/** Each held pattern once (three rules share SK_RUN), with the rules (bits) that hold it. */
const HELD: readonly { pattern: RegExp; rules: number }[] = [...new Set(Object.values(HELD_BY_KIND))].map((pattern) => ({
  pattern,
  rules: TOKEN_RULES.reduce((bits, rule, i) => (HELD_BY_KIND[rule.kind] === pattern ? bits | (1 << i) : bits), 0),
}));

/** The rules that hold something besides their hint (bits). */
const HOLDING = HELD.reduce((bits, held) => bits | held.rules, 0);

/**
 * `rules` (bits), or none when the text lacks what each of them holds (HELD_BY_KIND): a text
 * none of whose hinted rules can match is not scanned at all. A rule is not left out of a set
 * that keeps others: a set's speed is the regex engine's to decide (on 5 MB of hints, seven of
 * these rules ran slower than eight), so the sets scanned stay the hinted ones.
 */
export function heldRules(text: string, rules: number): number {
  // A hinted rule that holds nothing more can match: nothing to look for.
  if (rules === 0 || (rules & ~HOLDING) !== 0) return rules;
  let held = rules;
  for (let i = 0; i < HELD.length && held !== 0; i++) {
    const { pattern, rules: holding } = HELD[i] as { pattern: RegExp; rules: number };
    if ((held & holding) !== 0 && !pattern.test(text)) held &= ~holding;
  }
  return held === 0 ? 0 : rules;
}

/** The distinct hints (three rules share `sk-`), and the rules (bits) each is the hint of. */
const HINTS = [...new Set(TOKEN_RULES.map((rule) => rule.hint))];
const RULES_OF_HINT = HINTS.map((hint) => TOKEN_RULES.reduce((bits, rule, i) => (rule.hint === hint ? bits | (1 << i) : bits), 0));
/**
 * Every hint as one search, each in a group of its own (hint k, group k + 1; a hint holds no group
 * of its own, redact-escapes.test.ts): the group that took part says which hint stands there.
 */
export const GROUPED_HINTS = new RegExp(HINTS.map((hint) => `(${hint})`).join("|"), "g");
/** Hints looked at one by one before `narrowingSearch` takes over (a text full of them). */
const QUICK_HINTS = 64;

/**
 * The rules whose hint the text holds, as bits (rule i, bit i): only these can match in it, as
 * a match of a rule holds its hint. Every place a hint starts is visited (the search goes on from
 * the next character, so hints that overlap are all seen): no two hints can stand at one place
 * (redact-escapes.test.ts), so the group that matched there names the only one. One search,
 * compiled once; a text that holds more than QUICK_HINTS hints is read by `narrowingSearch`.
 */
export function hintedRules(text: string, searches = new Map<number, RegExp>()): number {
  let rules = 0;
  // One pattern for every call, its place reset first: nothing in the loop calls back in here.
  GROUPED_HINTS.lastIndex = 0;
  for (let n = 0; n < QUICK_HINTS; n++) {
    const found = GROUPED_HINTS.exec(text);
    if (found === null) return rules;
    for (let k = 0; k < HINTS.length; k++) {
      if (found[k + 1] === undefined) continue;
      rules |= RULES_OF_HINT[k] as number;
      break;
    }
    if (rules === ALL_RULES) return rules;
    GROUPED_HINTS.lastIndex = found.index + 1;
  }
  return narrowingSearch(text, searches);
}

/**
 * `hintedRules` for a text full of hints: each place a hint of a rule not yet found starts is
 * visited and each such rule's hint tried there; once a rule is found its hint is searched for no
 * more, so a text full of one hint (`sk-sk-sk-…`) is read once, not tried at each. `searches`
 * keeps the search for each set of rules found (one per run, see `tokenPatterns`); nothing here
 * calls back in while one is used.
 */
export function narrowingSearch(text: string, searches = new Map<number, RegExp>()): number {
  ruleHints ??= TOKEN_RULES.map((rule) => new RegExp(rule.hint, "y"));
  let rules = 0;
  let hints = searchFor(0, searches);
  hints.lastIndex = 0;
  for (let found = hints.exec(text); found !== null; found = hints.exec(text)) {
    let added = 0;
    for (let i = 0; i < ruleHints.length; i++) {
      if ((rules >> i) & 1) continue;
      const hint = ruleHints[i] as RegExp;
      hint.lastIndex = found.index;
      if (hint.test(text)) added |= 1 << i;
    }
    if (added !== 0) {
      rules |= added;
      if (rules === ALL_RULES) break;
      hints = searchFor(rules, searches);
    }
    hints.lastIndex = found.index + 1;
  }
  return rules;
}

function searchFor(known: number, searches: Map<number, RegExp>): RegExp {
  let search = searches.get(known);
  if (search === undefined) {
    search = hintsBeyond(known);
    searches.set(known, search);
  }
  return search;
}

/**
 * TOKEN_PATTERN for the texts of one run, each with only the rules its hints let in (see
 * `hintedRules`): the same matches (a rule left out matches nowhere in the text), found with a
 * fraction of the alternatives tried at each place. Each set of rules is compiled once a run.
 * `rules`, when given, is the text's `hintedRules` (the caller looked already).
 */
export function tokenPatterns(): (text: string, rules?: number) => RegExp {
  const compiled = new Map<number, RegExp>();
  const searches = new Map<number, RegExp>();
  return (text, rules = hintedRules(text, searches)) => {
    let pattern = rules === ALL_RULES ? tokenPattern() : compiled.get(rules);
    if (pattern === undefined) {
      const alternatives = TOKEN_RULES.map((rule, i) => ((rules >> i) & 1 ? ruleAlternative(rule, i) : undefined));
      pattern = new RegExp(alternatives.filter((a) => a !== undefined).join("|"), "g");
      compiled.set(rules, pattern);
    }
    return pattern;
  };
}
