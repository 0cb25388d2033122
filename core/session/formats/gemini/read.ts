/**
 * A Gemini CLI session (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`) into the
 * common model: the lines folded as Gemini loads them (records.ts), then the messages it would
 * send on resume (messages.ts), one entry each, each the child of the one before; a compression
 * (compression.ts) is a compaction entry after the messages it condensed. The file does
 * not name its folder; the `<session_context>` message Gemini writes on every start does (its
 * first workspace directory), and so does the project folder's `.project_root`.
 */
import { AgentError } from "../../../errors.ts";
import { stringField, type JsonObject } from "../../../json.ts";
import { splitLines, type LineLimits, type RawLine, type SessionBytes } from "../../lines.ts";
import type { Entry, Session, SessionHeader } from "../../types.ts";
import { isWrappedHandoff } from "../handoff-text.ts";
import { isIgnoredUserText, modelBlocks, partsOf, textOfParts, userBlocks, type ToolResult } from "./messages.ts";
import { legacyRecord } from "./legacy.ts";
import { foldRecords, stepsOfList, type GeminiMessage, type GeminiRecords } from "./records.ts";

function notASession(file: string, why: string, line?: number): AgentError {
  return new AgentError("NOT_A_SESSION", `${file}${line ? `:${line}` : ""}: not a Gemini CLI session: ${why}`, { file, line });
}

/** The first workspace directory a `<session_context>` text names: the folder Gemini ran in. */
export function workspaceOf(text: string): string | undefined {
  const match = /\*\*Workspace Directories:\*\*\n\s*- (\/[^\n]*)/.exec(text);
  return match?.[1];
}

/** The folder the session worked in, from the first `<session_context>` among its messages. */
export function cwdOfMessages(messages: readonly JsonObject[]): string | undefined {
  for (const record of messages) {
    if (record.type !== "user") continue;
    const text = textOfParts(partsOf(record.content)).trim();
    if (text.startsWith("<session_context>")) return workspaceOf(text);
  }
  return undefined;
}

class Chain {
  readonly entries: Entry[] = [];
  private leaf: string | null = null;
  private counter = 0;
  /** Calls answered so far: Gemini repeats a result on every resume. */
  private readonly answered = new Set<string>();

  add(type: string, line: number, timestamp: string | undefined, fields: JsonObject): Entry {
    const id = (++this.counter).toString(16).padStart(8, "0");
    const data: JsonObject = { type, id, parentId: this.leaf, timestamp, ...fields };
    const entry = { type, id, parentId: this.leaf, line, data };
    this.entries.push(entry);
    this.leaf = id;
    return entry;
  }

  /**
   * A compression: the model sees its summary and what follows (the messages it kept come after
   * it), so it names itself as the first entry kept. The history after it is Gemini's new chat:
   * a result there is read even when a condensed message carried the same call's.
   */
  compaction(line: number, timestamp: string | undefined, summary: string): void {
    const entry = this.add("compaction", line, timestamp, { summary });
    entry.data.firstKeptEntryId = entry.id;
    this.answered.clear();
  }

  results(results: readonly ToolResult[], line: number, timestamp: string | undefined): void {
    for (const result of results) {
      if (this.answered.has(result.callId)) continue;
      this.answered.add(result.callId);
      const message = {
        role: "toolResult",
        toolCallId: result.callId,
        toolName: result.name,
        content: [{ type: "text", text: result.text }],
        isError: result.isError,
        // Where Claude Code's reader puts the code it finds beside the text: Session Facts read it there.
        ...(result.exitCode !== undefined && { exitCode: result.exitCode }),
        timestamp: epochMs(timestamp),
      };
      this.add("message", line, timestamp, { message });
    }
  }
}

function epochMs(timestamp: string | undefined): number | undefined {
  const ms = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}

