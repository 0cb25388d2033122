import { isSearchCommand } from "../../session/runs.ts";
import { isForeign } from "../notes/language.ts";

/**
 * What the offline engine listens for in chat turns. Plain English patterns: they are cheap,
 * deterministic and wrong sometimes, so every list they feed is capped and labelled.
 */

const DECISION =
  /\b(rather than|decided|decide to|chose|chosen|went with|go with|going with|opted|opt for|better approach|simpler approach|trade-?off|makes more sense|is better than|I prefer|on purpose|deliberately|intentionally)\b/i;
/** "Instead of" picks a way when the sentence says what is used now. */
const INSTEAD = /\binstead of\b/i;
const CHOICE_VERB = /\b(use|uses|using|should|switch|switched|changed|now (?!it\b|is\b|was\b)\w+s)\b/i;
/** "Because" counts only in a sentence that states a plan. */
const BECAUSE = /\bbecause\b/i;
const PLAN =
  /^(I'll|I will|I'm going to|I'd|We'll|We will|We should|Let's|Better to|Using|Use|Keeping|Keep|Switch(?:ed|ing)?|The fix is)\b/i;

/** An assistant sentence that picks one way over another. */
export function isDecision(sentence: string): boolean {
  const end = sentence.trimEnd();
  if (end.endsWith("?") || end.endsWith(":") || sentence.length < 30) return false;
  const beforeInstead = sentence.split(INSTEAD)[0] ?? "";
  return (
    DECISION.test(sentence) ||
    (INSTEAD.test(sentence) && CHOICE_VERB.test(beforeInstead)) ||
    (BECAUSE.test(sentence) && PLAN.test(sentence))
  );
}

/** An assistant saying what it is about to do ("Let me check …", "I'll add …"). */
const INTENT = /\b(let me(?! know)|I'll|I will|I'm going to|I need to|we need to|next,? I|now I)\b/i;

/** How an assistant message leaves things; `unread`: a reply in a language these patterns do not read. */
export type TurnEnding = "working" | "completed" | "question" | "replied" | "unread";

/**
 * Reads the end of an assistant message: still working (it stopped for tools, was cut off
 * mid-sentence, or says what it will do next), reporting finished work, asking the user, or a
 * plain reply that hands back.
 */
export function classifyEnding(text: string, stopReason: string | undefined, sentences: readonly string[]): TurnEnding {
  // A message that stopped for tool results was mid-work, whatever it said.
  if (stopReason === "toolUse" || text.trim() === "") return "working";
  const last = sentences.at(-1) ?? "";
  // A line of prose that stops without punctuation ("… Did we revert") was cut off mid-thought.
  const lastLine = text.trimEnd().split("\n").at(-1) ?? "";
  const lastWord = lastLine.trim().split(/\s+/).at(-1) ?? "";
  if (/^\p{L}+$/u.test(lastWord) && lastLine.trim().includes(" ") && !/^\s*(?:[-*+#|>]|\d+[.)])/.test(lastLine)) return "working";
  // Not English: a question is still a question, but whether it reports the work done is unknown, so it closes nothing.
  if (isForeign(text)) return /[?？]$/.test(last) ? "question" : "unread";
  if (isCompletion(text, sentences[0] ?? "")) return "completed";
  if (/[?？]$/.test(last)) return "question";
  return INTENT.test(last) ? "working" : "replied";
}

const COMPLETION_START =
  /^(done|fixed|all (?:done|set|fixed|good)|completed?|finished|implemented|that's done|released|published|committed|pushed)\b/i;
const COMPLETION_CLAIM =
  /\b(I've|I have|we've|we have)\s+(?:now\s+|also\s+|successfully\s+)?(added|fixed|created|updated|implemented|removed|changed|moved|refactored|replaced|written|wrote|renamed|made|cleaned|deleted|committed|pushed|converted|extracted|merged|simplified|ported)\b/i;

/** An assistant text that reports finished work ("Done: …", "Fixed …", "I've added …"). */
export function isCompletion(text: string, firstSentence: string): boolean {
  return COMPLETION_START.test(firstSentence) || COMPLETION_CLAIM.test(text);
}

/** A sentence saying part of the work is still open: "docs/api.md is not updated yet", "that's next". */
const OPEN_ITEM =
  /\bnot (?:\w+ ){0,3}yet\b|^not (?:published|committed|pushed|done|fixed|merged|deployed|updated)\b|\bstill (?:need|needs|has to|have to|to do|open|missing|failing|fails|broken)\b|\b(?:remaining|left to do|TODO)\b|\bthat's next\b|\bis next\b/i;

export function isOpenItem(sentence: string): boolean {
  return OPEN_ITEM.test(sentence) && !sentence.trimEnd().endsWith("?");
}

/** An assistant offering more work: "Want me to …?", "Should I …?", "I can … if you want." */
const OFFER =
  /^(?:(?:do you )?want me to|should i|shall i|would you like me to|do you want|i can\b.*\bif you (?:want|like)|if you want\b)/i;

export function isOffer(sentence: string): boolean {
  return OFFER.test(sentence.trim());
}

/** Questions about the tool itself, or about where things stand: not objectives. */
const META =
  /\b(?:what|which) (?:did i (?:just )?(?:execute|run|type|do)|model|version of you)\b|\bwho are you\b|\bare you (?:there|still there|alive|stupid|\w+ stupid)\b|\byou still there\b|\bwhere were we\b|\bwhat'?s (?:left|next|the status)\b|\bwhat (?:is|are) (?:left|next)\b/i;

export function isMetaQuestion(text: string): boolean {
  return META.test(text);
}

/** Commands that only look at things; a list of what was done can leave them out. */
const LOOK_COMMAND =
  /^\s*(?:cd\s+[^&;|]*(?:&&|;)\s*)?(cat|head|tail|less|ls|find|pwd|echo|date|sleep|wc|sed\s+-n|git\s+(?:status|log|diff|show))\b/;

export function changesOrChecks(command: string): boolean {
  return !LOOK_COMMAND.test(command) && !isSearchCommand(command);
}
