import { dirname, join } from "node:path";
import type { ConsolaInstance } from "consola/core";
import {
  countOf,
  AgentError,
  describeRunPlan,
  errorMessage,
  checkRunPlan,
  isAgentError,
  planHandoffRequests,
  planTargetOf,
  runHandoff,
  splitLines,
  type HandoffDeps,
  type HandoffInput,
  type HandoffResult,
  type Recording,
  type SessionFormat,
} from "../core/index.ts";
import { createFolders, removeCreatedFolders } from "./agent-home.ts";
import { readSessionFile, type SessionFile } from "./files.ts";
import { acquireLock, lockPathFor, type Lock } from "./lock.ts";
import { createModelPort } from "./model.ts";
import { askEndpointForModel } from "./model-list.ts";
import type { HandoffOptions } from "./options.ts";
import { createProgress, type Progress } from "./progress.ts";
import { planTarget } from "./run-plan.ts";
import { describeUrl } from "./secrets.ts";
import type { Run } from "./run.ts";
import { countingUsage, usageComplete, type ReportedHandoffResult, type UsageReports } from "./usage-reports.ts";
import type { Content } from "./temp-file.ts";
import { appendIfUnchanged, createFileAtomically, makeNewerThan, replaceIfUnchanged } from "./write.ts";
import { indexNewSession } from "./session-index.ts";
import { asField } from "./terminal.ts";

/** The clock and fresh ids. */
export function realEffects(): Omit<HandoffDeps, "complete"> {
  return {
    now: () => new Date(),
    newSessionId: () => crypto.randomUUID(),
    newEntryId: () => crypto.randomUUID().replace(/-/g, "").slice(0, 8),
    utcOffsetMinutes: (at) => -at.getTimezoneOffset(),
  };
}

/**
 * Runs `work` as a run in progress (see cli/cancel.ts): SIGINT, SIGTERM and SIGHUP cancel it for
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

/**
 * Runs the pipeline with the real effects: HTTP, the clock, random ids, the --timeout deadline.
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
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = AbortSignal.any([cancel, deadline.signal]);
  const endpoint = {
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    logger,
    profile: options.profile,
    printed: run.printed,
  };
  let progress: Progress | undefined;
  try {
    // A model still to be asked of the endpoint: a run over the limit is refused before the endpoint is contacted at all.
    if (options.model === undefined && input.inputLimit !== undefined)
      checkRunPlan(planHandoffRequests(input).plan, planTarget(input), input.inputLimit);
    const model = options.model ?? (await askEndpointForModel(endpoint, signal));
    logger.debug(
      `engine ${options.engine}; model ${model} at ${options.baseUrl ? describeUrl(options.baseUrl) : "the OpenAI API"} (${options.profile.id} profile); ${countOf(input.analysis.context.length, "context message")}`,
    );
    const reported: UsageReports = { runs: 0, withUsage: 0 };
    const result = await runHandoff(
      { ...input, model },
      {
        complete: countingUsage(createModelPort({ ...endpoint, onProgress: (chars) => progress?.update(chars) }), reported),
        ...realEffects(),
        signal,
        notice: (line) => logger.debug(line),
        // The plan is said before the status line starts: both are on stderr.
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
    progress?.stop();
    clearTimeout(timer);
  }
}

/** Takes the source's lock for recording, or says why the handoff will not be recorded. */
async function lockForRecording(run: Run, file: SessionFile, logger: ConsolaInstance, cancel: AbortSignal): Promise<Lock | undefined> {
  try {
    // Locked by the real path, so handoffs through a symlink and through the file share one lock.
    const lock = await acquireLock(run, file.realPath, { signal: cancel });
    if ("release" in lock) return lock;
    const lockPath = lockPathFor(file.realPath);
    if ("foreign" in lock) {
      logger.warn(
        `${asField(file.path)}: not recorded in the source: ${asField(lockPath)} is ${lock.foreign}, not a lock this tool made; it was left alone`,
      );
      return undefined;
    }
    const who = lock.heldBy === undefined ? "another process" : `process ${lock.heldBy}`;
    logger.warn(
      `${asField(file.path)}: not recorded in the source: ${who} holds ${asField(lockPath)} (another handoff recording into it?)`,
    );
  } catch (error) {
    if (!isAgentError(error) || error.code !== "FILE") throw error;
    logger.warn(`${asField(file.path)}: not recorded in the source: cannot lock it (${error.message})`);
  }
  return undefined;
}

/**
 * The source rewritten as its format asks (pi: a version 1 or 2 file as version 3) and then
 * `turn`, written piece by piece from its own lines read again now (the session in memory keeps
 * no text); abandoned when a line is no longer what was read.
 */
function rewrittenSource(recording: Extract<Recording, { mode: "rewrite" }>, file: SessionFile): Content {
  return (write) => {
    if (recording.rewrite(splitLines(readSessionFile(file.realPath).chunks, { exact: true }), write)) return false;
    write(recording.turn);
    return true;
  };
}

/** Appends (or, for an old format, rewrites) the source; a failure is a warning, never a torn file. */
function record(run: Run, result: HandoffResult, file: SessionFile, logger: ConsolaInstance): boolean {
  const recording = result.recording;
  if (!recording || recording.mode === "skip") return false;
  if (recording.mode === "rewrite" && file.links > 1) {
    // Renaming a new file over it would leave the other names pointing at the old version.
    logger.warn(
      `${asField(file.path)}: not recorded in the source: it has ${file.links} hard links, and rewriting it to record the handoff would split them`,
    );
    return false;
  }
  let done: boolean;
  try {
    if (recording.mode === "append") done = appendIfUnchanged(file.realPath, recording.text, file);
    else done = replaceIfUnchanged(run.temps, file.realPath, rewrittenSource(recording, file), file);
  } catch (error) {
    logger.warn(`${asField(file.path)}: not recorded in the source: ${errorMessage(error)}`);
    return false;
  }
  if (!done)
    logger.warn(`${asField(file.path)}: changed while we worked (is an agent still writing it?); the handoff was not recorded in it`);
  else if (recording.mode === "rewrite") logger.info(`${asField(file.path)}: ${recording.notice}`);
  return done;
}

/** Where the new session goes: stdout (`-o -`), the path `-o` names, or a folder known once the session's time is. */
export type NewSessionPlace = { stdout: true } | { path: string } | { folder: (timestamp: Date) => string };

/** Writes the new session where it goes, creating the agent's folders it needs; nothing is left behind when it fails. */
function writeNewSession(run: Run, result: HandoffResult, place: Exclude<NewSessionPlace, { stdout: true }>): string {
  const path = "path" in place ? place.path : join(place.folder(result.newSession.timestamp), result.newSession.fileName);
  let created: string | undefined;
  try {
    if ("folder" in place) created = createFolders(dirname(path));
    createFileAtomically(run.temps, path, result.newSession.content);
  } catch (error) {
    removeCreatedFolders(dirname(path), created);
    throw new AgentError("HANDOFF_FAILED", `could not write the new session: ${errorMessage(error)}`);
  }
  return path;
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
  if (recording?.mode === "skip") logger.warn(`${asField(file.path)}: not recorded in the source: ${recording.reason}`);
  const lock = recording && recording.mode !== "skip" ? await lockForRecording(run, file, logger, cancel) : undefined;
  try {
    await run.cancel.checkpoint();
    if ("stdout" in place) return { sessionFile: undefined, recorded: lock ? record(run, result, file, logger) : false };
    const sessionFile = writeNewSession(run, result, place);
    const recorded = lock ? record(run, result, file, logger) : false;
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