function addMessage(chain: Chain, { record, line }: GeminiMessage): void {
  const timestamp = stringField(record, "timestamp");
  if (record.type === "user") {
    const parts = partsOf(record.content);
    const { content, results } = userBlocks(parts);
    const text = textOfParts(parts);
    if (results.length === 0 && isIgnoredUserText(text)) return;
    if (content.length === 1 && isWrappedHandoff(text)) {
      chain.add("custom_message", line, timestamp, { customType: "handoff", content: text, display: true });
      return;
    }
    if (content.length > 0) chain.add("message", line, timestamp, { message: { role: "user", content, timestamp: epochMs(timestamp) } });
    chain.results(results, line, timestamp);
  } else if (record.type === "gemini") {
    const { content, results } = modelBlocks(record);
    if (content.length === 0) return;
    const message = {
      role: "assistant",
      content,
      model: stringField(record, "model"),
      stopReason: content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
      timestamp: epochMs(timestamp),
    };
    chain.add("message", line, timestamp, { message });
    chain.results(results, line, timestamp);
  }
  // info, error and warning messages are the CLI's own notes: never sent to the model.
}

/** Message types the reader knows (read, or known to be no conversation). */
const KNOWN_TYPES = new Set(["user", "gemini", "info", "error", "warning"]);

/**
 * A file no line of which is metadata, read as Gemini then reads it: one JSON object, a session
 * from before JSON Lines (legacy.ts); each message's line is the one its `"id"` is on.
 */
function foldedLegacy(lines: readonly RawLine[]): GeminiRecords | undefined {
  if (lines.some((line) => line.unusable)) return undefined;
  const record = legacyRecord(lines.map((line) => line.text).join("\n"));
  if (record === undefined) return undefined;
  let at = 0;
  const messages = record.messages.map((message) => {
    if (typeof message.id === "string") {
      const quoted = JSON.stringify(message.id);
      const found = lines.findIndex(
        (line, index) => index >= at && (line.text.includes(`"id": ${quoted}`) || line.text.includes(`"id":${quoted}`)),
      );
      if (found !== -1) at = found;
    }
    return { record: message, line: lines[at]?.line ?? 1 };
  });
  return { metadata: record.metadata, metadataLine: lines[0]?.line ?? 1, messages, steps: stepsOfList(messages), problems: [] };
}

export function readGeminiSession(input: string | SessionBytes, file = "session", limits: LineLimits = {}): Session {
  const lines = [...splitLines(input, limits)];
  if (lines.length === 0) throw notASession(file, "the file is empty");
  const jsonl = foldRecords(lines);
  const folded = jsonl.metadataLine === undefined ? (foldedLegacy(lines) ?? jsonl) : jsonl;
  const id = stringField(folded.metadata, "sessionId");
  if (folded.metadataLine === undefined || !id)
    throw notASession(
      file,
      'no metadata line (one with a string "sessionId" and "projectHash"), and not one JSON object with a "sessionId" (a session from before JSON Lines)',
      lines[0]?.line,
    );
  const chain = new Chain();
  const unknownTypes = new Set<string>();
  for (const { message, compression } of folded.steps) {
    const type = String(message.record.type);
    if (!KNOWN_TYPES.has(type)) unknownTypes.add(type);
    if (compression) chain.compaction(message.line, stringField(message.record, "timestamp"), textOfParts(partsOf(message.record.content)));
    else addMessage(chain, message);
  }
  const header: SessionHeader = {
    id,
    cwd: cwdOfMessages(folded.steps.map((step) => step.message.record)),
    timestamp: stringField(folded.metadata, "startTime"),
    parentSession: undefined,
    line: folded.metadataLine,
    raw: folded.metadata,
  };
  const last = lines.at(-1);
  return {
    format: "gemini",
    titleSlot: undefined,
    header,
    versionFound: undefined,
    version: 3,
    entries: chain.entries,
    malformedLines: folded.problems.map((p) => p.line),
    problems: folded.problems,
    unknownTypes: [...unknownTypes],
    title: stringField(folded.metadata, "summary"),
    // One JSON object (a session from before JSON Lines) needs no newline after it.
    missingFinalNewline: folded !== jsonl || last === undefined ? false : !last.ended,
  };
}
