/**
 * One opencode session's rows into the common model, the way opencode 1.18.33 rebuilds the
 * conversation it sends: parts in id order; `text`/`reasoning` are the message, a `tool` part is a
 * call with its result right after, `file` is named, bookkeeping parts are passed over; an assistant
 * message with `summary: true` is a compaction; a `revert` hides its message and the later ones.
 * Each part type's fields are in docs/agents.md ("opencode: sessions as rows").
 */
import { AgentError } from "../../../errors.ts";
import { isObject, numberField, parseJsonOrUndefined, stringField, type JsonObject } from "../../../json.ts";
import type { Entry, LineProblem, Session, SessionHeader } from "../../types.ts";
import { unwrapHandoffDocument } from "../handoff-text.ts";
import type { Row, SessionRows } from "../session-rows.ts";

/** Part types opencode keeps for itself: not conversation. */
const BOOKKEEPING = new Set(["step-start", "step-finish", "snapshot", "patch", "agent", "subtask", "retry", "compaction"]);

function notASession(database: string, why: string): AgentError {
  return new AgentError("NOT_A_SESSION", `${database}: not an opencode session: ${why}`, { file: database });
}

/** A row's JSON `data`, or undefined when it is not an object. */
function dataOf(row: Row): JsonObject | undefined {
  const value = typeof row.data === "string" ? parseJsonOrUndefined(row.data) : undefined;
  return isObject(value) ? value : undefined;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

function readHeader(row: Row, database: string): SessionHeader {
  const id = typeof row.id === "string" ? row.id : undefined;
  if (!id) throw notASession(database, "its session row has no id");
  const model = typeof row.model === "string" ? parseJsonOrUndefined(row.model) : undefined;
  const created = typeof row.time_created === "number" ? new Date(row.time_created).toISOString() : undefined;
  return {
    id,
    cwd: typeof row.directory === "string" ? row.directory : undefined,
    timestamp: created,
    parentSession: typeof row.parent_id === "string" ? row.parent_id : undefined,
    agentVersion: typeof row.version === "string" ? row.version : undefined,
    modelProvider: isObject(model) ? stringField(model, "providerID") : undefined,
    line: 1,
    raw: { ...row },
  };
}

/** The message id a session's `revert` points at: it and every later message are hidden. */
function revertPoint(row: Row): string | undefined {
  const revert = typeof row.revert === "string" ? parseJsonOrUndefined(row.revert) : undefined;
  return isObject(revert) ? stringField(revert, "messageID") : undefined;
}

/** Builds the entries, each the child of the one before; `line` is the row's place in the read (1 is the session row). */
class Chain {
  readonly entries: Entry[] = [];
  private leaf: string | null = null;
  add(type: string, id: string, line: number, timestamp: number | undefined, fields: JsonObject): Entry {
    const data: JsonObject = {
      type,
      id,
      parentId: this.leaf,
      timestamp: timestamp === undefined ? undefined : new Date(timestamp).toISOString(),
      ...fields,
    };
    const entry: Entry = { type, id, parentId: this.leaf, line, data };
    this.entries.push(entry);
    this.leaf = id;
    return entry;
  }
}

interface ReadMessage {
  id: string;
  info: JsonObject;
  parts: JsonObject[];
  line: number;
}

/** The tool result a tool part holds, once the tool has run. */
function toolResult(part: JsonObject): { content: string; isError: boolean } | undefined {
  const state = isObject(part.state) ? part.state : {};
  if (state.status === "completed") return { content: text(state.output), isError: false };
  if (state.status === "error") return { content: text(state.error), isError: true };
  // pending or running: opencode was stopped before the tool ended; it sends an interrupted result.
  return { content: "[Tool execution was interrupted]", isError: true };
}

function userEntry(chain: Chain, message: ReadMessage, timestamp: number | undefined): void {
  const blocks: JsonObject[] = [];
  for (const part of message.parts) {
    if (part.type === "text" && part.synthetic !== true && part.ignored !== true) blocks.push({ type: "text", text: text(part.text) });
    else if (part.type === "file") blocks.push({ type: "text", text: `[file: ${text(part.filename) || text(part.url)}]` });
  }
  if (blocks.length === 0) return;
  const only = blocks.length === 1 ? text(blocks[0]?.text) : undefined;
  // The document a handoff opened this session with: the previous handoff, not a request.
  if (only !== undefined && unwrapHandoffDocument(only) !== undefined) {
    chain.add("custom_message", message.id, message.line, timestamp, { customType: "handoff", content: only, display: true });
    return;
  }
  chain.add("message", message.id, message.line, timestamp, { message: { role: "user", content: blocks, timestamp } });
}

function assistantEntries(chain: Chain, message: ReadMessage, timestamp: number | undefined): void {
  const { info } = message;
  const content: JsonObject[] = [];
  const tools: JsonObject[] = [];
  for (const part of message.parts) {
    if (part.type === "text" && part.synthetic !== true && part.ignored !== true) content.push({ type: "text", text: text(part.text) });
    else if (part.type === "reasoning") content.push({ type: "thinking", thinking: text(part.text) });
    else if (part.type === "tool") {
      const state = isObject(part.state) ? part.state : {};
      content.push({ type: "toolCall", id: text(part.callID), name: text(part.tool), arguments: isObject(state.input) ? state.input : {} });
      tools.push(part);
    }
  }
  if (info.summary === true) {
    const summary = content.flatMap((block) => (block.type === "text" ? [text(block.text)] : [])).join("\n");
    const entry = chain.add("compaction", message.id, message.line, timestamp, { summary });
    entry.data.firstKeptEntryId = entry.id;
    return;
  }
  if (content.length === 0) return;
  chain.add("message", message.id, message.line, timestamp, {
    message: {
      role: "assistant",
      content,
      provider: stringField(info, "providerID"),
      model: stringField(info, "modelID"),
      stopReason: tools.length > 0 ? "toolUse" : "stop",
      timestamp,
    },
  });
  for (const part of tools) {
    const result = toolResult(part);
    if (!result) continue;
    chain.add("message", text(part.id) || `${message.id}:${text(part.callID)}`, message.line, timestamp, {
      message: {
        role: "toolResult",
        toolCallId: text(part.callID),
        toolName: text(part.tool),
        content: [{ type: "text", text: result.content }],
        isError: result.isError,
        timestamp,
      },
    });
  }
}

/**
 * Reads one session's rows (`session`, `message`, `part`, as the format's SQL gives them, in id
 * order). Throws `NOT_A_SESSION` when there is no session row; a message or part whose JSON is
 * unusable is skipped and named.
 */
export function readOpencodeRows(rows: SessionRows, database = "opencode.db"): Session {
  const sessionRow = rows.session?.[0];
  if (!sessionRow) throw notASession(database, "there is no such session");
  const header = readHeader(sessionRow, database);
  const problems: LineProblem[] = [];
  const unknownTypes = new Set<string>();
  const messages = new Map<string, ReadMessage>();
  let line = 1;
  for (const row of rows.message ?? []) {
    line++;
    const info = dataOf(row);
    if (typeof row.id !== "string" || !info) {
      problems.push({ line, reason: `message ${String(row.id)}: its data is not a JSON object` });
      continue;
    }
    messages.set(row.id, { id: row.id, info, parts: [], line });
  }
  for (const row of rows.part ?? []) {
    line++;
    const part = dataOf(row);
    const message = typeof row.message_id === "string" ? messages.get(row.message_id) : undefined;
    if (!part || typeof part.type !== "string") {
      problems.push({ line, reason: `part ${String(row.id)}: its data is not a JSON object with a "type"` });
      continue;
    }
    if (!message) continue; // a part of a message left out above
    message.parts.push({ ...part, id: row.id });
  }
  const revert = revertPoint(sessionRow);
  const chain = new Chain();
  for (const message of messages.values()) {
    if (revert !== undefined && message.id >= revert) break;
    for (const part of message.parts) {
      const type = String(part.type);
      if (!BOOKKEEPING.has(type) && !["text", "reasoning", "tool", "file"].includes(type)) unknownTypes.add(`part ${type}`);
    }
    const time = isObject(message.info.time) ? numberField(message.info.time, "created") : undefined;
    if (message.info.role === "user") userEntry(chain, message, time);
    else if (message.info.role === "assistant") assistantEntries(chain, message, time);
    else unknownTypes.add(`message ${String(message.info.role)}`);
  }
  const title = typeof sessionRow.title === "string" ? sessionRow.title : undefined;
  return {
    format: "opencode",
    titleSlot: undefined,
    header,
    versionFound: undefined,
    version: 3,
    entries: chain.entries,
    malformedLines: problems.map((p) => p.line),
    problems,
    unknownTypes: [...unknownTypes],
    ...(title !== undefined ? { title } : {}),
    missingFinalNewline: false,
  };
}
