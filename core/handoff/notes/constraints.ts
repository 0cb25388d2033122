import { lazily } from "../../lazy.ts";
import { looksLikeHandoffInstruction } from "../../session/facts.ts";
import { messageText, type ContextMessage } from "../../session/messages.ts";
import { stripFillers, userProse } from "./prose.ts";
import { isConstraint, isCorrection, isCorrectionRule, mayStateRules } from "./rules.ts";
import { capText, isSlashCommand, splitSentences } from "./text.ts";
import { isWithdrawal, type Placed, standingRules } from "./withdrawn.ts";

/** The rules one message states: sentences quoted one by one, and paragraphs too full of rules to quote (a specification). */
export interface StatedRules {
  constraints: string[];
  specifications: { count: number; first: string; last: string }[];
}

/** More rules than this in one paragraph are a specification (the task itself), not standing rules to quote one by one. */
const SPECIFICATION_RULES = 12;

/**
 * The rules a user stated in one message, quoted from their own words (never from what they
 * pasted). A paragraph of more than a dozen "must" lines ("Requirement 17: the limiter must …")
 * is noted once, as a specification.
 */
export function rulesIn(text: string): StatedRules {
  const stated: StatedRules = { constraints: [], specifications: [] };
  // Most messages hold none of the words a rule needs: they are not split into sentences at all.
  if (!mayStateRules(text)) return stated;
  const prose = userProse(text).prose;
  // A correction ("No, the changelog is not optional …") states its rules as facts; asked once a sentence reads like one.
  const correction = lazily(() => isCorrection(prose));
  for (const paragraph of prose.split(/\n\s*\n/)) {
    if (!mayStateRules(paragraph)) continue;
    const rules = splitSentences(paragraph).filter((s) => isConstraint(s) || (isCorrectionRule(s) && correction()));
    const first = rules[0];
    const last = rules.at(-1);
    if (rules.length > SPECIFICATION_RULES && first !== undefined && last !== undefined) {
      stated.specifications.push({ count: rules.length, first: capText(first, 90), last: capText(last, 90) });
      continue;
    }
    for (const sentence of rules) stated.constraints.push(capText(stripFillers(sentence), 220));
  }
  return stated;
}

/** The sentences of a user message that take an earlier rule back ("You can change src/mail/ after all"), at its place. */
export function withdrawalsIn(text: string, at: number): Placed[] {
  // Most messages take nothing back: only those with a withdrawal's words are split into sentences.
  if (!isWithdrawal(text)) return [];
  return splitSentences(userProse(text).prose)
    .filter(isWithdrawal)
    .map((sentence) => ({ text: capText(stripFillers(sentence), 220), at }));
}

/** A user message that is a request: not empty, not a slash command, not a handoff instruction. */
export function isUserRequest(text: string): boolean {
  return text.trim() !== "" && !isSlashCommand(text) && !looksLikeHandoffInstruction(text);
}

/**
 * The rules and preferences users stated on the branch ("never …", "always run …"), as
 * sentences quoted from their own messages (and from the requests a compaction replaced),
 * oldest first, each once. Models drop these from summaries; the Session Facts section carries
 * them whatever the engine, so this reads only the user's messages, not the offline engine's notes.
 */
export function userConstraints(context: readonly ContextMessage[]): string[] {
  const found: Placed[] = [];
  const withdrawals: Placed[] = [];
  let at = 0;
  for (const message of context) {
    if (message.role !== "user") continue;
    const requests =
      message.kind === "user"
        ? [messageText(message)]
        : message.kind === "compactionSummary"
          ? (message.replacedRequests ?? []).map(messageText)
          : [];
    for (const text of requests) {
      at += 1;
      if (!isUserRequest(text)) continue;
      found.push(...rulesIn(text).constraints.map((rule) => ({ text: rule, at })));
      withdrawals.push(...withdrawalsIn(text, at));
    }
  }
  // A rule the user took back later is not a rule.
  return [...new Set(standingRules(found, withdrawals).standing.map((rule) => rule.text))];
}
