import { mayHoldForeignRule, readsAsForeignRule } from "./language.ts";
import { stripFillers } from "./prose.ts";

/**
 * The rules users state in chat ("never …", "always run …", "don't …"): read for Session Facts
 * (every engine) and by the offline engine. Plain English patterns: cheap, deterministic and
 * wrong sometimes, so every list they feed is capped and labelled.
 */

/** "must", "should never", "prefer": a rule, wherever it sits in the sentence ("never" alone only starts one). */
const RULE_WORD =
  /\b(must|mustn't|must not|prefer|preferably|not allowed|(?:should|will|can|would|must)(?: not|n't)? (?:never|always)|should not|shouldn't)\b/i;
/** What "keep <something> …" asks to stay: "keep the public API identical", "keep it simple", "keep the bundle under 50 kB". */
const KEPT_STATE =
  /\b(?:as[- ]is|in (?:its|their|a) own\b|separate(?:ly)?|apart|unchanged|identical|stable|(?:backwards?[- ])?compatible|working|green|passing|the same|intact|simple|small|minimal|short|private|consistent|in sync|sorted|readable|under|below|within|at most)\b/i;
/** A manner that holds for all the work: "use British spelling throughout", "name files in kebab-case everywhere". */
const STANDING_MANNER =
  /^(?:use|write|follow|stick (?:to|with)|stay with|spell|format|name|indent|comment|style)\b.*\b(?:throughout|everywhere|consistently|at all times)\b/i;
