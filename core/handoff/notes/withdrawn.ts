/**
 * Rules the user later took back ("You can change src/mail/ after all", "forget that rule"):
 * a rule withdrawn is not a rule, in Session Facts and in the offline document alike. A withdrawal
 * names what it frees (a path, a file, a code span) or points at "that rule"; a rule stated
 * before it that names the same thing is dropped. Plain English patterns, like the rules.
 */
import { holds } from "./hints.ts";

/** Words that take a rule back. */
const WITHDRAWS =
  /\b(?:after all|no longer (?:a rule|applies|holds|needed)|not (?:a rule )?any ?more|(?:you )?(?:can|may) (?:now |go ahead and )?(?:change|touch|edit|use|modify|update|delete|remove)\b.*\b(?:after all|now|again|too)\b|forget (?:what i said about|that rule|the rule|my rule)|ignore (?:my|that|the) (?:earlier |previous )?(?:rule|instruction)|scratch that rule|that rule is (?:gone|lifted|off)|(?:is|are) fine (?:to (?:change|touch|edit) )?now|it'?s (?:ok|okay|fine) to (?:change|touch|edit|use|modify))\b/i;
/** Paths, file names and code spans: what a rule and its withdrawal both name. */
const ANCHOR = /`[^`]+`|(?:[\w@.-]+\/)+[\w@.-]*|\b[\w-]+\.[a-z]{1,5}\b/gi;

function anchorsOf(text: string): Set<string> {
  return new Set(
    [...text.matchAll(ANCHOR)].map((m) => m[0].replace(/`/g, "").replace(/\/+$/, "").toLowerCase()).filter((a) => a.length > 2),
  );
}

/** Whether a text with these hints may take a rule back ("you can change X now" needs both its words). */
export function mayWithdraw(found: number): boolean {
  return holds(found, "withdrawal") || (holds(found, "withdrawalCanMay") && holds(found, "withdrawalWhen"));
}

/** A sentence that takes an earlier rule back. */
export function isWithdrawal(sentence: string): boolean {
  return WITHDRAWS.test(sentence);
}

/** Something said at a place in the session (the message's order). */
export interface Placed {
  text: string;
  at: number;
}

/** The rules still standing: each rule stated before a withdrawal that names the same thing (or "that rule", the one just before) is dropped. */
export function standingRules<T extends Placed>(
  rules: readonly T[],
  withdrawals: readonly Placed[],
): { standing: T[]; withdrawn: { rule: T; by: Placed }[] } {
  const withdrawn = new Map<T, Placed>();
  for (const by of withdrawals) {
    const anchors = anchorsOf(by.text);
    const before = rules.filter((rule) => rule.at < by.at && !withdrawn.has(rule));
    const named = before.filter((rule) => [...anchorsOf(rule.text)].some((a) => anchors.has(a)));
    const pointed = named.length === 0 && anchors.size === 0 && /\bthat rule\b/i.test(by.text) ? before.slice(-1) : [];
    for (const rule of [...named, ...pointed]) withdrawn.set(rule, by);
  }
  return {
    standing: rules.filter((rule) => !withdrawn.has(rule)),
    withdrawn: [...withdrawn].map(([rule, by]) => ({ rule, by })),
  };
}
