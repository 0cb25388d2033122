import { AgentError } from "../errors.ts";
import { buildRequest } from "../llm/request.ts";
import { CompletionError, type ChatRequest, type Complete, type Completion, type TokenUsage } from "../llm/types.ts";
import type { ContextMessage } from "../session/messages.ts";
import { captureDocument } from "./capture.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction, renderRepairInstruction } from "./prompt.ts";
import { findMissingSections } from "./validate.ts";

export interface ModelEngineInput {
  context: readonly ContextMessage[];
  model: string;
  focus?: string;
  systemPrompt?: string;
  strict?: boolean;
}

export interface ModelEngineDeps {
  complete: Complete;
  signal?: AbortSignal;
}

/** A document as the model wrote it, and what it cost. */
export interface EngineResult {
  document: string;
  usage: TokenUsage;
  /** The model that answered, when the endpoint said. */
  answeredBy: string | undefined;
  requests: number;
  warnings: string[];
}

/** The exact request a handoff sends first (`--dry-run` prints it). */
export function buildDocumentRequest(input: ModelEngineInput): ChatRequest {
  return buildRequest({
    model: input.model,
    systemPrompt: input.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    context: input.context,
    instruction: renderInstruction(input.focus),
  });
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
}

/**
 * Sends a request; when the endpoint refuses `tool_choice: "none"` (some accept only
 * `auto`), sends it once more with `auto`.
 */
async function completeRequest(request: ChatRequest, deps: ModelEngineDeps): Promise<{ completion: Completion; requests: number }> {
  try {
    return { completion: await completeOnce(request, deps), requests: 1 };
  } catch (error) {
    if (!(error instanceof CompletionError && error.failure === "tool_choice_unsupported" && request.tool_choice === "none")) throw asHandoffFailure(error);
  }
  try {
    return { completion: await completeOnce({ ...request, tool_choice: "auto" }, deps), requests: 2 };
  } catch (error) {
    // The retry's own failure (auto refused too, context too long) is a failure, not a bug.
    throw asHandoffFailure(error);
  }
}

/** One request. An abort wins over whatever the port made of it (no text, partial text). */
async function completeOnce(request: ChatRequest, deps: ModelEngineDeps): Promise<Completion> {
  throwIfCancelled(deps.signal);
  const completion = await deps.complete(request, { signal: deps.signal });
  throwIfCancelled(deps.signal);
  return completion;
}

function asHandoffFailure(error: unknown): unknown {
  return error instanceof CompletionError ? new AgentError("HANDOFF_FAILED", error.message) : error;
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

function listSections(missing: readonly string[]): string {
  return missing.map((s) => `"## ${s}"`).join(", ");
}

/**
 * Has the model write the document: one request, plus one repair request under `strict`
 * when sections are missing. Without `strict`, missing sections are a warning.
 */
export async function writeDocumentWithModel(input: ModelEngineInput, deps: ModelEngineDeps): Promise<EngineResult> {
  const warnings: string[] = [];
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const request = buildDocumentRequest(input);

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
    if (missing.length > 0) throw new AgentError("HANDOFF_FAILED", `the document still lacks ${listSections(missing)} after a repair request (--strict)`);
  } else if (missing.length > 0) {
    warnings.push(`the document lacks ${listSections(missing)}`);
  }
  return { document, usage, answeredBy, requests, warnings };
}