/** A clause that starts as an instruction: "don't …", "avoid …", "keep … unchanged", "no <thing>", "only …". */
const RULE_CLAUSE =
  /^(?:please\s+)?(?:don't|dont|do not|never|always|avoid|prefer|only\s+(?:use|change|touch|edit|modify|run|commit|add|write|test|update)\b|no\s+(?!need\b|idea\b|worries\b|problem\b|way\b|longer\b|more\b|one\b|[,.!?]|$)\w+|rules?\b.*:)/i;
/** "keep" followed by what it keeps (not "keep going", "keep working on X"). */
const KEEP = /^(?:please\s+)?keep\s+(?!going\b|on\b|trying\b|working\b|at\b|in mind\b|an eye\b)\S+/i;
/** Words that make any instruction a standing rule: "from now on, run the tests with bun". */
const STANDING = /\b(?:from now on|going forward|henceforth)\b/i;
/** "make sure" is a rule when it asks for something to stay true ("make sure the build still passes"). */
const STANDING_CONDITION = /\bmake sure\b.*\b(still|always|never|keeps?|stays?|remains?|not)\b/i;
/** "X only." at the end of a sentence ("E2E tests only."). */
const ONLY_AT_END = /\b\w+\s+only\s*[.!]?$/i;
/** Opinions and reports are not rules: "i think the component must not …", "it seems …". */
const OPINION =
  /^(?:i (?:think|guess|suppose|believe|feel|don't think|dont think)|it (?:seems|looks)|(?:only )?seems|looks like|maybe|perhaps)\b/i;

/** The clauses of a sentence, split at commas, semicolons and dashes. */
function clauses(sentence: string): string[] {
  return sentence
    .split(/\s*(?:[,;]|\s[—–-]\s)\s*/)
    .map((c) => c.trim())
    .filter((c) => c !== "");
}

/** A user's rule or preference: "never …", "always …", "don't …", "no console logs!", "X only." */
/** A bug report's verdict ("… got a crash, that should never happen") is not a rule to keep. */
const VERDICT = /\b(?:that|this|it) (?:should|must) never happen\b/i;

/** A reply that turns the assistant down, in its first words: "No, …", "Nope", "I told you …", "Don't …". */
const CORRECTS =
  /^\W*(?:no\b(?![-\s]?(?:one|need|problem|worries)\b)|nope\b|not (?:like )?that\b|that'?s (?:not|wrong)\b|wrong\b|i (?:told|said|asked) you\b|stop\b|don'?t\b|do not\b)/i;
/** What a correction says must or must not be ("the changelog is not optional", "it has to be a cron worker"). */
const MUST_OR_NOT =
  /\b(?:never|must|has to|have to|needs? to|always|only|(?:is|are)(?: not|n't) (?:optional|allowed|ok|okay|acceptable|negotiable|an option))\b/i;

/** The words a correction's rule needs besides `RULE_HINT`'s (see `MUST_OR_NOT`). */
const CORRECTION_HINT = /has to|have to|needs? to|is not |isn't |are not |aren't /;

/** Whether a text may state a rule, as a rule or in a correction: when not, none of its sentences is one. */
export function mayStateRules(text: string): boolean {
  const lower = text.toLowerCase();
  return RULE_HINT.test(lower) || CORRECTION_HINT.test(lower) || mayHoldForeignRule(lower);
}

/** A message that starts by turning the assistant down (steering.ts makes its change of course a decision). */
export function isCorrection(text: string): boolean {
  return CORRECTS.test(text.trim());
}

/** In a correction, a sentence saying what must or must not be is a rule too, worded as a fact or not. */
export function isCorrectionRule(sentence: string): boolean {
  return MUST_OR_NOT.test(sentence) && stripFillers(sentence).split(/\s+/).length >= 4;
}

/**
 * The words, lower-cased, that each pattern above needs (one of them at least): most sentences
 * hold none, and a pattern is compiled and run only where it can match.
 */
const HINTS = {
  ruleWord: ["must", "prefer", "not allowed", "never", "always", "should not", "shouldn't"],
  standingCondition: ["make sure"],
  onlyAtEnd: ["only"],
  standing: ["from now on", "going forward", "henceforth"],
  standingManner: ["throughout", "everywhere", "consistently", "at all times"],
  ruleClause: ["don't", "dont", "do not", "never", "always", "avoid", "prefer", "only", "rule"],
  keep: ["keep"],
  verdict: ["never happen"],
} as const;
/** Any of the words in `HINTS`, or "no" before a space (`RULE_CLAUSE`'s "no <thing>"): a sentence with none is no English rule. */
const RULE_HINT =
  /must|prefer|not allowed|never|always|should not|shouldn't|make sure|only|from now on|going forward|henceforth|throughout|everywhere|consistently|at all times|don't|dont|do not|avoid|rule|keep|no\s/;
const NO_BEFORE_SPACE = /no\s/;

function holdsAny(lower: string, words: readonly string[]): boolean {
  for (const word of words) if (lower.includes(word)) return true;
  return false;
}

export function isConstraint(sentence: string): boolean {
  return checkConstraint(sentence, true);
}

/** `isConstraint` without its hints: every pattern asked of every sentence (what the tests hold the hints to). */
export function isConstraintUnhinted(sentence: string): boolean {
  return checkConstraint(sentence, false);
}

function checkConstraint(sentence: string, hinted: boolean): boolean {
  // Most sentences hold none of the words a rule needs: they are turned down before the patterns run.
  const lower = sentence.toLowerCase();
  const hint = hinted ? (words: readonly string[]) => holdsAny(lower, words) : () => true;
  const foreign = !hinted || mayHoldForeignRule(lower);
  if (!foreign && !RULE_HINT.test(lower)) return false;
  const bare = stripFillers(sentence);
  if (/[?？]$/.test(bare.trimEnd()) || bare.length < 8) return false;
  // Opinions and verdicts are asked after: few sentences get that far (plain tests, so the order changes nothing).
  return statesRule(bare, lower, hint, foreign) && !OPINION.test(bare) && !(hint(HINTS.verdict) && VERDICT.test(bare));
}

/** Whether a sentence without its fillers holds a rule's words; `lower` is the whole sentence lower-cased, `hint` whether it holds one of some words. */
function statesRule(bare: string, lower: string, hint: (words: readonly string[]) => boolean, foreign: boolean): boolean {
  if (hint(HINTS.ruleWord) && RULE_WORD.test(bare)) return true;
  if (hint(HINTS.standingCondition) && STANDING_CONDITION.test(bare)) return true;
  if (hint(HINTS.onlyAtEnd) && ONLY_AT_END.test(bare)) return true;
  if (foreign && readsAsForeignRule(bare)) return true;
  if (hint(HINTS.standing) && STANDING.test(bare)) return true;
  if (hint(HINTS.standingManner) && STANDING_MANNER.test(bare)) return true;
  const clause = hint(HINTS.ruleClause) || NO_BEFORE_SPACE.test(lower);
  const keep = hint(HINTS.keep);
  if (!clause && !keep) return false;
  return clauses(bare).some((part) => {
    const words = stripFillers(part);
    return (clause && RULE_CLAUSE.test(words)) || (keep && KEEP.test(words) && KEPT_STATE.test(words.replace(KEEP, "")));
  });
}
