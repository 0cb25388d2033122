import { AgentError } from "../errors.ts";
import { formatCount } from "../format.ts";
import { sentOutputLimit } from "../llm/answer-bound.ts";
import type { ChatRequest, Completion } from "../llm/types.ts";
import { captureDocument } from "./capture.ts";
import type { CondensePlan } from "./condense/plan.ts";
import { buildNotesRequest } from "./condense/condensed-requests.ts";
import type { ModelEngineInput } from "./llm-engine-types.ts";
import { finalRequestOf, setupFor } from "./llm-engine-plan.ts";
import { renderRepairInstruction } from "./prompt.ts";
import { completeRequest, type Sender } from "./request-sender.ts";
import { checkUnplannedRequest } from "./run-plan.ts";
import { findMissingSections } from "./validate.ts";

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

export interface Written {
  document: string;
  answeredBy: string | undefined;
  finishReason: string;
  warnings: string[];
  notes: string | undefined;
}

/** Carries out one plan: the notes requests oldest first, then the handoff request (and a repair under `strict`). */
export async function runPlan(plan: CondensePlan, input: ModelEngineInput, sender: Sender): Promise<Written> {
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
