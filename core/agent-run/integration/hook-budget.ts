import { countOf, formatCount } from "../../format.ts";

/**
 * The time a hook's handoff has, and the one rule for a session too long for it: **the offline
 * engine writes the document instead, and the answer says so in one line.** The agent stops a hook
 * at its timeout (Claude Code: 600 s) and shows nothing but a timeout, so the handoff must end
 * inside it. The budget is split between the engine and the offline engine, and the rule applies
 * before anything is sent (the plan at `PACE`) and while the engine runs; why condensing harder
 * would not help is in docs/in-agent.md ("A session too long for the hook's time").
 */

/** A plan's size, as `agent handoff --dry-run --json` reports it. */
export interface PlannedRun {
  requests: number;
  inputTokens: number;
}

/**
 * How fast we assume an engine goes, on the slow side: reading its input (a hosted model's
 * prompt processing, with the agent's own start and instructions) and writing one answer of a
 * few thousand tokens (notes, or the document). A first request is always tried (the bound while
 * it runs covers it); what the estimate catches is the plan that cannot finish: many requests, or
 * a great many tokens.
 */
export const PACE = { inputTokensPerSecond: 1_500, secondsPerFurtherRequest: 60 } as const;

/** What the offline engine keeps of the budget: it reads and writes locally, in seconds even for a large session. */
const OFFLINE_SHARE = 0.25;
const OFFLINE_MOST_SECONDS = 60;

export interface HookBudget {
  /** The whole budget, in seconds. */
  seconds: number;
  /** The engine's share: it is stopped after this long. */
  engineSeconds: number;
}

/** The budget for a hook whose agent stops it after `seconds` (less the margin already). */
export function splitHookBudget(seconds: number): HookBudget {
  const offline = Math.min(OFFLINE_MOST_SECONDS, seconds * OFFLINE_SHARE);
  return { seconds, engineSeconds: seconds - offline };
}

/** Our estimate of how long an engine takes for `plan`, in seconds. */
export function estimateSeconds(plan: PlannedRun): number {
  return plan.inputTokens / PACE.inputTokensPerSecond + Math.max(0, plan.requests - 1) * PACE.secondsPerFurtherRequest;
}

function engineWords(engine: string): string {
  return engine === "llm" ? "the model" : engine;
}

function seconds(value: number): string {
  return `${formatCount(Math.round(value))} s`;
}

/** The line when the plan is too large for the engine's share: the engine was never started. */
export function tooLongLine(engine: string, plan: PlannedRun, budget: HookBudget): string {
  const what = `${countOf(plan.requests, engine === "llm" ? "request" : "run")}, ~${formatCount(plan.inputTokens)} input tokens`;
  return `The offline engine wrote the document: this session is too long for ${engineWords(engine)} to finish within the hook's time (${what}: ~${seconds(estimateSeconds(plan))}, more than the ${seconds(budget.engineSeconds)} it has).`;
}

/** The line when the engine ran out of its share: it was stopped, nothing of it written. */
export function ranOutLine(engine: string, budget: HookBudget): string {
  return `The offline engine wrote the document: ${engineWords(engine)} had not finished within the ${seconds(budget.engineSeconds)} the hook gives it, and was stopped.`;
}
