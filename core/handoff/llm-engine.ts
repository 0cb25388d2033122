import { AgentError, isAgentError } from "../errors.ts";
import { formatCount } from "../format.ts";
import { CompletionError, type ChatRequest, type Complete, type Completion, type TokenUsage } from "../llm/types.ts";
import { sentOutputLimit } from "../llm/answer-bound.ts";
import { isModelId } from "../llm/model-id.ts";
import type { ContextMessage } from "../session/messages.ts";
import { rememberingQuarters, type TextQuarters } from "../session/tokens.ts";
import { captureDocument } from "./capture.ts";
import { DEFAULT_CONTEXT_WINDOW, estimateRequestTokens, scaleAfterRefusal } from "./condense/budget.ts";
import { placeholderNotes } from "./condense/notes-prompt.ts";
import { planCondensation, type CondensePlan } from "./condense/plan.ts";
import { describePlan, reportCondensed, type CondenseReport } from "./condense/condense-report.ts";
import { buildFinalRequest, buildNotesRequest, type RequestSetup } from "./condense/condensed-requests.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction, renderRepairInstruction } from "./prompt.ts";
import { checkRunPlan, checkUnplannedRequest, type InputLimit, type PlanTarget, type RunPlan } from "./run-plan.ts";
import { findMissingSections } from "./validate.ts";

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

/** Times the budget is halved when the endpoint still finds a request too large. */
export const MAX_HALVINGS = 3;

function setupFor(input: ModelEngineInput): RequestSetup {
  return {
    model: input.model,
    systemPrompt: input.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    instruction: renderInstruction(input.focus),
    focus: input.focus,
    maxOutputTokens: input.maxOutputTokens,
    reasoningAllowance: input.reasoningAllowance,
  };
}

function planFor(input: ModelEngineInput, textQuarters: TextQuarters, halvings = 0, scale = 1): CondensePlan {
  return planCondensation({
    ...setupFor(input),
    context: input.context,
    contextWindow: input.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    halvings,
    scale,
    textQuarters,
  });
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

function measureOf(input: ModelEngineInput, textQuarters: TextQuarters): (request: ChatRequest) => number {
  return input.measure ?? ((request) => estimateRequestTokens(request, textQuarters));
}

/** The handoff request: with no notes, the one the plan built and measured (see `CondensePlan.finalRequest`). */
function finalRequestOf(setup: RequestSetup, plan: CondensePlan, notes: string | undefined): ChatRequest {
  return notes === undefined && plan.finalRequest !== undefined ? plan.finalRequest : buildFinalRequest(setup, plan, notes);
}

/** Our estimate of each request a plan makes, in order, as sent; notes not yet written count at their limit. */
function estimateRequests(plan: CondensePlan, setup: RequestSetup, measure: (request: ChatRequest) => number): number[] {
  const folded = plan.chunks.length > 0;
  return [
    ...plan.chunks.map((_, i) => measure(buildNotesRequest(setup, plan, i, i === 0 ? undefined : "")) + (i === 0 ? 0 : plan.notesReserve)),
    measure(finalRequestOf(setup, plan, folded ? "" : undefined)) + (folded ? plan.notesReserve : 0),
  ];
}

function sum(numbers: readonly number[]): number {
  return numbers.reduce((total, n) => total + n, 0);
}

function targetOf(input: ModelEngineInput): PlanTarget {
  return input.sendsTo ?? { model: input.model };
}

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

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
}

/** Requests made and what they cost, across every attempt of one handoff. */
interface Tally {
  /** Requests sent, every attempt counted. */
  requests: number;
  /** Our estimate of all of them together, as sent (`measure`): what `--max-input-tokens` bounds. */
  tokensSent: number;
  usage: TokenUsage;
  /** Our estimate of the last request sent, and the limit it was planned under. */
  last: { tokens: number; limit: number };
}

/** How one handoff sends: its effects, what it has sent so far, and the rule for what it may still send. */
interface Sender {
  deps: ModelEngineDeps;
  tally: Tally;
  measure: (request: ChatRequest) => number;
  /** The run's memo of the text estimate (`rememberingQuarters`). */
  textQuarters: TextQuarters;
  inputLimit: InputLimit | undefined;
}

/**
 * One request. Every attempt the port makes is counted as it goes out (`beforeSend`): the first
 * is the one the plan (or the caller's own check) allowed; any later one, a retry after a failure
 * or a resend without a refused parameter, is a request no plan foresaw, and is not sent when it
 * would take the run past `--max-input-tokens`. An abort wins over whatever the port made of it.
 */
