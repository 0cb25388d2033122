/**
 * A Gemini CLI session file's lines folded the way Gemini CLI 0.61 loads them
 * (`loadConversationRecord`, packages/core/src/services/chatRecordingService.ts): a line with
 * `sessionId` and `projectHash` is metadata (another one later, a resume's, merges into it);
 * `$set` merges metadata, and `$set.messages` replaces the whole list of messages; `$rewindTo`
 * drops the message it names and every one after it (all of them when none has that id); any
 * other line with an `id` is a message, and a message written again with the same id replaces
 * the earlier one where that one stood.
 */
import { isObject, parseJsonOrUndefined, stringField, type JsonObject } from "../../../json.ts";
import type { LineProblem } from "../../types.ts";

/** One message as Gemini keeps it, and the line its last version came from. */
export interface GeminiMessage {
  record: JsonObject;
  line: number;
}

export interface GeminiRecords {
  /** The metadata, merged in file order; `line` is the first metadata line's. */
  metadata: JsonObject;
  metadataLine: number | undefined;
  /** The messages Gemini would resume with, in order. */
  messages: GeminiMessage[];
  problems: LineProblem[];
}

/** The metadata line Gemini writes first (and again on every resume): `sessionId` and `projectHash` strings. */
export function isMetadataRecord(value: unknown): value is JsonObject {
  return isObject(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string";
}

/** The messages a list holds (`$set.messages`, a metadata line's `messages`), each with the line it came from. */
function messagesOf(list: unknown, line: number): GeminiMessage[] {
  if (!Array.isArray(list)) return [];
  return list.filter((m): m is JsonObject => isObject(m) && typeof m.id === "string").map((record) => ({ record, line }));
}

/** Folds lines (text, 1-based numbers) into what Gemini would load. */
export function foldRecords(lines: Iterable<{ text: string; line: number; unusable?: string }>): GeminiRecords {
  let metadata: JsonObject = {};
  let metadataLine: number | undefined;
  // Map order is insertion order, and `set` on a key already there keeps its place: as Gemini's own map.
  let messages = new Map<string, GeminiMessage>();
  const problems: LineProblem[] = [];
  const replaceAll = (list: GeminiMessage[]) => {
    messages = new Map(list.map((m) => [String(m.record.id), m]));
  };
  for (const raw of lines) {
    if (!raw.unusable && raw.text.trim() === "") continue;
    if (raw.unusable) {
      problems.push({ line: raw.line, reason: raw.unusable });
      continue;
    }
    const value = parseJsonOrUndefined(raw.text);
    if (!isObject(value)) {
      problems.push({ line: raw.line, reason: value === undefined ? "not valid JSON (a torn or hand-edited line?)" : "not a JSON object" });
      continue;
    }
    const rewindTo = stringField(value, "$rewindTo");
    if (rewindTo !== undefined) {
      const ids = [...messages.keys()];
      const at = ids.indexOf(rewindTo);
      if (at === -1) messages.clear();
      else for (const id of ids.slice(at)) messages.delete(id);
    } else if (typeof value.id === "string") {
      messages.set(value.id, { record: value, line: raw.line });
    } else if (isObject(value.$set)) {
      if (Array.isArray(value.$set.messages)) replaceAll(messagesOf(value.$set.messages, raw.line));
      metadata = { ...metadata, ...value.$set };
    } else if (isMetadataRecord(value)) {
      metadata = { ...metadata, ...value };
      metadataLine ??= raw.line;
      if (Array.isArray(value.messages)) for (const m of messagesOf(value.messages, raw.line)) messages.set(String(m.record.id), m);
    } else problems.push({ line: raw.line, reason: "neither metadata, a message, $set nor $rewindTo" });
  }
  delete metadata.messages;
  return { metadata, metadataLine, messages: [...messages.values()], problems };
}
