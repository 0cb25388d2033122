import { AgentError } from "../errors.ts";
import { isModelId } from "../llm/model-id.ts";
import { CompletionError, type ChatRequest, type Completion, type TokenUsage } from "../llm/types.ts";
import type { TextQuarters } from "../session/tokens.ts";
import { throwIfCancelled } from "./cancelled.ts";
import { estimateRequestTokens } from "./condense/budget.ts";
import type { ModelEngineDeps } from "./llm-engine-types.ts";
import { checkUnplannedRequest, type InputLimit } from "./run-plan.ts";

/** Requests made and what they cost, across every attempt of one handoff. */
export interface Tally {
  /** Requests sent, every attempt counted. */
  requests: number;
  /** Our estimate of all of them together, as sent (`measure`): what `--max-input-tokens` bounds. */
  tokensSent: number;
  usage: TokenUsage;
  /** Our estimate of the last request sent, and the limit it was planned under. */
  last: { tokens: number; limit: number };
}

/** How one handoff sends: its effects, what it has sent so far, and the rule for what it may still send. */
export interface Sender {
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
export async function completeRequest(
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
