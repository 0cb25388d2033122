import type { ChatRequest, Complete, TokenUsage } from "../llm/types.ts";
import type { ContextMessage } from "../session/messages.ts";
import type { TextQuarters } from "../session/tokens.ts";
import type { CondenseReport } from "./condense/condense-report.ts";
import type { InputLimit, PlanTarget, RunPlan } from "./run-plan.ts";

export interface ModelEngineInput {
  context: readonly ContextMessage[];
  model: string;
  focus?: string;
  systemPrompt?: string;
  strict?: boolean;
  /** The model's context window in tokens (default 128000); larger contexts are condensed to fit. */
  contextWindow?: number;
  /** Caps the document's length (`max_tokens`); also what the budget keeps free for it. */
  maxOutputTokens?: number;
  /** Room a reasoning model thinks in, added to every output limit sent (see providers/shape.ts). */
  reasoningAllowance?: number;
  /** The most input tokens the run may send (`--max-input-tokens`); see run-plan.ts. */
  inputLimit?: InputLimit;
  /** Who the requests go to, for the plan's messages; default the model. */
  sendsTo?: PlanTarget;
  /**
   * Our estimate of a request as it is actually sent, what the plan and `--max-input-tokens`
   * count: by default the chat request; for an agent engine, the prompt and files its run gets.
   */
  measure?: (request: ChatRequest) => number;
  /** The run's memo of the text estimate (`rememberingQuarters`), when the caller has one; default a fresh one. */
  textQuarters?: TextQuarters;
}

export interface ModelEngineDeps {
  complete: Complete;
  signal?: AbortSignal;
  /** Told the plan once it is checked against the limit, before the first request is sent. */
  onPlan?: (plan: RunPlan) => void;
}

/** A document as the model wrote it, and what it cost. */
export interface EngineResult {
  document: string;
  usage: TokenUsage;
  /** The model that answered, when the endpoint said. */
  answeredBy: string | undefined;
  /** How the completion that gave the document ended (`stop`, `length`: cut at the output limit, …). */
  finishReason: string;
  requests: number;
  warnings: string[];
  /** What was condensed to fit the window; `null` when the context went as it was. */
  condensed: CondenseReport | null;
}

/** What `--dry-run` shows: the plan in words, and every request it would send, in order. */
export interface PlannedRequests {
  requests: ChatRequest[];
  /** The plan in words, one line each. */
  lines: string[];
  /** `null` when nothing would be condensed. */
  condensed: CondenseReport | null;
  /** How many requests, and their input tokens together: what `--max-input-tokens` is checked against. */
  plan: RunPlan;
}
