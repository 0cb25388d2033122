import { isSearchCommand } from "../../session/runs.ts";
export { isCheckCommand } from "../../session/runs.ts";

/**
 * What the offline engine listens for in chat turns. Plain English patterns: they are cheap,
 * deterministic and wrong sometimes, so every list they feed is capped and labelled.
 */

/** A user's rule or preference: "never …", "always …", "make sure …", "don't …". */
const CONSTRAINT = /\b(must|mustn't|must not|never|always|prefer|preferably|make sure|avoid|should not|shouldn't|not allowed|no need to|keep (?:it|them|the|this|that)\b[^.]*\b(?:as is|unchanged|working|the same))\b/i;
/** "Don't" only at the start of a clause, so "I don't understand" is not a rule. */
const IMPERATIVE_DONT = /(^|[,;:(]\s*|\b(?:please|and|but|so|just|also|then)\s+)(don't|dont|do not)\b/i;
/** "Only" as an instruction ("only touch X", "X only"), not "there is only one file". */
const ONLY_RULE = /(^only\b|\bonly\s+(?:use|change|touch|edit|modify|run|commit|add|write|test|update)\b|\b\w+\s+only\s*[.!]?$)/i;

export function isConstraint(sentence: string): boolean {
  if (sentence.trimEnd().endsWith("?") || sentence.length < 8) return false;
  return CONSTRAINT.test(sentence) || IMPERATIVE_DONT.test(sentence) || ONLY_RULE.test(sentence);
}

const DECISION =
  /\b(rather than|decided|decide to|chose|chosen|went with|go with|going with|opted|opt for|better approach|simpler approach|trade-?off|makes more sense|is better than|I prefer)\b/i;
/** "Instead of" picks a way when the sentence says what is used now. */
const INSTEAD = /\binstead of\b/i;
const CHOICE_VERB = /\b(use|uses|using|now|should|switch|switched|changed)\b/i;
/** "Because" counts only in a sentence that states a plan. */
const BECAUSE = /\bbecause\b/i;
const PLAN = /^(I'll|I will|I'm going to|I'd|We'll|We will|We should|Let's|Better to|Using|Use|Keeping|Keep|Switch(?:ed|ing)?|The fix is)\b/i;

/** An assistant sentence that picks one way over another. */
export function isDecision(sentence: string): boolean {
  const end = sentence.trimEnd();
  if (end.endsWith("?") || end.endsWith(":") || sentence.length < 30) return false;
  const beforeInstead = sentence.split(INSTEAD)[0] ?? "";
  return DECISION.test(sentence) || (INSTEAD.test(sentence) && CHOICE_VERB.test(beforeInstead)) || (BECAUSE.test(sentence) && PLAN.test(sentence));
}

/** An assistant saying what it is about to do ("Let me check …", "I'll add …"). */
const INTENT = /\b(let me(?! know)|I'll|I will|I'm going to|I need to|we need to|next,? I|now I)\b/i;

/** How an assistant message leaves things. */
export type TurnEnding = "working" | "completed" | "question" | "replied";

/**
 * Reads the end of an assistant message: still working (it stopped for tools, or says what it
 * will do next), reporting finished work, asking the user, or a plain reply that hands back.
 */
export function classifyEnding(text: string, stopReason: string | undefined, sentences: readonly string[]): TurnEnding {
  // A message that stopped for tool results was mid-work, whatever it said.
  if (stopReason === "toolUse") return "working";
  if (text !== "" && isCompletion(text, sentences[0] ?? "")) return "completed";
  if (sentences.at(-1)?.endsWith("?")) return "question";
  return text === "" || INTENT.test(text) ? "working" : "replied";
}

const COMPLETION_START = /^(done|fixed|all (?:done|set|fixed|good)|completed?|finished|implemented|that's done)\b/i;
const COMPLETION_CLAIM =
  /\b(I've|I have|we've|we have)\s+(?:now\s+|also\s+|successfully\s+)?(added|fixed|created|updated|implemented|removed|changed|moved|refactored|replaced|written|wrote|renamed|made|cleaned|deleted|committed|pushed|converted|extracted|merged|simplified|ported)\b/i;

/** An assistant text that reports finished work ("Done: …", "Fixed …", "I've added …"). */
export function isCompletion(text: string, firstSentence: string): boolean {
  return COMPLETION_START.test(firstSentence) || COMPLETION_CLAIM.test(text);
}

/** Commands that only look at things; a list of what was done can leave them out. */
const LOOK_COMMAND = /^\s*(?:cd\s+[^&;|]*(?:&&|;)\s*)?(cat|head|tail|less|ls|pwd|echo|date|sleep|wc|sed\s+-n|git\s+(?:status|log|diff|show))\b/;

export function changesOrChecks(command: string): boolean {
  return !LOOK_COMMAND.test(command) && !isSearchCommand(command);
}
