/**
 * Recording into the source: the exchange written back into the session handed off, where its
 * agent does (pi, omp). One outcome type, and one message for a handoff that was not recorded:
 * `<file>: not recorded in the source: <why>`.
 */
import type { Run } from "../run.ts";
import type { TempFiles } from "../io/temp-file.ts";
import type { ConsolaInstance } from "consola/core";
import { errorMessage, isAgentError, splitLines, withArticle, type Recording, type SessionFormat } from "../../core/index.ts";
import { readSessionFile, type SessionFile } from "./session-file.ts";
import { acquireLock, lockPathFor, type Lock } from "../io/lock.ts";
import type { Content } from "../io/temp-file.ts";
import { asField } from "../output/terminal.ts";
import { appendIfUnchanged, replaceIfUnchanged } from "../io/write.ts";

/** Why the handoff was not recorded into the source. */
export type NotRecorded =
  /** Its format is never recorded into (Claude Code, Codex): expected, so said as information. */
  | { kind: "format"; label: string }
  /** Read from a stream: no file to write back to. */
  | { kind: "stream"; stream: string }
  /** The format refused this source (core's reason: a layout version we do not know, …). */
  | { kind: "refused"; reason: string }
  | { kind: "foreign-lock"; lockPath: string; what: string }
  | { kind: "lock-held"; lockPath: string; heldBy: number | undefined }
  | { kind: "cannot-lock"; reason: string }
  | { kind: "hard-links"; links: number }
  | { kind: "write-failed"; reason: string }
  /** The source is not what was read any more (an agent still writing it?). */
  | { kind: "changed" };

/** What became of recording: done (with what a rewrite changed, to say), or not and why. */
export type RecordOutcome = { recorded: true; notice: string | undefined } | { recorded: false; why: NotRecorded };

/** The words after `not recorded in the source: `. */
export function notRecordedReason(why: NotRecorded): string {
  switch (why.kind) {
    case "format":
      return `${withArticle(why.label)} session is never written to; it was left untouched`;
    case "stream":
      return `${why.stream}, not a file it could be written back to`;
    case "refused":
      return why.reason;
    case "foreign-lock":
      return `${asField(why.lockPath)} is ${why.what}, not a lock this tool made; it was left alone`;
    case "lock-held":
      return `${why.heldBy === undefined ? "another process" : `process ${why.heldBy}`} holds ${asField(why.lockPath)} (another handoff recording into it?)`;
    case "cannot-lock":
      return `cannot lock it (${why.reason})`;
    case "hard-links":
      return `it has ${why.links} hard links, and rewriting it to record the handoff would split them`;
    case "write-failed":
      return why.reason;
    case "changed":
      return "it changed while we worked (is an agent still writing it?)";
  }
}

/** The one message for a handoff not recorded, and how loud: information for a format never recorded into, else a warning. */
export function describeNotRecorded(path: string, why: NotRecorded): { level: "info" | "warn"; text: string } {
  return {
    level: why.kind === "format" ? "info" : "warn",
    text: `${asField(path)}: not recorded in the source: ${notRecordedReason(why)}`,
  };
}

/** Says what became of recording: nothing when it was done quietly. */
export function sayRecordOutcome(outcome: RecordOutcome, path: string, logger: ConsolaInstance): void {
  if (outcome.recorded) {
    if (outcome.notice !== undefined) logger.info(`${asField(path)}: ${outcome.notice}`);
    return;
  }
  const { level, text } = describeNotRecorded(path, outcome.why);
  logger[level](text);
}

/**
 * Why a source will not be recorded into, known before the model is asked: its format keeps no
 * record of ours, or it was read from a stream. The first that applies; undefined when neither.
 */
export function notRecordable(format: SessionFormat, stream: string | undefined): NotRecorded | undefined {
  if (!format.record) return { kind: "format", label: format.label };
  if (stream !== undefined) return { kind: "stream", stream };
  return undefined;
}

/** Takes the source's lock for recording, or says why the handoff will not be recorded. */
export async function lockForRecording(run: Run, file: SessionFile, cancel: AbortSignal): Promise<{ lock: Lock } | { why: NotRecorded }> {
  try {
    // Locked by the real path, so handoffs through a symlink and through the file share one lock.
    const lock = await acquireLock(run, file.realPath, { signal: cancel });
    if ("release" in lock) return { lock };
    const lockPath = lockPathFor(file.realPath);
    if ("foreign" in lock) return { why: { kind: "foreign-lock", lockPath, what: lock.foreign } };
    return { why: { kind: "lock-held", lockPath, heldBy: lock.heldBy } };
  } catch (error) {
    if (!isAgentError(error) || error.code !== "FILE") throw error;
    return { why: { kind: "cannot-lock", reason: error.message } };
  }
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

/**
 * Appends (or, for an old format, rewrites) the source, with its lock held; a failure is an
 * outcome, never a torn file.
 */
export function recordIntoSource(temps: TempFiles, recording: Exclude<Recording, { mode: "skip" }>, file: SessionFile): RecordOutcome {
  // Renaming a new file over it would leave the other names pointing at the old version.
  if (recording.mode === "rewrite" && file.links > 1) return { recorded: false, why: { kind: "hard-links", links: file.links } };
  let done: boolean;
  try {
    if (recording.mode === "append") done = appendIfUnchanged(file.realPath, recording.text, file);
    else done = replaceIfUnchanged(temps, file.realPath, rewrittenSource(recording, file), file);
  } catch (error) {
    return { recorded: false, why: { kind: "write-failed", reason: errorMessage(error) } };
  }
  if (!done) return { recorded: false, why: { kind: "changed" } };
  return { recorded: true, notice: recording.mode === "rewrite" ? recording.notice : undefined };
}
