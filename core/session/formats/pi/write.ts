import type { TokenUsage } from "../../../llm/types.ts";
import { modelChangeFields, type RestoredModel } from "../../restored-model.ts";
import type { Session } from "../../types.ts";
import { wrapHandoffDocument } from "../../../handoff/wrap.ts";

/** `JSON.stringify` drops keys whose value is `undefined`, as the format wants. */
function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** `<ISO time with : and . as ->_<id>.jsonl`, the name both agents give session files. */
export function sessionFileName(timestamp: Date, sessionId: string): string {
  return `${timestamp.toISOString().replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

export interface NewSessionInput {
  sessionId: string;
  /** Fresh ids for the handoff message, the acknowledgement and the model entry. */
  entryIds: [string, string, string];
  timestamp: Date;
  cwd: string | undefined;
  /** Absolute path of the session handed off; `undefined` when it was read as a stream. */
  parentSession: string | undefined;
  document: string;
  /** The model the source's branch resumes with; the new session resumes with it too. */
  model: RestoredModel;
}

/** What the acknowledgement says: the next model sees it after the document, before the user's next words. */
export const ACKNOWLEDGEMENT = "I have read the handoff document and will continue the work from it.";

/**
 * Token counts in the shape both agents write. omp fails to load an assistant message whose
 * usage has no `cost`; we never know a price, so it is zero.
 */
function usageFields(input: number, output: number) {
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** The `model_change` line that puts the model back, if the session named one. */
function modelChangeLine(model: RestoredModel, id: string, parentId: string, iso: string): string {
  const fields = modelChangeFields(model);
  if (!fields) return "";
  const { type, ...rest } = fields;
  return line({ type, id, parentId, timestamp: iso, ...rest });
}

/**
 * The new session file: a v3 header, the `handoff` custom message holding the document, a
 * short assistant acknowledgement, and a `model_change` back to the source's model.
 * The acknowledgement is there because pi 0.73.1 takes a file without any assistant message
 * for one it never saved and writes everything again on the first reply (a second header,
 * duplicate ids); the model entry because both agents would otherwise resume with the
 * acknowledgement's model, which is ours, not a model they can call.
 */
export function renderNewSession(input: NewSessionInput): string {
  const iso = input.timestamp.toISOString();
  const [handoffId, ackId, modelEntryId] = input.entryIds;
  return (
    line({ type: "session", version: 3, id: input.sessionId, timestamp: iso, cwd: input.cwd, parentSession: input.parentSession }) +
    line({
      type: "custom_message",
      id: handoffId,
      parentId: null,
      timestamp: iso,
      customType: "handoff",
      content: wrapHandoffDocument(input.document),
      display: true,
    }) +
    line({
      type: "message",
      id: ackId,
      parentId: handoffId,
      timestamp: iso,
      message: {
        role: "assistant",
        content: [{ type: "text", text: ACKNOWLEDGEMENT }],
        api: "offline",
        provider: "agent",
        model: "handoff",
        usage: usageFields(0, 0),
        stopReason: "stop",
        timestamp: input.timestamp.getTime(),
      },
    }) +
    modelChangeLine(input.model, modelEntryId, ackId, iso)
  );
}

/** The `api` a recorded answer names: the Chat Completions wire, or none (the offline engine wrote it). */
export type RecordedApi = "openai-completions" | "offline";

export interface RecordingInput {
  session: Session;
  /** The leaf that was handed off; the recorded turn hangs from it. */
  leafId: string | undefined;
  instruction: string;
  document: string;
  provider: string;
  model: string;
  api: RecordedApi;
  /** How the completion that gave the document ended, as the endpoint said (`stop`, `length`, …). */
  finishReason: string;
  usage: TokenUsage | undefined;
  timestamp: Date;
  /** Three fresh entry ids, unused in the session: the instruction, the answer, the model entry. */
  entryIds: [string, string, string];
  /** The model the branch resumes with before the recording: it must resume with it after. */
  restore: RestoredModel;
}

/** How the source session changes after a handoff, if at all. */
export type Recording =
  | { mode: "append"; text: string }
  /** Version 1 or 2: the file becomes its own lines upgraded (see `upgradeToVersion3`), then `turn`. */
  | { mode: "rewrite"; turn: string }
  | { mode: "skip"; reason: string };

/**
 * The session format's `stopReason` for a finish reason. Only a cut at the output limit is
 * worth telling apart: the recorded answer is text only (no tool calls to follow), and
 * `error` would make both agents drop the turn from the context, document and all.
 */
function stopReasonFor(finishReason: string): "stop" | "length" {
  return finishReason === "length" ? "length" : "stop";
}

/**
 * What to add to the source session: the instruction as a user message and the document as
 * the assistant's answer, as the interactive agents record them, then a `model_change` back to
 * the model the branch resumed with: the answer names the model that wrote it (ours, or the
 * offline engine), and both agents restore the last model they see. A version 1 or 2 source is
 * first brought to version 3 (entries need ids to hang a turn from), so the whole file is
 * rewritten from its own lines (`upgradeToVersion3`, when the file is read again to be
 * replaced), every entry kept; a file with unusable lines is not rewritten, since the lines
 * would be lost.
 */
export function renderRecording(input: RecordingInput): Recording {
  const { session } = input;
  const iso = input.timestamp.toISOString();
  const ms = input.timestamp.getTime();
  const [userId, assistantId, modelEntryId] = input.entryIds;
  const usage = input.usage ?? { inputTokens: 0, outputTokens: 0 };
  const turn =
    line({
      type: "message",
      id: userId,
      parentId: input.leafId ?? null,
      timestamp: iso,
      message: { role: "user", content: [{ type: "text", text: input.instruction }], timestamp: ms },
    }) +
    line({
      type: "message",
      id: assistantId,
      parentId: userId,
      timestamp: iso,
      message: {
        role: "assistant",
        content: [{ type: "text", text: input.document }],
        api: input.api,
        provider: input.provider,
        model: input.model,
        usage: usageFields(usage.inputTokens, usage.outputTokens),
        stopReason: stopReasonFor(input.finishReason),
        timestamp: ms,
      },
    }) +
    modelChangeLine(input.restore, modelEntryId, assistantId, iso);

  if (session.version === 3) return { mode: "append", text: (session.missingFinalNewline ? "\n" : "") + turn };
  if (session.problems.length > 0) {
    return { mode: "skip", reason: `the source is version ${session.version} with ${session.problems.length} unusable line(s), which upgrading it to version 3 would drop` };
  }
  if (session.titleSlot) return { mode: "skip", reason: `the source is version ${session.version} with a title line, which we do not rewrite` };
  return { mode: "rewrite", turn };
}
