/**
 * How big a run is before it starts: the requests a handoff will make (each one run of an agent
 * engine) and the input tokens they carry, by our estimate. The one rule for `--max-input-tokens`
 * lives here: a plan over the limit is refused before anything is sent, and a request no plan
 * foresaw (a `--strict` repair, a re-plan after the endpoint refused a request as too large) is
 * not sent when it would take the run past the limit.
 */
import { AgentError } from "../errors.ts";
import { countOf, formatCount } from "../format.ts";

export interface RunPlan {
  requests: number;
  /** Our estimate of the prompt tokens of all the requests together (notes not yet written count at their limit). */
  inputTokens: number;
}

/** The most input tokens a run may send, and how the user set it, for messages (`--max-input-tokens 500000`). */
export interface InputLimit {
  tokens: number;
  setBy: string;
}

/** Who a plan's requests go to: a model at an endpoint, or an agent's own CLI (which brings its own model and instructions). */
export type PlanTarget = { model: string } | { agent: string };

function describeRequests(requests: number, to: PlanTarget): string {
  return "agent" in to ? `${countOf(requests, "run")} of ${to.agent}` : `${countOf(requests, "request")} to ${to.model}`;
}

/** The line printed before a run sends anything: `plan: 20 requests to gpt-4.1-mini, ~1,900,000 input tokens`. */
export function describeRunPlan(plan: RunPlan, to: PlanTarget): string {
  const own = "agent" in to ? " (it adds its own instructions and uses its own model)" : "";
  return `plan: ${describeRequests(plan.requests, to)}, ~${formatCount(plan.inputTokens)} input tokens${own}`;
}

/** Refuses a plan larger than the limit (a usage error, exit 2): nothing has been sent yet. */
export function checkRunPlan(plan: RunPlan, to: PlanTarget, limit: InputLimit | undefined): void {
  if (limit === undefined || plan.inputTokens <= limit.tokens) return;
  throw new AgentError(
    "USAGE",
    `the handoff would send ~${formatCount(plan.inputTokens)} input tokens (${describeRequests(plan.requests, to)}), more than ${limit.setBy} allows; nothing was sent`,
  );
}

/**
 * Refuses a request outside the plan that would take the run past the limit; the run fails
 * (exit 1), as requests were sent already. `what` names the request (`a repair request (--strict)`).
 */
export function checkUnplannedRequest(sentTokens: number, requestTokens: number, what: string, limit: InputLimit | undefined): void {
  if (limit === undefined || sentTokens + requestTokens <= limit.tokens) return;
  throw new AgentError(
    "HANDOFF_FAILED",
    `${what} would send ~${formatCount(requestTokens)} more input tokens, ~${formatCount(sentTokens + requestTokens)} in all, more than ${limit.setBy} allows; it was not sent`,
  );
}
