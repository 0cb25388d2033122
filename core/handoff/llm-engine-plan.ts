/**
 * The model engine's plan, shared by the dry run and the run so both plan and count alike: the
 * request setup, the condensation plan, and our estimate of each request it makes.
 */
import type { ChatRequest } from "../llm/types.ts";
import type { TextQuarters } from "../session/tokens.ts";
import { DEFAULT_CONTEXT_WINDOW, estimateRequestTokens } from "./condense/budget.ts";
import { planCondensation, type CondensePlan } from "./condense/plan.ts";
import { buildFinalRequest, buildNotesRequest, type RequestSetup } from "./condense/condensed-requests.ts";
import type { ModelEngineInput } from "./llm-engine-types.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "./prompt.ts";
import type { PlanTarget } from "./run-plan.ts";

export function setupFor(input: ModelEngineInput): RequestSetup {
  return {
    model: input.model,
    systemPrompt: input.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    instruction: renderInstruction(input.focus),
    focus: input.focus,
    maxOutputTokens: input.maxOutputTokens,
    reasoningAllowance: input.reasoningAllowance,
  };
}

export function planFor(input: ModelEngineInput, textQuarters: TextQuarters, halvings = 0, scale = 1): CondensePlan {
  return planCondensation({
    ...setupFor(input),
    context: input.context,
    contextWindow: input.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    halvings,
    scale,
    textQuarters,
  });
}

export function measureOf(input: ModelEngineInput, textQuarters: TextQuarters): (request: ChatRequest) => number {
  return input.measure ?? ((request) => estimateRequestTokens(request, textQuarters));
}

/** The handoff request: with no notes, the one the plan built and measured (see `CondensePlan.finalRequest`). */
export function finalRequestOf(setup: RequestSetup, plan: CondensePlan, notes: string | undefined): ChatRequest {
  return notes === undefined && plan.finalRequest !== undefined ? plan.finalRequest : buildFinalRequest(setup, plan, notes);
}

/** Our estimate of each request a plan makes, in order, as sent; notes not yet written count at their limit. */
export function estimateRequests(plan: CondensePlan, setup: RequestSetup, measure: (request: ChatRequest) => number): number[] {
  const folded = plan.chunks.length > 0;
  return [
    ...plan.chunks.map((_, i) => measure(buildNotesRequest(setup, plan, i, i === 0 ? undefined : "")) + (i === 0 ? 0 : plan.notesReserve)),
    measure(finalRequestOf(setup, plan, folded ? "" : undefined)) + (folded ? plan.notesReserve : 0),
  ];
}

export function sum(numbers: readonly number[]): number {
  return numbers.reduce((total, n) => total + n, 0);
}

export function targetOf(input: ModelEngineInput): PlanTarget {
  return input.sendsTo ?? { model: input.model };
}
