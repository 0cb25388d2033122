import type { ConsolaInstance } from "consola/core";
import {
  countOf,
  AgentError,
  describeRunPlan,
  checkRunPlan,
  isAgentError,
  planHandoffRequests,
  planTargetOf,
  runHandoff,
  type Complete,
  type HandoffInput,
  type HandoffResult,
  type SessionFormat,
} from "../../../core/index.ts";
import { writeNewSession, type NewSessionPlace } from "../../sessions/new-session-place.ts";
import type { SessionFile } from "../../sessions/session-file.ts";
import { createModelPort } from "../../model/model.ts";
import { askEndpointForModel } from "../../model/model-list.ts";
import { MODEL_ASKED_OF_ENDPOINT, type HandoffOptions } from "../../flags/options.ts";
import { createProgress, type Progress } from "../../output/progress.ts";
import { planTarget } from "./run-plan.ts";
import { describeUrl } from "../../model/secrets.ts";
import type { Run } from "../../run.ts";
import { countingUsage, usageComplete, type ReportedHandoffResult, type UsageReports } from "../../model/usage-reports.ts";
import { recordIntoSource, lockForRecording, sayRecordOutcome, type NotRecorded } from "../../sessions/record.ts";
import type { Lock } from "../../io/lock.ts";
import { makeNewerThan } from "../../io/write.ts";
import { indexNewSession } from "../../sessions/session-index.ts";
import { writeRowSession } from "../../sessions/session-rows.ts";
import { asField } from "../../output/terminal.ts";
import { realEffects } from "../../io/clock-and-ids.ts";

/**
 * Runs `work` as a run in progress (see cli/process/cancel.ts): SIGINT, SIGTERM and SIGHUP cancel it for
 * its whole length, the computing, the model call, the wait for the lock, up to the writes.
 * Whatever was cancelled ends as CANCELLED (exit 130), and no temp file outlives the run.
 */
export async function withCancellation<T>(run: Run, work: (cancel: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await run.cancel.asRunInProgress(work);
  } catch (error) {
    if (run.cancel.signal.aborted && !(isAgentError(error) && error.code !== "CANCELLED"))
      throw new AgentError("CANCELLED", "Handoff cancelled");
    throw error;
  } finally {
    run.temps.removeAll();
  }
}

/** The offline engine's port: it never sends, so reaching it is a bug, and says so. */
export const NO_REQUESTS: Complete = () => Promise.reject(new Error("the offline engine sent a request"));

/**
 * Runs the pipeline with the real effects: HTTP, the clock, random ids, the --timeout deadline.
 * The offline engine touches no network at all: no model is asked of the endpoint, no port opened.
 * With no model named at a local endpoint, the endpoint is asked for it first, within the same
 * deadline; the model it names is the one sent, recorded and printed.
 */
export async function callModel(
  run: Run,
  input: HandoffInput,
  options: HandoffOptions,
  logger: ConsolaInstance,
  cancel: AbortSignal,
): Promise<ReportedHandoffResult> {
  if (input.engine === "offline")
    return { ...(await runHandoff(input, { ...realEffects(), complete: NO_REQUESTS, signal: cancel })), usageReported: true };
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = AbortSignal.any([cancel, deadline.signal]);
  const endpoint = {
    apiKey: options.apiKey,
    account: options.account,
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    logger,
    profile: options.profile,
    printed: run.printed,
  };
  let progress: Progress | undefined;
  // Ends the asking for the model when the run ends before the pipeline waited for it.
  const asking = new AbortController();
  try {
    // A model still to be asked of the endpoint: a run over the limit is refused before the endpoint is contacted at all.
    if (options.model === undefined && input.inputLimit !== undefined)
      checkRunPlan(planHandoffRequests(input).plan, planTarget(input), input.inputLimit);
    let model = options.model ?? MODEL_ASKED_OF_ENDPOINT;
    const said = (named: string) => {
      model = named;
      logger.debug(
        `engine ${options.engine}; model ${named} at ${options.baseUrl ? describeUrl(options.baseUrl) : "the OpenAI API"} (${options.profile.id} profile); ${countOf(input.analysis.context.length, "context message")}`,
      );
      return named;
    };
    // The endpoint answers while the pipeline redacts the input, which needs no model.
    const modelAsked =
      options.model === undefined ? askEndpointForModel(endpoint, AbortSignal.any([signal, asking.signal])).then(said) : undefined;
    // Its failure is thrown where the pipeline waits for it; a run that ended before that is not told it.
    modelAsked?.catch(() => {});
    if (options.model !== undefined) said(options.model);
    const reported: UsageReports = { runs: 0, withUsage: 0 };
    const result = await runHandoff(
      { ...input, model },
      {
        complete: countingUsage(createModelPort({ ...endpoint, onProgress: (chars) => progress?.update(chars) }), reported),
        ...realEffects(),
        signal,
        modelAsked,
        notice: (line) => logger.debug(line),
        // The plan is said before the status line starts: both are on stderr. By then the model is known.
        onPlan: (plan) => {
          logger.info(describeRunPlan(plan, planTargetOf({ ...input, model })));
          progress = createProgress(run, run.interactive && !options.quiet && !options.json && options.engine === "llm", `asking ${model}`);
        },
      },
    );
    return { ...result, usageReported: usageComplete(reported) };
  } catch (error) {
    if (deadline.signal.aborted && !cancel.aborted)
      throw new AgentError("HANDOFF_FAILED", `no document within --timeout ${options.timeoutMs / 1000}s`);
    throw error;
  } finally {
    asking.abort();
    progress?.stop();
    clearTimeout(timer);
  }
}

