import { AgentError } from "../errors.ts";
import { buildRequest } from "../llm/request.ts";
import { CompletionError, type ChatRequest, type Complete, type Completion, type TokenUsage } from "../llm/types.ts";
import type { BranchAnalysis } from "../session/analyze.ts";
import type { Session } from "../session/types.ts";
import { captureDocument } from "./capture.ts";
import { renderNewSession, renderRecording, sessionFileName, type Recording } from "./outputs.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction, renderRepairInstruction } from "./prompt.ts";
import { findMissingSections } from "./validate.ts";

export interface HandoffInput {
  session: Session;
  analysis: BranchAnalysis;
  /** Absolute path of the source session; becomes the new session's `parentSession`. */
  sourcePath: string;
  focus?: string;
  model: string;
  /** Who serves the model (`openai`, `openrouter`, `ollama`, a host name), for the recorded answer. */
  provider: string;
  systemPrompt?: string;
  /** Missing sections fail the run (after one repair request) instead of warning. */
  strict?: boolean;
  /** Record the instruction and the answer in the source session. */
  record?: boolean;
}

/** Effects the pipeline needs, passed in so core stays pure and tests stay exact. */
export interface HandoffDeps {
  complete: Complete;
  now: () => Date;
  newSessionId: () => string;
  newEntryId: () => string;
  signal?: AbortSignal;
}

export interface HandoffResult {
  document: string;
  missingSections: string[];
  usage: TokenUsage;
  /** The model that answered (as the endpoint named it), else the one asked for. */
  model: string;
  requests: number;
  newSession: { sessionId: string; fileName: string; content: string };
  /** `undefined` when recording was not asked for. */
  recording: Recording | undefined;
  warnings: string[];
}

/** Refuses a branch with fewer than two messages: there is nothing to hand off. */
export function assertSomethingToHandOff(analysis: BranchAnalysis): void {
  if (analysis.branchMessages < 2) throw new AgentError("NOTHING_TO_HAND_OFF", "Nothing to hand off (no messages yet)");
}

/** The exact request a handoff sends first (`--dry-run` prints it). */
export function buildHandoffRequest(input: HandoffInput): ChatRequest {
  return buildRequest({
    model: input.model,
    systemPrompt: input.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    context: input.analysis.context,
    instruction: renderInstruction(input.focus),
  });
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
}

/**
 * Sends a request; when the endpoint refuses `tool_choice: "none"` (some accept only
 * `auto`), sends it once more with `auto`.
 */
async function completeRequest(request: ChatRequest, deps: HandoffDeps): Promise<{ completion: Completion; requests: number }> {
  throwIfCancelled(deps.signal);
  try {
    return { completion: await deps.complete(request, { signal: deps.signal }), requests: 1 };
  } catch (error) {
    if (error instanceof CompletionError && error.failure === "tool_choice_unsupported" && request.tool_choice === "none") {
      throwIfCancelled(deps.signal);
      return { completion: await deps.complete({ ...request, tool_choice: "auto" }, { signal: deps.signal }), requests: 2 };
    }
    if (error instanceof CompletionError) throw new AgentError("HANDOFF_FAILED", error.message);
    throw error;
  }
}

function addUsage(total: TokenUsage, usage: TokenUsage | undefined): void {
  total.inputTokens += usage?.inputTokens ?? 0;
  total.outputTokens += usage?.outputTokens ?? 0;
}

function documentFrom(completion: Completion): string {
  const document = captureDocument(completion.text);
  if (document === "") throw new AgentError("HANDOFF_FAILED", "the model returned no text");
  return document;
}

/** Picks an entry id the session does not use yet. */
function freshEntryId(deps: HandoffDeps, taken: Set<string>): string {
  for (;;) {
    const id = deps.newEntryId();
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * The handoff: guard, ask the model, capture and check the document, and return everything
 * to write. Writes nothing itself; the caller writes only after this resolves.
 */
export async function runHandoff(input: HandoffInput, deps: HandoffDeps): Promise<HandoffResult> {
  assertSomethingToHandOff(input.analysis);
  const warnings: string[] = [];
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const request = buildHandoffRequest(input);

  const first = await completeRequest(request, deps);
  let requests = first.requests;
  addUsage(usage, first.completion.usage);
  let answeredBy = first.completion.model;
  let document = documentFrom(first.completion);
  if (first.completion.finishReason === "length") warnings.push("the model stopped at its output limit; the document may be cut short");
  let missing = findMissingSections(document);

  if (missing.length > 0 && input.strict) {
    const repair = await completeRequest(
      {
        ...request,
        tool_choice: first.requests === 2 ? "auto" : request.tool_choice,
        messages: [...request.messages, { role: "assistant", content: document }, { role: "user", content: renderRepairInstruction(missing) }],
      },
      deps,
    );
    requests += repair.requests;
    addUsage(usage, repair.completion.usage);
    answeredBy = repair.completion.model ?? answeredBy;
    document = documentFrom(repair.completion);
    missing = findMissingSections(document);
    if (missing.length > 0) {
      throw new AgentError("HANDOFF_FAILED", `the document still lacks ${missing.map((s) => `"## ${s}"`).join(", ")} after a repair request (--strict)`);
    }
  } else if (missing.length > 0) {
    warnings.push(`the document lacks ${missing.map((s) => `"## ${s}"`).join(", ")}`);
  }
  throwIfCancelled(deps.signal);

  const now = deps.now();
  const sessionId = deps.newSessionId();
  const taken = new Set(input.analysis.tree.byId.keys());
  const model = answeredBy ?? input.model;
  const recording = input.record
    ? renderRecording({
        session: input.session,
        leafId: input.analysis.branch.leafId,
        instruction: renderInstruction(input.focus),
        document,
        provider: input.provider,
        model,
        usage,
        timestamp: now,
        entryIds: [freshEntryId(deps, taken), freshEntryId(deps, taken)],
      })
    : undefined;

  return {
    document,
    missingSections: missing,
    usage,
    model,
    requests,
    newSession: {
      sessionId,
      fileName: sessionFileName(now, sessionId),
      content: renderNewSession({
        sessionId,
        entryId: freshEntryId(deps, new Set()),
        timestamp: now,
        cwd: input.session.header.cwd,
        parentSession: input.sourcePath,
        document,
      }),
    },
    recording,
    warnings,
  };
}
