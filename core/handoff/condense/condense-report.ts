import { countOf, formatCount } from "../../format.ts";
import { estimateTokens } from "../../session/tokens.ts";
import { SAFETY_MARGIN } from "./budget.ts";
import type { CondensePlan } from "./plan.ts";
import { handoffContext } from "./condensed-requests.ts";

/** What was condensed to fit the window, as `--json` shows it under `condensed`. */
export interface CondenseReport {
  contextWindow: number;
  /** Times the endpoint refused a request as too large and the budget was halved. */
  halvings: number;
  /** Our estimate of the branch's context. */
  tokensBefore: number;
  /** Our estimate of the context the handoff request carried (notes and verbatim turns). */
  tokensAfter: number;
  toolResultsShortened: number;
  imagesReplaced: number;
  /** Turns (a message, or a tool-calling message with its results) folded into notes. */
  turnsFolded: number;
  messagesFolded: number;
  /** Messages cut because, with their turn, they were larger than one notes request can carry. */
  messagesShortened: number;
  notesRequests: number;
  /** Requests made, refused ones included. */
  requests: number;
  /** Our estimate of the prompt tokens of all those requests together. */
  tokensSent: number;
}

/** Our estimate of the handoff request's context; notes not yet written count at their limit. */
export function estimateContextAfter(plan: CondensePlan, notes: string | undefined): number {
  const folded = plan.chunks.length > 0;
  const tokens = estimateTokens(handoffContext(plan, notes ?? ""));
  return folded && notes === undefined ? tokens + plan.notesReserve : tokens;
}

/** The report for a plan that was carried out. */
export function reportCondensed(
  plan: CondensePlan,
  notes: string | undefined,
  sent: { requests: number; tokensSent: number },
): CondenseReport {
  return {
    contextWindow: plan.budget.contextWindow,
    halvings: plan.budget.halvings,
    tokensBefore: plan.tokensBefore,
    tokensAfter: estimateContextAfter(plan, notes),
    toolResultsShortened: plan.light.toolResultsShortened,
    imagesReplaced: plan.light.imagesReplaced,
    turnsFolded: plan.foldedTurns,
    messagesFolded: plan.foldedMessages,
    messagesShortened: plan.messagesShortened,
    notesRequests: plan.chunks.length,
    requests: sent.requests,
    tokensSent: sent.tokensSent,
  };
}

function cuts(parts: {
  toolResultsShortened: number;
  imagesReplaced: number;
  messagesShortened: number;
  messagesFolded: number;
  turnsFolded: number;
}): string[] {
  const said: string[] = [];
  if (parts.toolResultsShortened > 0) said.push(`${countOf(parts.toolResultsShortened, "tool result")} shortened to head and tail`);
  if (parts.imagesReplaced > 0) said.push(`${countOf(parts.imagesReplaced, "image")} left out`);
  if (parts.messagesFolded > 0)
    said.push(`the oldest ${countOf(parts.messagesFolded, "message")} (${countOf(parts.turnsFolded, "turn")}) folded into notes`);
  if (parts.messagesShortened > 0) said.push(`${countOf(parts.messagesShortened, "message")} too large for one notes request cut to fit`);
  return said;
}

/** One or two lines for stderr after a condensed handoff. */
export function describeCondensed(report: CondenseReport): string[] {
  const what = cuts(report);
  const lines = [
    `condensed the context from ~${formatCount(report.tokensBefore)} to ~${formatCount(report.tokensAfter)} tokens for a ${formatCount(report.contextWindow)}-token window` +
      `${what.length > 0 ? `: ${what.join(", ")}` : ""}; ${countOf(report.requests, "request")} (~${formatCount(report.tokensSent)} prompt tokens in all)`,
  ];
  if (report.halvings > 0) {
    lines.push(
      `the endpoint refused a request as larger than its window, so the budget was halved ${report.halvings === 1 ? "once" : report.halvings === 2 ? "twice" : `${report.halvings} times`} and the handoff planned again; is --context-window right for this model?`,
    );
  }
  return lines;
}

/** The plan in words, for `--dry-run`: budget, stages, and each request with its estimate. */
export function describePlan(plan: CondensePlan, requestTokens: readonly number[]): string[] {
  const b = plan.budget;
  const lines = [
    `context ~${formatCount(plan.tokensBefore)} tokens; a request may carry ~${formatCount(b.promptLimit)} of the ${formatCount(b.contextWindow)}-token window ` +
      `(${formatCount(b.outputReserve)} kept for the document, ${Math.round(SAFETY_MARGIN * 100)}% margin for our estimate)`,
  ];
  if (plan.mode === "whole") return [...lines, "it fits: nothing is condensed"];
  const light = cuts({ ...plan.light, messagesShortened: 0, messagesFolded: 0, turnsFolded: 0 });
  lines.push(
    `stage 1 (tool results at most ~${formatCount(plan.toolResultCap ?? 0)} tokens each): ${light.join(", ") || "nothing to cut"}`,
  );
  if (plan.mode === "folded") {
    const latest = plan.latestRequest === undefined ? "" : "; the latest user request was among them and is quoted in the last request";
    lines.push(
      `stage 2: ${cuts({ ...plan, toolResultsShortened: 0, imagesReplaced: 0, messagesFolded: plan.foldedMessages, turnsFolded: plan.foldedTurns }).join(", ")}, over ${countOf(plan.chunks.length, "request")}; the latest ${countOf(plan.recent.length, "message")} go verbatim${latest}`,
    );
  }
  requestTokens.forEach((tokens, i) => {
    const what = i < plan.chunks.length ? `notes on part ${i + 1} of ${plan.chunks.length}` : "the handoff document";
    const notes = plan.chunks.length > 0 && i > 0 ? `, notes counted at their limit of ${formatCount(plan.notesReserve)}` : "";
    lines.push(`request ${i + 1} of ${requestTokens.length}: ${what}, ~${formatCount(tokens)} tokens${notes}`);
  });
  if (plan.chunks.length > 0)
    lines.push("the requests printed after the first show placeholder notes: the real notes are written by the requests before them");
  return lines;
}
