import type { TokenUsage } from "../llm/types.ts";
import type { Session } from "../session/types.ts";
import { wrapHandoffDocument } from "./wrap.ts";

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
  entryId: string;
  timestamp: Date;
  cwd: string | undefined;
  /** Absolute path of the session handed off; `undefined` when it was read as a stream. */
  parentSession: string | undefined;
  document: string;
}

/** The new session file: a v3 header and one `handoff` custom message holding the document. */
export function renderNewSession(input: NewSessionInput): string {
  const iso = input.timestamp.toISOString();
  return (
    line({ type: "session", version: 3, id: input.sessionId, timestamp: iso, cwd: input.cwd, parentSession: input.parentSession }) +
    line({
      type: "custom_message",
      id: input.entryId,
      parentId: null,
      timestamp: iso,
      customType: "handoff",
      content: wrapHandoffDocument(input.document),
      display: true,
    })
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
  /** Two fresh entry ids, unused in the session. */
  entryIds: [string, string];
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
 * the assistant's answer, as the interactive agents record them. A version 1 or 2 source is
 * first brought to version 3 (entries need ids to hang a turn from), so the whole file is
 * rewritten from its own lines (`upgradeToVersion3`, when the file is read again to be
 * replaced), every entry kept; a file with unusable lines is not rewritten, since the lines
 * would be lost.
 */
export function renderRecording(input: RecordingInput): Recording {
  const { session } = input;
  const iso = input.timestamp.toISOString();
  const ms = input.timestamp.getTime();
  const [userId, assistantId] = input.entryIds;
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
        usage: {
          input: usage.inputTokens,
          output: usage.outputTokens,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: usage.inputTokens + usage.outputTokens,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: stopReasonFor(input.finishReason),
        timestamp: ms,
      },
    });

  if (session.version === 3) return { mode: "append", text: (session.missingFinalNewline ? "\n" : "") + turn };
  if (session.problems.length > 0) {
    return { mode: "skip", reason: `the source is version ${session.version} with ${session.problems.length} unusable line(s), which upgrading it to version 3 would drop` };
  }
  if (session.titleSlot) return { mode: "skip", reason: `the source is version ${session.version} with a title line, which we do not rewrite` };
  return { mode: "rewrite", turn };
}
