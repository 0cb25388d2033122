import { buildRequest } from "../../llm/request.ts";
import type { ChatRequest } from "../../llm/types.ts";
import type { ContextMessage } from "../../session/messages.ts";
import { NOTES_SYSTEM_PROMPT, renderNotesPreface, renderNotesPrompt } from "./notes-prompt.ts";
import { renderTranscript } from "./transcript.ts";

/** What every request of one handoff shares. */
export interface RequestSetup {
  model: string;
  systemPrompt: string;
  /** The handoff instruction (with the focus line when there is one). */
  instruction: string;
  focus?: string;
  maxOutputTokens?: number;
  /** Added to every output limit sent: the room a reasoning model thinks in (0 or absent for others). */
  reasoningAllowance?: number;
}

/** The parts of a plan the requests are built from. */
export interface PlannedParts {
  /** The folded part, oldest first: one notes request each. Empty when nothing is folded. */
  chunks: readonly (readonly ContextMessage[])[];
  /** What the handoff request carries as chat turns, after the notes when there are notes. */
  recent: readonly ContextMessage[];
  /** The latest user request, when it was folded (the handoff request then quotes it). */
  latestRequest: string | undefined;
  foldedMessages: number;
  notesReserve: number;
}

/** The request that folds chunk `index` (0-based) into the notes so far. */
export function buildNotesRequest(setup: RequestSetup, parts: PlannedParts, index: number, notes: string | undefined): ChatRequest {
  const prompt = renderNotesPrompt({
    notes,
    transcript: renderTranscript(parts.chunks[index] ?? []),
    part: index + 1,
    parts: parts.chunks.length,
    notesTokens: parts.notesReserve,
    focus: setup.focus,
  });
  const maxOutputTokens = parts.notesReserve + (setup.reasoningAllowance ?? 0);
  return buildRequest({ model: setup.model, systemPrompt: NOTES_SYSTEM_PROMPT, context: [], instruction: prompt, maxOutputTokens });
}

/** The user-side message that carries the notes into the handoff request. */
export function notesMessage(parts: PlannedParts, notes: string): ContextMessage {
  const text = renderNotesPreface({
    notes,
    foldedMessages: parts.foldedMessages,
    recentFollows: parts.recent.length > 0,
    latestRequest: parts.latestRequest,
  });
  return { role: "user", kind: "compactionSummary", content: [{ type: "text", text }], entryId: "condensed-notes" };
}

/** The context the handoff request carries: the notes (when folded), then the recent turns. */
export function handoffContext(parts: PlannedParts, notes: string | undefined): ContextMessage[] {
  return parts.chunks.length > 0 ? [notesMessage(parts, notes ?? ""), ...parts.recent] : [...parts.recent];
}

/** The request that asks for the handoff document. */
export function buildFinalRequest(setup: RequestSetup, parts: PlannedParts, notes: string | undefined): ChatRequest {
  return buildRequest({
    model: setup.model,
    systemPrompt: setup.systemPrompt,
    context: handoffContext(parts, notes),
    instruction: setup.instruction,
    // The user's cap is on the document; a reasoning model thinks inside the same limit.
    maxOutputTokens: setup.maxOutputTokens === undefined ? undefined : setup.maxOutputTokens + (setup.reasoningAllowance ?? 0),
  });
}
