import { AgentError, isAgentError } from "../errors.ts";
import { formatCount } from "../format.ts";
import { CompletionError } from "../llm/types.ts";
import { rememberingQuarters } from "../session/tokens.ts";
import { runPlan } from "./carry-out-plan.ts";
import { DEFAULT_CONTEXT_WINDOW, scaleAfterRefusal } from "./condense/budget.ts";
import { placeholderNotes } from "./condense/notes-prompt.ts";
import type { CondensePlan } from "./condense/plan.ts";
import { describePlan, reportCondensed } from "./condense/condense-report.ts";
import { buildNotesRequest } from "./condense/condensed-requests.ts";
import { estimateRequests, finalRequestOf, measureOf, planFor, setupFor, sum, targetOf } from "./llm-engine-plan.ts";
import type { EngineResult, ModelEngineDeps, ModelEngineInput, PlannedRequests } from "./llm-engine-types.ts";
import type { Sender, Tally } from "./request-sender.ts";
import { checkRunPlan, checkUnplannedRequest } from "./run-plan.ts";

/** Times the budget is halved when the endpoint still finds a request too large. */
export const MAX_HALVINGS = 3;

/**
 * The requests a handoff would send, without sending any. Notes requests after the first, and
 * the handoff request after a fold, carry placeholder notes: the real ones come from the model.
 */
export function planDocumentRequests(input: ModelEngineInput): PlannedRequests {
  // One memo of the text estimate for the plan and every count of its requests.
  const textQuarters = input.textQuarters ?? rememberingQuarters();
  const plan = planFor(input, textQuarters);
  const setup = setupFor(input);
  const folded = plan.chunks.length > 0;
  const requests = plan.chunks.map((_, i) => buildNotesRequest(setup, plan, i, i === 0 ? undefined : placeholderNotes(i)));
  requests.push(finalRequestOf(setup, plan, folded ? placeholderNotes(plan.chunks.length) : undefined));
  // Estimates count the notes at their limit, not at the placeholder's length.
  const estimates = estimateRequests(plan, setup, measureOf(input, textQuarters));
  const tokensSent = sum(estimates);
  return {
    requests,
    lines: describePlan(plan, estimates),
    condensed: plan.mode === "whole" ? null : reportCondensed(plan, undefined, { requests: requests.length, tokensSent }),
    plan: { requests: requests.length, inputTokens: tokensSent },
  };
}

/** What the retries tried, for the message when they all failed. */
function describeRefusals(refused: readonly number[], window: number): string {
  const shown = refused.map((n) => `~${formatCount(n)}`);
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
  const times = refused.length === 1 ? "a request" : `${refused.length} requests`;
  return `the endpoint refused ${times} of ${list} tokens (our estimate) as larger than the model's context window; --context-window is ${window}, and the budget was halved after each refusal`;
}

/**
 * Has the model write the document. A context over the window's budget is condensed first
 * (see condense/plan.ts), which may take several requests. When the endpoint still refuses a
 * request as too large, our estimate was off: the budget is halved (to at most half the refused
 * request) and the handoff planned and run again, at most `MAX_HALVINGS` times. Missing sections
 * are a warning, or under `strict` get one repair request and then fail.
 */
export async function writeDocumentWithModel(input: ModelEngineInput, deps: ModelEngineDeps): Promise<EngineResult> {
  const tally: Tally = { requests: 0, tokensSent: 0, usage: { inputTokens: 0, outputTokens: 0 }, last: { tokens: 0, limit: 1 } };
  // One memo of the text estimate for every plan and every count of the requests sent.
  const textQuarters = input.textQuarters ?? rememberingQuarters();
  const sender: Sender = { deps, tally, measure: measureOf(input, textQuarters), textQuarters, inputLimit: input.inputLimit };
  const window = input.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const refused: number[] = [];
  let lastRefusal = "";
  let scale = 1;
  for (let halvings = 0; ; halvings++) {
    let plan: CondensePlan;
    try {
      plan = planFor(input, textQuarters, halvings, scale);
    } catch (error) {
      if (halvings === 0 || !(isAgentError(error) && error.code === "USAGE")) throw error;
      throw new AgentError(
        "HANDOFF_FAILED",
        `${describeRefusals(refused, window)}; planning smaller cannot work (${error.message}); is --context-window right for this model? (the endpoint said: ${lastRefusal})`,
      );
    }
    const planned = { requests: plan.chunks.length + 1, inputTokens: sum(estimateRequests(plan, setupFor(input), sender.measure)) };
    if (halvings === 0) {
      // Before anything is sent: a plan over the limit is refused, any other is told.
      checkRunPlan(planned, targetOf(input), input.inputLimit);
      deps.onPlan?.(planned);
    } else
      checkUnplannedRequest(
        tally.tokensSent,
        planned.inputTokens,
        "the smaller plan made after the endpoint refused a request as too large",
        input.inputLimit,
      );
    try {
      const written = await runPlan(plan, input, sender);
      const condensed = plan.mode === "whole" && halvings === 0 ? null : reportCondensed(plan, written.notes, tally);
      const { document, answeredBy, finishReason, warnings } = written;
      return { document, usage: tally.usage, answeredBy, finishReason, requests: tally.requests, warnings, condensed };
    } catch (error) {
      if (!(error instanceof CompletionError && error.failure === "context_length")) throw error;
      refused.push(tally.last.tokens);
      lastRefusal = error.message;
      if (halvings >= MAX_HALVINGS)
        throw new AgentError(
          "HANDOFF_FAILED",
          `${describeRefusals(refused, window)}; is --context-window right for this model? (the endpoint said: ${lastRefusal})`,
        );
      scale = scaleAfterRefusal(scale, tally.last.tokens, tally.last.limit);
    }
  }
}
