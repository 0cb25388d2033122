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

/** All token rules as one alternation; rule i's secret is group `s<i>`, its kept lead `l<i>`. */
export const TOKEN_PATTERN = new RegExp(TOKEN_RULES.map(ruleAlternative).join("|"), "g");

/**
 * The literal prefilter, made of the rules' own `hint`s (one place: a rule and its literal are
 * written together, and every match of a rule holds its literal), so a text this does not match
 * holds no match of TOKEN_PATTERN, whatever stands before the match (an escape included). Most
 * of a session's text holds none, and this test costs a fraction of TOKEN_PATTERN's scan. Each hint
 * once: three rules share `sk-`, and every alternative is tried at every place.
 */
export const TOKEN_HINT = new RegExp([...new Set(TOKEN_RULES.map((rule) => rule.hint))].join("|"));

/** Each rule's hint alone, tried at one place (sticky). */
const RULE_HINTS = TOKEN_RULES.map((rule) => new RegExp(rule.hint, "y"));
const ALL_RULES = (1 << TOKEN_RULES.length) - 1;

/** The hints of the rules not in `known` (bits), as one search (global: its place is set before each use). */
function hintsBeyond(known: number): RegExp {
  const left = TOKEN_RULES.filter((_, i) => ((known >> i) & 1) === 0).map((rule) => rule.hint);
  return new RegExp([...new Set(left)].join("|"), "g");
}

/**
 * The rules whose hint the text holds, as bits (rule i, bit i): only these can match in it, as
 * a match of a rule holds its hint. Every place a hint of a rule not yet found starts is visited
 * (the search goes on from the next character, so hints that overlap are all seen) and each such
 * rule's hint tried there; once a rule is found its hint is searched for no more, so a text full
 * of one hint (`sk-sk-sk-…`) is read once, not tried at each. `searches` keeps the search for each
 * set of rules found (one per run, see `tokenPatterns`); nothing here calls back in while one is used.
 */
export function hintedRules(text: string, searches = new Map<number, RegExp>()): number {
  let rules = 0;
  let hints = searchFor(0, searches);
  hints.lastIndex = 0;
  for (let found = hints.exec(text); found !== null; found = hints.exec(text)) {
    let added = 0;
    for (let i = 0; i < RULE_HINTS.length; i++) {
      if ((rules >> i) & 1) continue;
      const hint = RULE_HINTS[i] as RegExp;
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
 */
export function tokenPatterns(): (text: string) => RegExp {
  const compiled = new Map<number, RegExp>([[ALL_RULES, TOKEN_PATTERN]]);
  const searches = new Map<number, RegExp>();
  return (text) => {
    const rules = hintedRules(text, searches);
    let pattern = compiled.get(rules);
    if (pattern === undefined) {
      const alternatives = TOKEN_RULES.map((rule, i) => ((rules >> i) & 1 ? ruleAlternative(rule, i) : undefined));
      pattern = new RegExp(alternatives.filter((a) => a !== undefined).join("|"), "g");
      compiled.set(rules, pattern);
    }
    return pattern;
  };
}
