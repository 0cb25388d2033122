import { estimateAgentRunTokens } from "../agent-run/prompt-tokens.ts";
import { AGENT_ENGINES } from "../agent-run/table.ts";
import { AgentError } from "../errors.ts";
import { createProviderPort } from "../llm/providers/adapt.ts";
import { GENERIC, type ProviderProfile } from "../llm/providers/profile.ts";
import { reasoningAllowance, shapeRequest } from "../llm/providers/shape.ts";
import type { ChatRequest, Complete, TokenUsage } from "../llm/types.ts";
import type { BranchAnalysis } from "../session/analyze.ts";
import { handoffOnly } from "../session/handoff-only.ts";
import { modelForAnotherAgent, restoredModel, type RestoredModel } from "../session/restored-model.ts";
import type { Session } from "../session/types.ts";
import { DEFAULT_CONTEXT_WINDOW } from "./condense/budget.ts";
import type { CondenseReport } from "./condense/condense-report.ts";
import { appendCodeSections, wantsLastExchanges } from "./code-sections.ts";
import type { SourceRow } from "./facts-section.ts";
import { throwIfCancelled } from "./cancelled.ts";
import { planDocumentRequests, writeDocumentWithModel } from "./llm-engine.ts";
import type { EngineResult, PlannedRequests } from "./llm-engine-types.ts";
import { formatNamed } from "../session/formats/table.ts";
import type { ProjectPlace } from "../session/formats/session-rows.ts";
import type { NewSessionFile, Recording, SessionFormat } from "../session/formats/types.ts";
import { renderInstruction } from "./prompt.ts";
import type { InputLimit, PlanTarget, RunPlan } from "./run-plan.ts";
import { createSecretsGuard, type DocumentSources, type SecretsGuard } from "../secrets/secrets-guard.ts";
import { findMissingSections } from "./validate.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "./wrap.ts";

export interface HandoffInput {
  session: Session;
  analysis: BranchAnalysis;
  /**
   * Absolute path of the source session; becomes the new session's `parentSession`. For a
   * session read as a stream, what it was read from (`stdin`, `/dev/fd/63`).
   */
  sourcePath: string;
  /** The source was read as a stream: there is no file to name as the new session's parent. */
  sourceIsStream?: boolean;
  /** The source is a session kept as rows of the database `sourcePath` names (opencode's): Session Facts name its id there. */
  sourceRow?: SourceRow;
  focus?: string;
  model: string;
  /** Who serves the model (`openai`, `openrouter`, `ollama`, a host name), for the recorded answer. */
  provider: string;
  /** What the provider documents about its endpoint (default: generic, nothing assumed). */
  profile?: ProviderProfile;
  systemPrompt?: string;
  /** Missing sections fail the run (after one repair request) instead of warning. */
  strict?: boolean;
  /** Record the instruction and the answer in the source session, where its format can (see `SessionFormat.record`). */
  record?: boolean;
  /** The format the source was read in; default: the table's entry for `session.format`. */
  sourceFormat?: SessionFormat;
  /** The agent the new session is for; default: the source's. */
  target?: SessionFormat;
  /** The new session's id when its file's name fixes it (`-o <uuid>.jsonl` for Claude Code); default: a fresh one. */
  sessionId?: string;
  /** For a target whose sessions are rows in its database: the project cli found for the cwd. */
  projectPlace?: ProjectPlace;
  /** The model's context window in tokens (default 128000); a larger context is condensed to fit. */
  contextWindow?: number;
  /** Caps the document's length; also what the context budget keeps free for it. */
  maxOutputTokens?: number;
  /** `offline` writes the document from the branch by code, sending nothing. Default `llm`. */
  engine?: "llm" | "offline";
  /** How the model was reached, for the recorded answer: the Chat Completions wire (default), or an installed agent's CLI. */
  api?: "openai-completions" | "agent-cli";
  /** Append the `## Session Facts` section computed by code (default true). */
  facts?: boolean;
  /** Append `## Last Exchanges`, the branch's end verbatim (default: for the offline engine only). */
  lastExchanges?: boolean;
  /** Replace likely secrets in every request with placeholders, restored in the final document (default true). */
  redact?: boolean;
  /** Strings never sent, written or restored, whatever `redact` says (the API key). */
  withheld?: readonly string[];
  /** The most input tokens the run may send (`--max-input-tokens`): a larger plan is refused before anything is sent. */
  inputLimit?: InputLimit;
}

