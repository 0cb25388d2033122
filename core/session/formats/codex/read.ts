/**
 * A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) into the common
 * session model. Every line is `{timestamp, type, payload}`; the first is `session_meta`.
 * What becomes conversation: `response_item` lines (see items.ts), `compacted` lines (see
 * compaction.ts), `turn_context` (the model, as `model_change` entries) and the
 * `thread_rolled_back` event. Everything else (`event_msg` echoes of the conversation for the
 * UI, `world_state`, `token_usage_record`) is not conversation and is passed over.
 */
import { AgentError } from "../../../errors.ts";
import { isObject, parseJsonOrUndefined, numberField, stringField, type JsonObject } from "../../../json.ts";
import { splitLines, type LineLimits, type RawLine, type SessionBytes } from "../../lines.ts";
import type { LineProblem, Session, SessionHeader } from "../../types.ts";
import { EntryChain, type Origin } from "./chain.ts";
import { addCompaction } from "./compaction.ts";
import { readItem } from "./items.ts";
import { nothingToRead, PASSED_OVER } from "./pass-over.ts";
import { spawnedThread, spawnedThreadNotice } from "./spawned.ts";

function notASession(file: string, why: string, line?: number): AgentError {
  return new AgentError("NOT_A_SESSION", `${file}${line ? `:${line}` : ""}: not a Codex session: ${why}`, { file, line });
}

/** A line as a record, or the reason it is unusable. */
function parseRecord(raw: RawLine): JsonObject | string {
  if (raw.unusable) return raw.unusable;
  const value = parseJsonOrUndefined(raw.text);
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
export function readCodexRollout(input: string | SessionBytes, file = "session", limits: LineLimits = {}): Session {
  const lines = splitLines(input, { ...limits, passOver: nothingToRead });
  try {
    const first = lines.next();
    if (first.done) throw notASession(file, "the file is empty");
    if (first.value.passedOver) throw notASession(file, 'the first line is not a "session_meta" record', first.value.line);
    const header = readHeader(first.value, file);
    const spawned = spawnedThread(header.raw);
    const chain = new EntryChain();
    const problems: LineProblem[] = [];
    const unknownTypes = new Set<string>();
    let last = first.value;
    for (const raw of lines) {
      last = raw;
      if (raw.passedOver) continue;
      const record = parseRecord(raw);
      if (typeof record === "string") problems.push({ line: raw.line, reason: record });
      else readRecord(chain, record, header, raw.line, unknownTypes);
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
      notices: spawned && [`line ${header.line}: ${spawnedThreadNotice(spawned)}`],
      missingFinalNewline: !last.ended,
    };
  } finally {
    lines.return(undefined); // stops reading chunks when the file was refused early
  }
}

/** Adds one record's meaning to the chain, and to `unknownTypes` the types it did not know. */
function readRecord(chain: EntryChain, record: JsonObject, header: SessionHeader, line: number, unknownTypes: Set<string>): void {
  const payload = isObject(record.payload) ? record.payload : {};
  const origin: Origin = { line, timestamp: stringField(record, "timestamp") };
  switch (record.type) {
    case "response_item": {
      const meaning = readItem(payload);
      if (meaning.kind === "unknown") unknownTypes.add(`response_item ${meaning.type}`);
      else chain.addItem(meaning, origin);
      return;
    }
    case "compacted":
      for (const type of addCompaction(chain, payload, origin)) unknownTypes.add(`response_item ${type}`);
      return;
    case "turn_context": {
      const model = stringField(payload, "model");
      if (model) chain.setModel(header.modelProvider, model, origin);
      return;
    }
    case "event_msg":
      if (payload.type === "thread_rolled_back") chain.rollBack(numberField(payload, "num_turns") ?? 0);
      return;
    case "session_meta":
      return; // only the first one is this file's header; another one later is not a conversation
    default:
      if (!PASSED_OVER.has(String(record.type))) unknownTypes.add(String(record.type));
  }
}
