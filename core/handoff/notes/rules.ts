import { isForeignRule } from "./language.ts";
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

export function isConstraint(sentence: string): boolean {
  const bare = stripFillers(sentence);
  if (/[?？]$/.test(bare.trimEnd()) || bare.length < 8 || OPINION.test(bare) || VERDICT.test(bare)) return false;
  if (RULE_WORD.test(bare) || STANDING_CONDITION.test(bare) || ONLY_AT_END.test(bare) || isForeignRule(bare)) return true;
  if (STANDING.test(bare) || STANDING_MANNER.test(bare)) return true;
  return clauses(bare).some((clause) => {
    const words = stripFillers(clause);
    return RULE_CLAUSE.test(words) || (KEEP.test(words) && KEPT_STATE.test(words.replace(KEEP, "")));
  });
}