/** Effects the pipeline needs, passed in so core stays pure and tests stay exact. */
export interface HandoffDeps {
  complete: Complete;
  now: () => Date;
  newSessionId: () => string;
  newEntryId: () => string;
  /** Minutes to add to UTC for the user's local time at a moment (`-date.getTimezoneOffset()`); default 0. */
  utcOffsetMinutes?: (at: Date) => number;
  signal?: AbortSignal;
  /** Told of each change made to requests after the endpoint refused a parameter (`-v`). */
  notice?: (line: string) => void;
  /** Told the run's plan (requests, input tokens) before the first request is sent; never for the offline engine. */
  onPlan?: (plan: RunPlan) => void;
}

export interface HandoffResult {
  document: string;
  missingSections: string[];
  usage: TokenUsage;
  /** The model that answered (as the endpoint named it), else the one asked for. */
  model: string;
  requests: number;
  /** The new session, in the target's format, and when it was made (agents may file it by date). */
  newSession: NewSessionFile & { timestamp: Date };
  /** `undefined` when recording was not asked for, or the source's format cannot record. */
  recording: Recording | undefined;
  warnings: string[];
  /** What was condensed to fit the window; `null` when the context went as it was. */
  condensed: CondenseReport | null;
  /** Distinct secrets replaced by placeholders before anything was sent. */
  redacted: number;
}

/** The model name recorded for documents the offline engine wrote. */
export const OFFLINE_MODEL = "offline";

/**
 * Refuses what holds nothing to hand off: a session we wrote that nothing happened in since
 * (handing it off would only wrap our document again; its source holds the work), and a branch
 * with fewer than two messages. `file` is the session as the user named it; `show` writes a path
 * as one field of a line (cli's asField: a line break in it as `\n`).
 */
export function assertSomethingToHandOff(
  session: Session,
  analysis: BranchAnalysis,
  file: string,
  show: (text: string) => string = (text) => text,
): void {
  const ours = handoffOnly(session);
  if (ours !== undefined) {
    const from = ours.source === undefined ? "" : ` from ${show(ours.source)}`;
    const instead = ours.source === undefined ? "the session it came from" : show(ours.source);
    throw new AgentError(
      "NOTHING_TO_HAND_OFF",
      `Nothing to hand off: ${show(file)} is a handoff session (agent handoff wrote it${from}) with nothing after the document yet; hand off ${instead} instead, or continue this one in its agent first`,
    );
  }
  if (analysis.branchMessages < 2) throw new AgentError("NOTHING_TO_HAND_OFF", "Nothing to hand off (no messages yet)");
}

function guardFor(input: HandoffInput): SecretsGuard {
  return createSecretsGuard({
    context: input.analysis.context,
    focus: input.focus,
    systemPrompt: input.systemPrompt,
    redact: input.redact,
    withheld: input.withheld,
  });
}

function profileOf(input: HandoffInput): ProviderProfile {
  return input.profile ?? GENERIC;
}

/** The room a reasoning model thinks in, for this model on this provider (0 for other models). */
function allowanceFor(input: HandoffInput): number {
  return reasoningAllowance(profileOf(input), input.model, input.contextWindow ?? DEFAULT_CONTEXT_WINDOW);
}

