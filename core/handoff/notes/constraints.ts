import { lazily } from "../../lazy.ts";
import { looksLikeHandoffInstruction } from "../../session/facts.ts";
import { messageText, type ContextMessage } from "../../session/messages.ts";
import { stripFillers, type UserProse, userProse } from "./prose.ts";
import { ALL_HINTS, hints, hintsIn, hintsOf, holds } from "./hints.ts";
import { isConstraintWithin, isCorrection, isCorrectionRule, ruleHints } from "./rules.ts";
import { capText, isSlashCommand, proseSentences, splitSentences } from "./text.ts";
import { isWithdrawal, mayWithdraw, type Placed, standingRules } from "./withdrawn.ts";

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
  return statedRules(() => userProse(text), hintsIn(text.toLowerCase(), ruleHints() | hints("correction")));
}

/** `rulesIn` of a text whose prose is `own` and whose hints (hints.ts) are `found`: only the patterns whose words it holds are asked. */
function statedRules(own: () => UserProse, found: number): StatedRules {
  const stated: StatedRules = { constraints: [], specifications: [] };
  // Most messages hold none of the words a rule needs: they are not split into sentences at all.
  if ((found & (ruleHints() | hints("correction"))) === 0) return stated;
  const { prose, paragraphs } = own();
  // A correction ("No, the changelog is not optional …") states its rules as facts; asked once, of a paragraph with such words.
  const correction = lazily(() => isCorrection(prose));
  for (const paragraph of paragraphs) {
    const here = hintsIn(paragraph.toLowerCase(), found);
    if (here === 0) continue;
    const corrects = holds(here, "correction");
    const rules = proseSentences(paragraph).filter((s) => isConstraintWithin(s, here) || (corrects && correction() && isCorrectionRule(s)));
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

/** `withdrawalsIn` of a message's prose: only its paragraphs with a withdrawal's words are split (pasted words take nothing back). */
function withdrawalsOf(own: UserProse, at: number): Placed[] {
  return own.paragraphs
    .filter((paragraph) => mayWithdraw(hintsIn(paragraph.toLowerCase(), hints("withdrawal", "withdrawalCanMay", "withdrawalWhen"))))
    .flatMap(proseSentences)
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
  const requests: { text: string; at: number }[] = [];
  let at = 0;
  for (const message of context) {
    if (message.role !== "user") continue;
    const texts =
      message.kind === "user"
        ? [messageText(message)]
        : message.kind === "compactionSummary"
          ? (message.replacedRequests ?? []).map(messageText)
          : [];
    for (const text of texts) {
      at += 1;
      if (isUserRequest(text)) requests.push({ text, at });
    }
  }
  // The words rules and withdrawals need, looked for in all the requests at once.
  const found = hintsOf(requests.map((request) => request.text));
  const rules: Placed[] = [];
  const withdrawals: Placed[] = [];
  requests.forEach(({ text, at }, i) => {
    const hinted = found[i] ?? ALL_HINTS;
    const own = lazily(() => userProse(text));
    rules.push(...statedRules(own, hinted).constraints.map((rule) => ({ text: rule, at })));
    if (mayWithdraw(hinted)) withdrawals.push(...withdrawalsOf(own(), at));
  });
  // A rule the user took back later is not a rule.
  return [...new Set(standingRules(rules, withdrawals).standing.map((rule) => rule.text))];
}
