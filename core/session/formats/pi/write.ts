import { modelChangeFields, type RestoredModel } from "../../restored-model.ts";
import type { NewSessionFile, NewSessionInput, Recording, RecordingInput } from "../types.ts";
import { upgradeToVersion3 } from "./upgrade.ts";
import { unknownLayoutRefusal } from "../version.ts";
import { countOf } from "../../../format.ts";

/** `JSON.stringify` drops keys whose value is `undefined`, as the format wants. */
function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** `<ISO time with : and . as ->_<id>.jsonl`, the name both agents give session files. */
export function sessionFileName(timestamp: Date, sessionId: string): string {
  return `${timestamp.toISOString().replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

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

/** The `model_change` line that puts the model back, if the session named one (its id is taken only then). */
function modelChangeLine(model: RestoredModel, newEntryId: () => string, parentId: string, iso: string): string {
  const fields = modelChangeFields(model);
  if (!fields) return "";
  const { type, ...rest } = fields;
  return line({ type, id: newEntryId(), parentId, timestamp: iso, ...rest });
}

/**
 * The new session file, as pi and omp resume it: a v3 header, the `handoff` custom message
 * holding the document, a short assistant acknowledgement, and a `model_change` back to the
 * source's model. The acknowledgement is there because pi 0.73.1 takes a file without any
 * assistant message for one it never saved and writes everything again on the first reply (a
 * second header, duplicate ids); the model entry because both agents would otherwise resume with
 * the acknowledgement's model, which is ours, not a model they can call.
 */
export function renderNewSession(input: NewSessionInput): NewSessionFile {
  const iso = input.timestamp.toISOString();
  const handoffId = input.newEntryId();
  const ackId = input.newEntryId();
  const content =
    line({ type: "session", version: 3, id: input.sessionId, timestamp: iso, cwd: input.cwd, parentSession: input.parentSession }) +
    line({
      type: "custom_message",
      id: handoffId,
      parentId: null,
      timestamp: iso,
      customType: "handoff",
      content: input.wrappedDocument,
      display: true,
    }) +
    line({
      type: "message",
      id: ackId,
      parentId: handoffId,
      timestamp: iso,
      message: {
        role: "assistant",
        content: [{ type: "text", text: input.acknowledgement }],
        api: "offline",
        provider: "agent",
        model: "handoff",
        usage: usageFields(0, 0),
        stopReason: "stop",
        timestamp: input.timestamp.getTime(),
      },
    }) +
    modelChangeLine(input.model, input.newEntryId, ackId, iso);
  return { content, fileName: sessionFileName(input.timestamp, input.sessionId), sessionId: input.sessionId };
}

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
  const userId = input.newEntryId();
  const assistantId = input.newEntryId();
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
    modelChangeLine(input.restore, input.newEntryId, assistantId, iso);

  const unknown = unknownLayoutRefusal(session);
  if (unknown !== undefined) return { mode: "skip", reason: unknown };
  if (session.version === 3) return { mode: "append", text: (session.missingFinalNewline ? "\n" : "") + turn };
  if (session.problems.length > 0) {
    return {
      mode: "skip",
      reason: `the source is version ${session.version} with ${countOf(session.problems.length, "unusable line")}, which upgrading it to version 3 would drop`,
    };
  }
  if (session.titleSlot)
    return { mode: "skip", reason: `the source is version ${session.version} with a title line, which we do not rewrite` };
  return {
    mode: "rewrite",
    rewrite: (lines, write) => upgradeToVersion3(session, lines, write),
    turn,
    notice: "upgraded to session format version 3 to record the handoff",
  };
}
