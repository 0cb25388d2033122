import { createProviderPort } from "../llm/providers/adapt.ts";
import { shapeRequest } from "../llm/providers/shape.ts";
import { modelForAnotherAgent, restoredModel, type RestoredModel } from "../session/restored-model.ts";
import { throwIfCancelled } from "./cancelled.ts";
import { appendCodeSections, wantsLastExchanges } from "./code-sections.ts";
import { engineInputFor, guardFor, profileOf } from "./handoff-engine-setup.ts";
import { planDocumentRequests, writeDocumentWithModel } from "./llm-engine.ts";
import type { EngineResult, PlannedRequests } from "./llm-engine-types.ts";
import { assertSomethingToHandOff } from "./nothing-to-hand-off.ts";
import type { HandoffDeps, HandoffInput, HandoffResult } from "./pipeline-types.ts";
import { formatNamed } from "../session/formats/table.ts";
import { renderInstruction } from "./prompt.ts";
import type { DocumentSources, SecretsGuard } from "../secrets/secrets-guard.ts";
import type { Complete } from "../llm/types.ts";
import { userConstraints } from "./notes/constraints.ts";
import { findMissingSections } from "./validate.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "./wrap.ts";

/** The model name recorded for documents the offline engine wrote. */
export const OFFLINE_MODEL = "offline";

/**
 * Every request a handoff would send, exactly as they would leave the machine (redacted, the
 * key withheld, shaped as the provider takes it), and the plan in words (`--dry-run` prints them).
 */
export function planHandoffRequests(input: HandoffInput): PlannedRequests & { redacted: number } {
  const guard = guardFor(input);
  const planned = planDocumentRequests(engineInputFor(input, guard));
  const requests = planned.requests.map((r) => shapeRequest(guard.request(r), profileOf(input)));
  return { ...planned, requests, redacted: guard.redacted };
}

function withholdModel(model: RestoredModel, withhold: (text: string) => string): RestoredModel {
  const pi = model.pi && { provider: withhold(model.pi.provider), modelId: withhold(model.pi.modelId) };
  return { pi, omp: model.omp === undefined ? undefined : withhold(model.omp) };
}

/** Session Facts and the verbatim tail, as asked, from the redacted sources (restored with the rest). */
function withCodeSections(
  document: string,
  input: HandoffInput,
  sources: DocumentSources,
  constraints: readonly string[] | undefined,
): string {
  return appendCodeSections(document, {
    context: sources.context,
    constraints,
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

/** The input with the model the endpoint named, asked while the input was redacted (that needs no model). */
async function withModelAsked(input: HandoffInput, guard: SecretsGuard, asked: Promise<string> | undefined): Promise<HandoffInput> {
  if (asked === undefined) return input;
  guard.outgoing();
  return { ...input, model: await asked };
}

function withheldOrNot(text: string | undefined, guard: SecretsGuard): string | undefined {
  return text === undefined ? undefined : guard.withhold(text);
}

/**
 * The port, with `work` done once, right after the first request went out: the endpoint takes
 * its time (a model, seconds), and the answer waits until `work` is done. `work` must be pure
 * reading: when it throws, it throws again where its result is needed, after the answer.
 */
function whileFirstSent(complete: Complete, work: () => void): Complete {
  let started = false;
  return (request, options) => {
    const answer = complete(request, options);
    if (!started) {
      started = true;
      try {
        work();
      } catch {
        // Read again, and thrown, where the document needs it.
      }
    }
    return answer;
  };
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
  // Session Facts read off the branch, and the rules the user stated in what is sent: slow to
  // read, and read while the endpoint works. Neither redacts anything, so the count of secrets
  // sent and every placeholder are what they would be read after the answer.
  const withFacts = input.facts !== false;
  let constraints: string[] | undefined;
  const readAhead = () => {
    if (!withFacts) return;
    void input.analysis.facts;
    constraints ??= userConstraints(guard.outgoing().context);
  };
  // The model engine sees only what may be sent; its port withholds the key and redacts answers,
  // and the provider port inside it shapes each request as the provider takes it.
  const complete = whileFirstSent(
    guard.port(createProviderPort(deps.complete, { profile: profileOf(input), notice: deps.notice })),
    readAhead,
  );
  const sent = await withModelAsked(input, guard, deps.modelAsked);
  const written =
    input.engine === "offline"
      ? await writeOffline(readSources())
      : await writeDocumentWithModel(engineInputFor(sent, guard), { ...deps, complete });
  throwIfCancelled(deps.signal);
  // Counted before Session Facts redacts what it quotes: that never leaves. Nor does anything the
  // offline engine redacts.
  const redacted = input.engine === "offline" ? 0 : guard.redacted;
  // The one place originals come back: after the last request, in the document only. Facts come
  // from code, after the model: no summary can lose them. The key is blanked from all of it.
  const whole =
    input.facts === false && !wantsLastExchanges(input.lastExchanges, input.engine)
      ? written.document
      : withCodeSections(written.document, input, readSources(), constraints);
  const document = guard.withhold(guard.restore(whole));

  const now = deps.now();
  const sessionId = input.sessionId ?? deps.newSessionId();
  const taken = new Set(input.analysis.tree.byId.keys());
  // The model name is the endpoint's word, printed and recorded: it gets the same scrub.
  const model = guard.withhold(written.answeredBy ?? sent.model);
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
