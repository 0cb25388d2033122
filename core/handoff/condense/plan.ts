import { AgentError } from "../../errors.ts";
import type { ChatRequest } from "../../llm/types.ts";
import { stubTools, toChatMessages } from "../../llm/messages.ts";
import { messageText, type ContextMessage } from "../../session/messages.ts";
import { estimateTextQuarters, estimateTokens, type TextQuarters } from "../../session/tokens.ts";
import { computeBudget, estimateRequestTokens, type Budget } from "./budget.ts";
import { condenseLightly, TOOL_RESULT_CAPS, type LightResult, type LightStats } from "./light.ts";
import { buildFinalRequest, buildNotesRequest, type PlannedParts, type RequestSetup } from "./condensed-requests.ts";
import { capToFit } from "./shorten.ts";
import { renderTranscriptMessage, TRANSCRIPT_SEPARATOR } from "./transcript.ts";
import { findLatestRequest, groupTurns, type Turn } from "./turns.ts";
import { countOf } from "../../format.ts";
import { lazily } from "../../lazy.ts";

export interface PlanInput extends RequestSetup {
  context: readonly ContextMessage[];
  contextWindow: number;
  /** Times the endpoint already refused a request as too large. */
  halvings?: number;
  /** What the limits are scaled by after those refusals (see `scaleAfterRefusal`). */
  scale?: number;
  /** The text estimate: the run's memo of it (`rememberingQuarters`), or by default counted afresh. */
  textQuarters?: TextQuarters;
}

/** `whole`: sent as it is. `shortened`: stage 1 was enough. `folded`: stage 2 folds the oldest part into notes. */
export type PlanMode = "whole" | "shortened" | "folded";

/** How a handoff's context will be sent: what was cut, what is folded into which requests. */
export interface CondensePlan extends PlannedParts {
  mode: PlanMode;
  budget: Budget;
  /** Our estimate of the branch's context before anything was cut (counted when a report first reads it). */
  readonly tokensBefore: number;
  /**
   * The handoff request when no notes go with it (nothing folded), as the plan measured it: the
   * run sends this one rather than building it again.
   */
  finalRequest?: ChatRequest;
  light: LightStats;
  /** Stage 1's cap on one tool result, in tokens, when stage 1 ran. */
  toolResultCap: number | undefined;
  foldedTurns: number;
  /** Messages cut because, with their turn, they were larger than one notes request can carry. */
  messagesShortened: number;
}

/** A notes request smaller than this would fold a session into hundreds of requests. */
const MIN_CHUNK_TOKENS = 500;
/** Room for what a notes request's framing adds as parts are numbered and notes wrapped. */
const NOTES_FRAME_SLACK = 40;

const NO_CUTS: LightStats = { toolResultsShortened: 0, imagesReplaced: 0, reasoningDropped: 0 };

function tooSmall(budget: Budget, what: string): AgentError {
  if (budget.halvings > 0) return new AgentError("USAGE", `requests of at most ~${budget.promptLimit} tokens leave no room: ${what}`);
  return new AgentError(
    "USAGE",
    `--context-window ${budget.contextWindow} is too small: ${what}; raise --context-window or lower --max-output-tokens`,
  );
}

/** Tokens a run of messages adds to a request as chat turns. */
function chatCost(messages: readonly ContextMessage[], textQuarters: TextQuarters): number {
  const request: ChatRequest = { model: "", messages: toChatMessages(messages), stream: true, stream_options: { include_usage: true } };
  return estimateRequestTokens(request, textQuarters);
}

/** Tokens one message adds to a notes request's transcript. */
function transcriptCost(message: ContextMessage, textQuarters: TextQuarters): number {
  return Math.ceil(textQuarters(renderTranscriptMessage(message) + TRANSCRIPT_SEPARATOR) / 4);
}

/** Index of the first turn of the longest run of turns at the end whose costs fit `room`. */
function suffixStart(costs: readonly number[], room: number): number {
  let used = 0;
  let first = costs.length;
  while (first > 0 && used + (costs[first - 1] ?? 0) <= room) used += costs[--first] ?? 0;
  return first;
}

/** Packs whole turns, oldest first, into chunks of at most `room` tokens; a turn too large alone is cut to fit. */
function packChunks(turns: readonly Turn[], room: number, textQuarters: TextQuarters): { chunks: ContextMessage[][]; shortened: number } {
  const cost = (message: ContextMessage) => transcriptCost(message, textQuarters);
  const chunks: ContextMessage[][] = [];
  let current: ContextMessage[] = [];
  let used = 0;
  let shortened = 0;
  for (const turn of turns) {
    const messages = capToFit(turn.messages, room, cost);
    shortened += messages.filter((m, i) => m !== turn.messages[i]).length;
    const turnCost = messages.reduce((sum, m) => sum + cost(m), 0);
    if (current.length > 0 && used + turnCost > room) {
      chunks.push(current);
      current = [];
      used = 0;
    }
    current.push(...messages);
    used += turnCost;
  }
  if (current.length > 0) chunks.push(current);
  return { chunks, shortened };
}

