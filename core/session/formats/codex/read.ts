/**
 * A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) into the common
 * session model. Every line is `{timestamp, type, payload}`; the first is `session_meta`.
 * What becomes conversation: `response_item` lines (see items.ts), `compacted` lines (see
 * compaction.ts), `turn_context` (the model, as `model_change` entries) and the
 * `thread_rolled_back` event. Everything else (`event_msg` echoes of the conversation for the
 * UI, `world_state`, `token_usage_record`) is not conversation and is passed over.
 */
import { AgentError } from "../../../errors.ts";
import { isObject, numberField, stringField, type JsonObject } from "../../../json.ts";
import { splitLines, type RawLine, type SessionBytes } from "../../lines.ts";
import type { LineProblem, Session, SessionHeader } from "../../types.ts";
import { EntryChain, type Origin } from "./chain.ts";
import { addCompaction } from "./compaction.ts";
import { readItem } from "./items.ts";

/** Line types that are no conversation; anything else unknown is reported once per type. */
const PASSED_OVER = new Set(["event_msg", "world_state", "token_usage_record"]);

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * How Codex begins every line: serde writes `timestamp`, `ordinal` (newer versions), `type`,
 * `payload`, in this order and without spaces. A line written otherwise is simply parsed.
 */
const TIMESTAMP_OPEN = utf8('{"timestamp":"');
const ORDINAL_KEY = utf8(',"ordinal":');
const TYPE_KEY = utf8(',"type":');
/** Lines whose type holds no conversation. */
const PASSED_OVER_TYPES = ["event_msg", "world_state", "token_usage_record"].map((type) => utf8(`"${type}","payload":{`));
/** Reasoning (its id is optional) whose summary is empty: encrypted only, unless it has readable `content`. */
const REASONING_OPEN = utf8('"response_item","payload":{"type":"reasoning",');
const ID_KEY = utf8('"id":"');
const EMPTY_SUMMARY = utf8('"summary":[],');
const NEXT_LINE_START = utf8('{"timestamp":');
/** Events are tagged first (`{"type":…}`); this one drops turns, and is read. */
const ROLLBACK = utf8('"event_msg","payload":{"type":"thread_rolled_back"');
/** Reasoning's fields come in the order summary, content, encrypted_content. */
const READABLE_CONTENT = utf8('"content":[');
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;

function startsAt(bytes: Uint8Array, pattern: Uint8Array, at: number): boolean {
  if (at + pattern.length > bytes.length) return false;
  for (let i = 0; i < pattern.length; i++) if (bytes[at + i] !== pattern[i]) return false;
  return true;
}

/** Whether `pattern` occurs in `bytes` at or after `from`. */
function contains(bytes: Uint8Array, pattern: Uint8Array, from = 0): boolean {
  const first = pattern[0] ?? 0;
  for (let at = bytes.indexOf(first, from); at !== -1; at = bytes.indexOf(first, at + 1)) if (startsAt(bytes, pattern, at)) return true;
  return false;
}

/** Where the value of a line's `type` starts, or -1 when the line does not begin as Codex writes them. */
function typeValueAt(line: Uint8Array): number {
  if (!startsAt(line, TIMESTAMP_OPEN, 0)) return -1;
  let at = line.indexOf(QUOTE, TIMESTAMP_OPEN.length) + 1;
  if (at === 0) return -1;
  if (startsAt(line, ORDINAL_KEY, at)) for (at += ORDINAL_KEY.length; (line[at] ?? 0) >= 0x30 && (line[at] ?? 0) <= 0x39; ) at++;
  return startsAt(line, TYPE_KEY, at) ? at + TYPE_KEY.length : -1;
}

/** After `"reasoning",`: an optional `"id":"…",`, an empty summary, and no readable content. */
function encryptedOnlyAt(line: Uint8Array, at: number): boolean {
  if (startsAt(line, ID_KEY, at)) at = line.indexOf(QUOTE, at + ID_KEY.length) + 2;
  return at > 1 && startsAt(line, EMPTY_SUMMARY, at) && !startsAt(line, READABLE_CONTENT, at + EMPTY_SUMMARY.length);
}

/**
 * Whether a line can be passed over without decoding or parsing it (see `splitLines`): about
 * half of a rollout's lines and bytes are events, records and encrypted reasoning, which the
 * conversation does not need. It is read from the bytes: decoding would cost as much as the
 * parsing saved. Only a line that looks whole is passed over: it ends its object and holds no
 * second line's start (what a torn line followed by the next write looks like). Anything else
 * is parsed, and reported if broken.
 */