/**
 * Writes what the pipeline returned: a signal that came while it was computed is seen first;
 * the lock is taken (its wait can be cancelled, with nothing written yet), a last checkpoint
 * right before writing, then the new session and the recording are written back to back,
 * synchronously, so no signal lands between them. A new session that cannot be written fails
 * the run (exit 1) with nothing left behind. Returns the new file's path and whether the
 * source recorded the handoff.
 *
 * For `-o -` only the recording is written here, and the caller prints the session after it.
 * Recording first means whatever file the printed session lands in is newer than the source,
 * so an agent's "continue the most recent session" finds the new one; a new session written
 * here gets a modification time after the recording's, and then, where the target agent keeps
 * an index of its sessions (Codex), its row there (a warning when it cannot be added).
 */
export async function writeOutputs(
  run: Run,
  result: HandoffResult,
  place: NewSessionPlace,
  target: SessionFormat,
  file: SessionFile,
  logger: ConsolaInstance,
  cancel: AbortSignal,
): Promise<{ sessionFile: string | undefined; recorded: boolean }> {
  await run.cancel.checkpoint();
  const recording = result.recording;
  // Why it will not be recorded is said at once when known now: the format refused this source, or the lock was not taken.
  const locked: { lock: Lock } | { why: NotRecorded } | undefined =
    recording === undefined
      ? undefined
      : recording.mode === "skip"
        ? { why: { kind: "refused", reason: recording.reason } }
        : await lockForRecording(run, file, cancel);
  if (locked && "why" in locked) sayRecordOutcome({ recorded: false, why: locked.why }, file.path, logger);
  const lock = locked && "lock" in locked ? locked.lock : undefined;
  const record = (): boolean => {
    if (!lock || !recording || recording.mode === "skip") return false;
    const outcome = recordIntoSource(run.temps, recording, file);
    sayRecordOutcome(outcome, file.path, logger);
    return outcome.recorded;
  };
  try {
    await run.cancel.checkpoint();
    if ("stdout" in place) return { sessionFile: undefined, recorded: record() };
    if ("database" in place) {
      // Rows in the agent's database, in one transaction: the database is the session's file.
      if (!target.rows || !result.newSession.rows) throw new Error(`${target.label}: a session kept as rows was rendered without them`);
      writeRowSession(place.database, target.rows, result.newSession.rows);
      return { sessionFile: place.database, recorded: record() };
    }
    const sessionFile = writeNewSession(run.temps, result.newSession, place);
    const recorded = record();
    // Recording touched the source after the new session was written; the agents continue the
    // most recently modified session (`pi -c`, `claude -c`), which must be the new one.
    if (recorded && !makeNewerThan(sessionFile, file.realPath))
      logger.warn(
        `${sessionFile}: could not make it newer than ${asField(file.path)}; the agent's "continue the most recent session" may open the old one`,
      );
    // Last, once the file and its time are final: the agent's own index lists it by that time.
    indexNewSession(run, target, result.newSession, sessionFile, logger);
    return { sessionFile, recorded };
  } finally {
    lock?.release();
  }
}