/**
 * Stage 2: the longest run of recent turns that fits the handoff request (beside notes of at
 * most `notesReserve` tokens) goes verbatim; the turns before it are packed into chunks, one
 * notes request each. The latest user request is quoted in the handoff request when folded.
 */
function fold(
  setup: RequestSetup,
  budget: Budget,
  light: LightResult,
  keep: number,
  base: CondensePlan,
  textQuarters: TextQuarters,
): CondensePlan {
  const measure = (request: ChatRequest) => estimateRequestTokens(request, textQuarters);
  const turns = groupTurns(light.context);
  const costs = turns.map((t) => chatCost(t.messages, textQuarters));
  const toolsCost = Math.ceil(textQuarters(JSON.stringify(stubTools(light.context))) / 4);
  const latest = keep >= 0 ? light.context[keep] : undefined;

  const partsFor = (first: number, quote: boolean): PlannedParts => ({
    chunks: first > 0 ? [turns.slice(0, first).flatMap((t) => t.messages)] : [],
    recent: turns.slice(first).flatMap((t) => t.messages),
    latestRequest: quote && latest ? messageText(latest) : undefined,
    foldedMessages: turns.slice(0, first).reduce((n, t) => n + t.messages.length, 0),
    notesReserve: budget.notesReserve,
  });
  const fits = (parts: PlannedParts) => measure(buildFinalRequest(setup, parts, "")) + budget.notesReserve <= budget.promptLimit;

  let quote = false;
  let first = turns.length;
  for (let pass = 0; pass < 2; pass++) {
    const frame = measure(buildFinalRequest(setup, partsFor(turns.length, quote), "")) + toolsCost + budget.notesReserve;
    if (frame > budget.promptLimit)
      throw tooSmall(
        budget,
        `the instruction, the notes (up to ${budget.notesReserve} tokens) and the latest user request need ~${frame} tokens, more than the ${budget.promptLimit} a request may carry`,
      );
    first = suffixStart(costs, budget.promptLimit - frame);
    while (first < turns.length && !fits(partsFor(first, quote))) first++;
    const latestFolded = keep >= 0 && (turns[first]?.start ?? Number.POSITIVE_INFINITY) > keep;
    if (!latestFolded || quote) break;
    quote = true;
  }
  if (first === 0) return { ...base, mode: "shortened", recent: light.context };

  const parts = partsFor(first, quote);
  const notesFrame = measure(buildNotesRequest(setup, { ...parts, chunks: [[]] }, 0, "")) + budget.notesReserve + NOTES_FRAME_SLACK;
  const room = budget.notesPromptLimit - notesFrame;
  if (room < MIN_CHUNK_TOKENS)
    throw tooSmall(budget, `a notes request has room for only ~${countOf(Math.max(0, room), "token")} of the session`);
  const packed = packChunks(turns.slice(0, first), room, textQuarters);
  return { ...base, ...parts, mode: "folded", chunks: packed.chunks, foldedTurns: first, messagesShortened: packed.shortened };
}

/**
 * Plans how a branch's context reaches the model within its window, cheapest first: as it is;
 * else with stage 1 at the loosest tool-result cap that fits; else stage 2 on top of stage 1's
 * tightest cap. Pure and deterministic: the same input always gives the same plan.
 */
export function planCondensation(input: PlanInput): CondensePlan {
  const budget = computeBudget(input);
  const setup: RequestSetup = input;
  const textQuarters = input.textQuarters ?? estimateTextQuarters;
  const measure = (request: ChatRequest) => estimateRequestTokens(request, textQuarters);
  // Only a report says it (a dry run, a condensed run): a context that goes as it is never needs it.
  const tokensBefore = lazily(() => estimateTokens(input.context, textQuarters));
  const base: CondensePlan = {
    mode: "whole",
    budget,
    get tokensBefore() {
      return tokensBefore();
    },
    light: NO_CUTS,
    toolResultCap: undefined,
    chunks: [],
    recent: input.context,
    latestRequest: undefined,
    foldedMessages: 0,
    foldedTurns: 0,
    messagesShortened: 0,
    notesReserve: budget.notesReserve,
  };
  const whole = buildFinalRequest(setup, base, undefined);
  if (measure(whole) <= budget.promptLimit) {
    // Not a spread: that would count tokensBefore now.
    base.finalRequest = whole;
    return base;
  }

  const keep = findLatestRequest(input.context);
  let light: LightResult = { context: [...input.context], stats: NO_CUTS };
  let cap = 0;
  for (const step of TOOL_RESULT_CAPS) {
    light = condenseLightly(input.context, step, keep);
    cap = step;
    const plan: CondensePlan = { ...base, mode: "shortened", recent: light.context, light: light.stats, toolResultCap: cap };
    const request = buildFinalRequest(setup, plan, undefined);
    if (measure(request) <= budget.promptLimit) return { ...plan, finalRequest: request };
  }
  const shortened: CondensePlan = { ...base, mode: "shortened", recent: light.context, light: light.stats, toolResultCap: cap };
  return fold(setup, budget, light, keep, shortened, textQuarters);
}
