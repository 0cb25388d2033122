import { lazily } from "../../lazy.ts";
import { ALL_HINTS, type HintFamily, hints, hintsIn, holds } from "./hints.ts";
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

/** A message that starts by turning the assistant down (steering.ts makes its change of course a decision). */
export function isCorrection(text: string): boolean {
  return CORRECTS.test(text.trim());
}

/** In a correction, a sentence saying what must or must not be is a rule too, worded as a fact or not. */
export function isCorrectionRule(sentence: string): boolean {
  return MUST_OR_NOT.test(sentence) && stripFillers(sentence).split(/\s+/).length >= 4;
}

/** Any rule family's words (hints.ts), or "no" before a space: a sentence with none is no English rule. */
const RULE_HINT =
  /must|prefer|not allowed|never|always|should not|shouldn't|make sure|only|from now on|going forward|henceforth|throughout|everywhere|consistently|at all times|don't|dont|do not|avoid|rule|keep|no\s/;

/** The families of hints (hints.ts) a rule needs one of. */
export const ruleHints = lazily(() =>
  hints(
    "ruleWord",
    "standingCondition",
    "onlyAtEnd",
    "standing",
    "standingManner",
    "ruleClause",
    "keep",
    "noSpace",
    "foreignWord",
    "foreignLetter",
  ),
);

export function isConstraint(sentence: string): boolean {
  // Most sentences hold none of the words a rule needs: one pattern turns them down; the rest are asked every pattern.
  const lower = sentence.toLowerCase();
  return (RULE_HINT.test(lower) || mayHoldForeignRule(lower)) && checkConstraint(sentence, ALL_HINTS);
}

/** `isConstraint` of a sentence of a text whose hints are `within` (`hintsOf`): only those families are looked for. */
export function isConstraintWithin(sentence: string, within: number): boolean {
  const wanted = within & ruleHints();
  return wanted !== 0 && checkConstraint(sentence, hintsIn(sentence.toLowerCase(), wanted | hints("verdict")));
}

/** `isConstraint` without its hints: every pattern asked of every sentence (what the tests hold the hints to). */
export function isConstraintUnhinted(sentence: string): boolean {
  return checkConstraint(sentence, ALL_HINTS);
}

/** Whether a sentence is a rule, asking only the patterns whose words it holds (`found`, a set of hints). */
function checkConstraint(sentence: string, found: number): boolean {
  if ((found & ruleHints()) === 0) return false;
  const bare = stripFillers(sentence);
  if (/[?？]$/.test(bare.trimEnd()) || bare.length < 8) return false;
  // Opinions and verdicts are asked after: few sentences get that far (plain tests, so the order changes nothing).
  return statesRule(bare, found) && !OPINION.test(bare) && !(holds(found, "verdict") && VERDICT.test(bare));
}

/** Whether a sentence without its fillers holds a rule's words, asking the patterns whose words were `found`. */
function statesRule(bare: string, found: number): boolean {
  const has = (family: HintFamily) => holds(found, family);
  if (has("ruleWord") && RULE_WORD.test(bare)) return true;
  if (has("standingCondition") && STANDING_CONDITION.test(bare)) return true;
  if (has("onlyAtEnd") && ONLY_AT_END.test(bare)) return true;
  if ((has("foreignWord") || has("foreignLetter")) && readsAsForeignRule(bare)) return true;
  if (has("standing") && STANDING.test(bare)) return true;
  if (has("standingManner") && STANDING_MANNER.test(bare)) return true;
  const clause = has("ruleClause") || has("noSpace");
  const keep = has("keep");
  if (!clause && !keep) return false;
  return clauses(bare).some((part) => {
    const words = stripFillers(part);
    return (clause && RULE_CLAUSE.test(words)) || (keep && KEEP.test(words) && KEPT_STATE.test(words.replace(KEEP, "")));
  });
}
