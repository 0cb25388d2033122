/**
 * What a handoff's input means for the requests, shared by `planHandoffRequests` and `runHandoff`
 * so the dry run shows what the run sends: the secrets guard, the provider profile, the reasoning
 * allowance, who the requests go to, and how they are measured.
 */
import { estimateAgentRunTokens } from "../agent-run/prompt-tokens.ts";
import { AGENT_ENGINES } from "../agent-run/table.ts";
import { GENERIC, type ProviderProfile } from "../llm/providers/profile.ts";
import { reasoningAllowance } from "../llm/providers/shape.ts";
import type { ChatRequest } from "../llm/types.ts";
import { createSecretsGuard, type SecretsGuard } from "../secrets/secrets-guard.ts";
import { DEFAULT_CONTEXT_WINDOW } from "./condense/budget.ts";
import type { ModelEngineInput } from "./llm-engine-types.ts";
import type { HandoffInput } from "./pipeline-types.ts";
import type { PlanTarget } from "./run-plan.ts";

export function guardFor(input: HandoffInput): SecretsGuard {
  return createSecretsGuard({
    context: input.analysis.context,
    focus: input.focus,
    systemPrompt: input.systemPrompt,
    redact: input.redact,
    withheld: input.withheld,
  });
}

export function profileOf(input: HandoffInput): ProviderProfile {
  return input.profile ?? GENERIC;
}

/** The room a reasoning model thinks in, for this model on this provider (0 for other models). */
export function allowanceFor(input: HandoffInput): number {
  return reasoningAllowance(profileOf(input), input.model, input.contextWindow ?? DEFAULT_CONTEXT_WINDOW);
}

/** Who a handoff's requests go to: the model, or the agent whose CLI runs them. */
export function planTargetOf(input: HandoffInput): PlanTarget {
  return input.api === "agent-cli" ? { agent: input.model } : { model: input.model };
}

/**
 * What a request costs as it is sent, for the plan and `--max-input-tokens`: an agent engine's
 * run is given the request as a transcript prompt, not as chat messages; undefined: the chat request.
 */
export function measureFor(input: HandoffInput): ((request: ChatRequest) => number) | undefined {
  if (input.api !== "agent-cli") return undefined;
  const engine = AGENT_ENGINES.find((e) => e.name === input.model);
  return engine === undefined ? undefined : (request) => estimateAgentRunTokens(engine, request);
}

/** The model engine's input, one for the dry run's plan and the run alike: what may be sent, and how it is weighed. */
export function engineInputFor(input: HandoffInput, guard: SecretsGuard): ModelEngineInput {
  return {
    ...input,
    ...guard.outgoing(),
    reasoningAllowance: allowanceFor(input),
    sendsTo: planTargetOf(input),
    measure: measureFor(input),
    textQuarters: input.analysis.textQuarters,
  };
}