async function send(request: ChatRequest, limit: number, sender: Sender): Promise<Completion> {
  const { deps, tally } = sender;
  throwIfCancelled(deps.signal);
  tally.last = { tokens: estimateRequestTokens(request, sender.textQuarters), limit };
  let attempts = 0;
  const beforeSend = (sent: ChatRequest): void => {
    const tokens = sender.measure(sent);
    if (attempts > 0) checkUnplannedRequest(tally.tokensSent, tokens, "a retry of a request", sender.inputLimit);
    attempts++;
    tally.requests++;
    tally.tokensSent += tokens;
  };
  let completion: Completion;
  try {
    completion = await deps.complete(request, { signal: deps.signal, beforeSend });
  } finally {
    // A port that never said it sent (a fake in a test) is counted as one request.
    if (attempts === 0) beforeSend(request);
  }
  // ...and the resends it reports, where it did not tell them either.
  if (attempts === 1) tally.requests += completion.resent ?? 0;
  throwIfCancelled(deps.signal);
  tally.usage.inputTokens += completion.usage?.inputTokens ?? 0;
  tally.usage.outputTokens += completion.usage?.outputTokens ?? 0;
  const reasoning = completion.usage?.reasoningTokens;
  if (reasoning !== undefined) tally.usage.reasoningTokens = (tally.usage.reasoningTokens ?? 0) + reasoning;
  // The model an engine says answered is stored and printed: one that is not an identifier is
  // dropped here, for every engine, and the model we asked for stands in.
  return isModelId(completion.model) ? completion : { ...completion, model: undefined };
}

/**
 * Sends a request. A context-length refusal passes through as a `CompletionError` (the caller
 * re-plans); every other failure becomes an `AgentError`. (Refused parameters were already
 * retried by the provider port, providers/adapt.ts.)
 */
async function completeRequest(
  request: ChatRequest,
  limit: number,
  sender: Sender,
): Promise<{ completion: Completion; sent: ChatRequest }> {
  try {
    return { completion: await send(request, limit, sender), sent: request };
  } catch (error) {
    if (error instanceof CompletionError && error.failure !== "context_length") throw new AgentError("HANDOFF_FAILED", error.message);
    throw error;
  }
}

/**
 * Why an answer came back empty: a reasoning model can spend its whole output limit thinking
 * and stop (`length`) before the first visible word.
 */
function noTextReason(completion: Completion, what: string, limit: number | undefined): string {
  if (completion.finishReason !== "length") return `the model returned no ${what}`;
  const spent = completion.usage?.reasoningTokens;
  const thinking = spent ? ` (${formatCount(spent)} of them reasoning)` : "";
  const raise = limit === undefined ? "" : `; raise --max-output-tokens (the limit sent was ${formatCount(limit)})`;
  return `the model used its whole output limit${thinking} and returned no ${what}${raise}`;
}

function documentFrom(completion: Completion, sent: ChatRequest): string {
  const document = captureDocument(completion.text);
  if (document === "") throw new AgentError("HANDOFF_FAILED", noTextReason(completion, "text", sentOutputLimit(sent)));
  return document;
}

function listSections(missing: readonly string[]): string {
  return missing.map((s) => `"## ${s}"`).join(", ");
}

interface Written {
  document: string;
  answeredBy: string | undefined;
  finishReason: string;
  warnings: string[];
  notes: string | undefined;
}

/** Carries out one plan: the notes requests oldest first, then the handoff request (and a repair under `strict`). */
async function runPlan(plan: CondensePlan, input: ModelEngineInput, sender: Sender): Promise<Written> {
  const setup = setupFor(input);
  const warnings: string[] = [];
  let notes: string | undefined;
  for (let i = 0; i < plan.chunks.length; i++) {
    const { completion, sent } = await completeRequest(buildNotesRequest(setup, plan, i, notes), plan.budget.notesPromptLimit, sender);
    notes = captureDocument(completion.text);
    if (notes === "")
      throw new AgentError(
        "HANDOFF_FAILED",
        `${noTextReason(completion, "notes", sentOutputLimit(sent))} for part ${i + 1} of ${plan.chunks.length} of the condensed session`,
      );
    if (completion.finishReason === "length")
      warnings.push(
        `the notes on part ${i + 1} of ${plan.chunks.length} reached their limit of ${plan.notesReserve} tokens and may be cut short`,
      );
  }

  const first = await completeRequest(finalRequestOf(setup, plan, notes), plan.budget.promptLimit, sender);
  let answeredBy = first.completion.model;
  let finishReason = first.completion.finishReason;
  let document = documentFrom(first.completion, first.sent);
  if (first.completion.finishReason === "length") warnings.push("the model stopped at its output limit; the document may be cut short");
  let missing = findMissingSections(document);

  if (missing.length > 0 && input.strict) {
    const messages = [
      ...first.sent.messages,
      { role: "assistant" as const, content: document },
      { role: "user" as const, content: renderRepairInstruction(missing) },
    ];
    const request = { ...first.sent, messages };
    checkUnplannedRequest(sender.tally.tokensSent, sender.measure(request), "a repair request (--strict)", input.inputLimit);
    const repair = await completeRequest(request, plan.budget.promptLimit, sender);
    answeredBy = repair.completion.model ?? answeredBy;
    finishReason = repair.completion.finishReason;
    document = documentFrom(repair.completion, repair.sent);
    missing = findMissingSections(document);
    if (missing.length > 0)
      throw new AgentError("HANDOFF_FAILED", `the document still lacks ${listSections(missing)} after a repair request (--strict)`);
  } else if (missing.length > 0) {
    warnings.push(`the document lacks ${listSections(missing)}`);
  }
  return { document, answeredBy, finishReason, warnings, notes };
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