/** Who a handoff's requests go to: the model, or the agent whose CLI runs them. */
export function planTargetOf(input: HandoffInput): PlanTarget {
  return input.api === "agent-cli" ? { agent: input.model } : { model: input.model };
}

/**
 * What a request costs as it is sent, for the plan and `--max-input-tokens`: an agent engine's
 * run is given the request as a transcript prompt, not as chat messages; undefined: the chat request.
 */
function measureFor(input: HandoffInput): ((request: ChatRequest) => number) | undefined {
  if (input.api !== "agent-cli") return undefined;
  const engine = AGENT_ENGINES.find((e) => e.name === input.model);
  return engine === undefined ? undefined : (request) => estimateAgentRunTokens(engine, request);
}

/**
 * Every request a handoff would send, exactly as they would leave the machine (redacted, the
 * key withheld, shaped as the provider takes it), and the plan in words (`--dry-run` prints them).
 */
export function planHandoffRequests(input: HandoffInput): PlannedRequests & { redacted: number } {
  const guard = guardFor(input);
  const planned = planDocumentRequests({
    ...input,
    ...guard.outgoing(),
    reasoningAllowance: allowanceFor(input),
    sendsTo: planTargetOf(input),
    measure: measureFor(input),
    textQuarters: input.analysis.textQuarters,
  });
  const requests = planned.requests.map((r) => shapeRequest(guard.request(r), profileOf(input)));
  return { ...planned, requests, redacted: guard.redacted };
}

function withholdModel(model: RestoredModel, withhold: (text: string) => string): RestoredModel {
  const pi = model.pi && { provider: withhold(model.pi.provider), modelId: withhold(model.pi.modelId) };
  return { pi, omp: model.omp === undefined ? undefined : withhold(model.omp) };
}

/** Session Facts and the verbatim tail, as asked, from the redacted sources (restored with the rest). */
function withCodeSections(document: string, input: HandoffInput, sources: DocumentSources): string {
  return appendCodeSections(document, {
    context: sources.context,
    facts: input.facts === false ? undefined : sources.facts,
    sourcePath: input.sourcePath,
    sourceIsStream: input.sourceIsStream,
    sourceRow: input.sourceRow,
    cwd: sources.cwd,
    lastExchanges: wantsLastExchanges(input.lastExchanges, input.engine),
  });
}

/**
 * The offline engine's document, in the shape the model engine returns. The engine and its word
 * lists load here, on its first run: a handoff with a model never pays for them.
 */
async function writeOffline(sources: DocumentSources): Promise<EngineResult> {
  const { writeOfflineDocument } = await import("./offline/index.ts");
  const document = writeOfflineDocument({
    context: sources.context,
    facts: sources.facts,
    focus: sources.focus,
    cwd: sources.cwd,
  });
  return {
    document,
    usage: { inputTokens: 0, outputTokens: 0 },
    answeredBy: OFFLINE_MODEL,
    finishReason: "stop",
    requests: 0,
    warnings: [],
    condensed: null,
  };
}

function withheldOrNot(text: string | undefined, guard: SecretsGuard): string | undefined {
  return text === undefined ? undefined : guard.withhold(text);
}

/** A source of entry ids none of which is in `taken`; each id it gives is taken too. */
function freshEntryIds(deps: HandoffDeps, taken: Set<string>): () => string {
  return () => {
    for (;;) {
      const id = deps.newEntryId();
      if (!taken.has(id)) {
        taken.add(id);
        return id;
      }
    }
  };
}

/**
 * The handoff: guard, have the document written, and return everything to write.
 * Writes nothing itself; the caller writes only after this resolves.
 */