export function nothingToRead(line: Uint8Array): boolean {
  if (line[line.length - 1] !== CLOSE_BRACE) return false;
  const at = typeValueAt(line);
  if (at === -1 || startsAt(line, ROLLBACK, at)) return false;
  const passedOver = PASSED_OVER_TYPES.some((type) => startsAt(line, type, at));
  if (!passedOver && !(startsAt(line, REASONING_OPEN, at) && encryptedOnlyAt(line, at + REASONING_OPEN.length))) return false;
  return !contains(line, NEXT_LINE_START, 1);
}

function notASession(file: string, why: string, line?: number): AgentError {
  return new AgentError("NOT_A_SESSION", `${file}${line ? `:${line}` : ""}: not a Codex session: ${why}`, { file, line });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A line as a record, or the reason it is unusable. */
function parseRecord(raw: RawLine): JsonObject | string {
  const value = parseJson(raw.text);
  if (value === undefined) return "not valid JSON (a torn or hand-edited line?)";
  if (!isObject(value)) return "not a JSON object";
  if (typeof value.type !== "string" || value.type === "") return 'no string "type"';
  // The two lines that carry conversation are checked here, so a broken one is reported, not half read.
  const payload = isObject(value.payload) ? value.payload : undefined;
  if (value.type === "response_item" && typeof payload?.type !== "string") return 'a "response_item" whose payload has no "type"';
  if (value.type === "compacted" && typeof payload?.message !== "string" && !Array.isArray(payload?.replacement_history)) {
    return 'a "compacted" line with neither a "message" nor a "replacement_history"';
  }
  return value;
}

function readHeader(raw: RawLine, file: string): SessionHeader {
  const record = parseRecord(raw);
  if (typeof record === "string") throw notASession(file, record, raw.line);
  const meta = record.payload;
  if (record.type !== "session_meta" || !isObject(meta)) throw notASession(file, 'the first line is not a "session_meta" record', raw.line);
  const id = stringField(meta, "id");
  if (!id) throw notASession(file, 'its "session_meta" has no string "id"', raw.line);
  return {
    id,
    cwd: stringField(meta, "cwd"),
    timestamp: stringField(meta, "timestamp") ?? stringField(record, "timestamp"),
    parentSession: undefined,
    agentVersion: stringField(meta, "cli_version"),
    modelProvider: stringField(meta, "model_provider"),
    line: raw.line,
    raw: meta,
  };
}

/**
 * Reads a whole rollout, as text or bytes (see `splitLines`). Throws `NOT_A_SESSION` when the
 * first line is not a `session_meta` with an id; any other unusable line is skipped and named.
 */
export function readCodexRollout(input: string | SessionBytes, file = "session"): Session {
  const lines = splitLines(input, { passOver: nothingToRead });
  try {
    const first = lines.next();
    if (first.done) throw notASession(file, "the file is empty");
    const header = readHeader(first.value, file);
    const chain = new EntryChain();
    const problems: LineProblem[] = [];
    const unknownTypes = new Set<string>();
    let last = first.value;
    for (const raw of lines) {
      last = raw;
      if (raw.passedOver) continue;
      const record = parseRecord(raw);
      if (typeof record === "string") problems.push({ line: raw.line, reason: record });
      else for (const type of readRecord(chain, record, header, raw.line)) unknownTypes.add(type);
    }
    return {
      format: "codex",
      titleSlot: undefined,
      header,
      versionFound: undefined,
      version: 3,
      entries: chain.entries,
      malformedLines: problems.map((p) => p.line),
      problems,
      unknownTypes: [...unknownTypes],
      missingFinalNewline: !last.ended,
    };
  } finally {
    lines.return(undefined); // stops reading chunks when the file was refused early
  }
}

/** Adds one record's meaning to the chain; returns the types it did not know. */
function readRecord(chain: EntryChain, record: JsonObject, header: SessionHeader, line: number): string[] {
  const payload = isObject(record.payload) ? record.payload : {};
  const origin: Origin = { line, timestamp: stringField(record, "timestamp") };
  switch (record.type) {
    case "response_item": {
      const meaning = readItem(payload);
      if (meaning.kind === "unknown") return [`response_item ${meaning.type}`];
      chain.addItem(meaning, origin);
      return [];
    }
    case "compacted":
      return addCompaction(chain, payload, origin).map((type) => `response_item ${type}`);
    case "turn_context": {
      const model = stringField(payload, "model");
      if (model) chain.setModel(header.modelProvider, model, origin);
      return [];
    }
    case "event_msg":
      if (payload.type === "thread_rolled_back") chain.rollBack(numberField(payload, "num_turns") ?? 0);
      return [];
    case "session_meta":
      return []; // only the first one is this file's header; another one later is no conversation
    default:
      return PASSED_OVER.has(String(record.type)) ? [] : [String(record.type)];
  }
}
