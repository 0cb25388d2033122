import { AgentError } from "../../errors.ts";
import type { ChatRequest } from "../../llm/types.ts";
import { estimateTextQuarters, IMAGE_TOKENS, type TextQuarters } from "../../session/tokens.ts";

/** The window we assume when none is given: what most hosted models offer today. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The largest output reserve we pick ourselves; a handoff document is a few thousand tokens. */
const DEFAULT_OUTPUT_RESERVE_MAX = 8192;

/**
 * Our estimate (session/tokens.ts) is off for each tokenizer and for each provider's
 * framing of messages, so every prompt limit keeps this share of its room unused.
 */
export const SAFETY_MARGIN = 0.1;

/** What one chat message costs beyond its text: role and framing tokens. */
export const MESSAGE_OVERHEAD = 4;

/** Notes never get less room than this, however small the window. */
const MIN_NOTES_RESERVE = 256;

export interface BudgetInput {
  contextWindow: number;
  /** The user's cap on the document's length; also what we reserve for it. */
  maxOutputTokens?: number;
  /** Tokens a reasoning model may spend thinking before each answer (0 for other models). */
  reasoningAllowance?: number;
  /** How many times the endpoint already refused a request as too large. */
  halvings?: number;
  /**
   * What the prompt limits and the notes are scaled by after those refusals (default 1): each
   * refusal at least halves it (see `scaleAfterRefusal`).
   */
  scale?: number;
}

/** How many tokens each kind of request may carry, by our estimate. */
export interface Budget {
  contextWindow: number;
  /** Kept free in the handoff request for the document (and the reasoning before it). */
  outputReserve: number;
  /** Added to every output limit sent, and kept free, for a reasoning model's thinking. */
  reasoningAllowance: number;
  /** The longest running notes may grow (they are an answer, then part of the next prompt). */
  notesReserve: number;
  /** The most a handoff request's whole prompt may be. */
  promptLimit: number;
  /** The most a notes request's whole prompt may be (its answer is shorter than the document's). */
  notesPromptLimit: number;
  halvings: number;
}

/** The output reserve when the user set none: a quarter of the window, at most 8192. */
export function defaultOutputReserve(contextWindow: number): number {
  return Math.min(DEFAULT_OUTPUT_RESERVE_MAX, Math.floor(contextWindow / 4));
}

/**
 * The limits for one plan. Window minus output reserve, less the safety margin, is what a
 * prompt may take; the system prompt and instruction are counted inside it when requests are
 * measured (see `estimateRequestTokens`). After refusals, the limits and the notes shrink by `scale`.
 */
export function computeBudget(input: BudgetInput): Budget {
  const window = input.contextWindow;
  if (!Number.isInteger(window) || window <= 0)
    throw new AgentError("USAGE", `the context window must be a positive whole number of tokens, not ${window}`);
  const documentReserve = input.maxOutputTokens ?? defaultOutputReserve(window);
  const reasoningAllowance = input.reasoningAllowance ?? 0;
  const outputReserve = documentReserve + reasoningAllowance;
  if (outputReserve >= window) {
    const plus = reasoningAllowance > 0 ? ` plus ${reasoningAllowance} for the model's reasoning` : "";
    throw new AgentError(
      "USAGE",
      `--max-output-tokens ${documentReserve}${plus} leaves no room in a ${window}-token context window; make it smaller than the window`,
    );
  }
  const halvings = input.halvings ?? 0;
  const scale = input.scale ?? 1;
  const notesReserve = Math.max(MIN_NOTES_RESERVE, Math.floor(Math.min(documentReserve, window / 8) * scale));
  return {
    contextWindow: window,
    outputReserve,
    reasoningAllowance,
    notesReserve,
    promptLimit: Math.floor((window - outputReserve) * (1 - SAFETY_MARGIN) * scale),
    notesPromptLimit: Math.floor(Math.max(0, window - notesReserve - reasoningAllowance) * (1 - SAFETY_MARGIN) * scale),
    halvings,
  };
}

/**
 * The scale for the next plan after the endpoint refused a request of `refusedTokens` (our
 * estimate) planned under `limit`: half of what that request held, so the next plan differs
 * even when the refused request was far below its limit.
 */
export function scaleAfterRefusal(scale: number, refusedTokens: number, limit: number): number {
  return (scale * Math.min(1, refusedTokens / Math.max(1, limit))) / 2;
}

/**
 * Our estimate of a whole request's prompt: every message's text, tool calls and framing, the
 * declared tools, images at a fixed price. Larger than counting message text alone, never smaller.
 * `textQuarters`: a run's memo of the text estimate (`rememberingQuarters`), the same numbers.
 */
export function estimateRequestTokens(request: ChatRequest, textQuarters: TextQuarters = estimateTextQuarters): number {
  const known = textQuarters.parts;
  let tokens = 0;
  if (request.tools) {
    const tools = request.tools;
    let cost = known?.get(tools);
    if (cost === undefined) {
      cost = Math.ceil(textQuarters(JSON.stringify(tools)) / 4);
      known?.set(tools, cost);
    }
    tokens += cost;
  }
  // The messages together, then each: a request is measured when planned, checked and sent, and
  // a copy of it (the guard's, the provider's shape) keeps the messages it did not change.
  let messages = known?.get(request.messages);
  if (messages === undefined) {
    messages = 0;
    for (const message of request.messages) {
      let cost = known?.get(message);
      if (cost === undefined) {
        cost = messageTokens(message, textQuarters);
        known?.set(message, cost);
      }
      messages += cost;
    }
    known?.set(request.messages, messages);
  }
  return tokens + messages;
}

/** One message of a request: its text, tool calls and framing, images at a fixed price. */
function messageTokens(message: ChatRequest["messages"][number], textQuarters: TextQuarters): number {
  const content = message.content;
  let quarters = 0;
  let images = 0;
  if (typeof content === "string") quarters = textQuarters(content);
  else if (content !== null)
    for (const part of content) {
      if (part.type === "text") quarters += textQuarters(part.text);
      else images++;
    }
  if (message.role === "assistant" && message.tool_calls)
    for (const call of message.tool_calls) quarters += textQuarters(call.function.name) + textQuarters(call.function.arguments);
  return MESSAGE_OVERHEAD + Math.ceil(quarters / 4) + images * IMAGE_TOKENS;
}