export async function runHandoff(input: HandoffInput, deps: HandoffDeps): Promise<HandoffResult> {
  assertSomethingToHandOff(input.session, input.analysis, input.sourcePath);
  const guard = guardFor(input);
  // What code writes into the document (the offline engine's sections, Session Facts) is
  // written from redacted text, so its cuts never go through a secret; restored below.
  let sources: DocumentSources | undefined;
  const readSources = (): DocumentSources => (sources ??= guard.forDocument(input.analysis.facts, input.session.header.cwd));
  // The model engine sees only what may be sent; its port withholds the key and redacts answers,
  // and the provider port inside it shapes each request as the provider takes it.
  const complete = guard.port(createProviderPort(deps.complete, { profile: profileOf(input), notice: deps.notice }));
  const written =
    input.engine === "offline"
      ? await writeOffline(readSources())
      : await writeDocumentWithModel(
          {
            ...input,
            ...guard.outgoing(),
            reasoningAllowance: allowanceFor(input),
            sendsTo: planTargetOf(input),
            measure: measureFor(input),
            textQuarters: input.analysis.textQuarters,
          },
          { ...deps, complete },
        );
  throwIfCancelled(deps.signal);
  // Counted before Session Facts redacts what it quotes: that never leaves. Nor does anything the
  // offline engine redacts.
  const redacted = input.engine === "offline" ? 0 : guard.redacted;
  // The one place originals come back: after the last request, in the document only. Facts come
  // from code, after the model: no summary can lose them. The key is blanked from all of it.
  const whole =
    input.facts === false && !wantsLastExchanges(input.lastExchanges, input.engine)
      ? written.document
      : withCodeSections(written.document, input, readSources());
  const document = guard.withhold(guard.restore(whole));

  const now = deps.now();
  const sessionId = input.sessionId ?? deps.newSessionId();
  const taken = new Set(input.analysis.tree.byId.keys());
  // The model name is the endpoint's word, printed and recorded: it gets the same scrub.
  const model = guard.withhold(written.answeredBy ?? input.model);
  // The model the branch resumes with in pi and omp: both files we write must keep it (scrubbed
  // like everything else we write, should a session have put the key in a model name).
  const restore = withholdModel(restoredModel(input.analysis.branch.entries), guard.withhold);
  const source = input.sourceFormat ?? formatNamed(input.session.format);
  const recording =
    input.record && source.record
      ? source.record({
          session: input.session,
          leafId: input.analysis.branch.leafId,
          instruction: guard.withhold(renderInstruction(input.focus)),
          document,
          provider: input.provider,
          model,
          api: input.engine === "offline" ? "offline" : (input.api ?? "openai-completions"),
          finishReason: written.finishReason,
          usage: written.usage,
          timestamp: now,
          newEntryId: freshEntryIds(deps, taken),
          restore,
        })
      : undefined;
  const { header } = input.session;
  const target = input.target ?? source;
  const newSession = target.renderNewSession({
    wrappedDocument: wrapHandoffDocument(document),
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId,
    newEntryId: freshEntryIds(deps, new Set()),
    timestamp: now,
    // Read only by a format that files sessions by local date (Codex): the first look at the
    // time zone loads its data, some milliseconds a pi or Claude Code handoff need not spend.
    get utcOffsetMinutes() {
      return deps.utcOffsetMinutes?.(now) ?? 0;
    },
    // Paths are written as they are: they name folders and files on this machine, which a
    // withheld path would not (the next session could not open its parent or run in its cwd).
    cwd: header.cwd,
    parentSession: input.sourceIsStream ? undefined : input.sourcePath,
    model: target.name === source.name ? restore : modelForAnotherAgent(restore, source.sharedProviders),
    ...(input.projectPlace ? { projectPlace: input.projectPlace } : {}),
    source: {
      format: source.name,
      agentVersion: withheldOrNot(header.agentVersion, guard),
      modelProvider: withheldOrNot(header.modelProvider, guard),
    },
  });

  return {
    document,
    missingSections: findMissingSections(document),
    usage: written.usage,
    model,
    requests: written.requests,
    newSession: { ...newSession, timestamp: now },
    recording,
    warnings: written.warnings,
    condensed: written.condensed,
    redacted,
  };
}
