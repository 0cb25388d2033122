/**
 * A Gemini CLI session file's lines folded the way Gemini CLI 0.61 loads them
 * (`loadConversationRecord`, packages/core/src/services/chatRecordingService.ts): a line with
 * `sessionId` and `projectHash` is metadata (another one later, a resume's, merges into it);
 * `$set` merges metadata, and `$set.messages` replaces the whole list of messages; `$rewindTo`
 * drops the message it names and every one after it (all of them when none has that id); any
 * other line with an `id` is a message, and a message written again with the same id replaces
 * the earlier one where that one stood. A `$set.messages` that starts with a compression
 * (compression.ts) leaves the messages before it in the history, read as condensed by it, while
 * its summary is still loaded (a rewind to it or before it drops them with it).
 */
import { isObject, parseJsonOrUndefined, stringField, type JsonObject } from "../../../json.ts";
import type { LineProblem } from "../../types.ts";
import { compressionIn, keptPairs, type Compression } from "./compression.ts";

/** One message as Gemini keeps it, and the line its last version came from. */
export interface GeminiMessage {
  record: JsonObject;
  line: number;
}

/** One step of the history: a message, or the summary of a compression (what it condensed lies before it). */
export interface GeminiStep {
  message: GeminiMessage;
  compression: boolean;
}

export interface GeminiRecords {
  /** The metadata, merged in file order; `line` is the first metadata line's. */
  metadata: JsonObject;
  metadataLine: number | undefined;
  /** The messages Gemini would resume with, in order. */
  messages: GeminiMessage[];
  /**
   * The whole history, oldest first: the messages compressions condensed, each compression's
   * summary where it came, then the messages Gemini would resume with (its answers to a summary left out).
   */
  steps: GeminiStep[];
  problems: LineProblem[];
}

/**
 * The compressions read so far: their summaries' ids and texts, the ids of Gemini's answers to
 * them, and what each condensed (the steps no longer loaded once its list replaced them).
 */
class Compressions {
  private readonly answers = new Map<string, string>();
  private readonly answerIds = new Set<string>();
  /** Each summary's text, and the index in `condensed` of the compression it is (a copy shares its original's). */
  private readonly byText = new Map<string, number>();
  private readonly byId = new Map<string, number>();
  private readonly condensed: GeminiStep[][] = [];

  /** A new compression, and the steps it condensed. */
  add({ summaryId, ackId, summaryText }: Compression, condensed: GeminiStep[] = []): void {
    this.answers.set(summaryId, ackId);
    this.answerIds.add(ackId);
    const at = this.condensed.push(condensed) - 1;
    this.byText.set(summaryText, at);
    this.byId.set(summaryId, at);
  }

  /**
   * A compression whose messages were on their lines already: the same compression written again
   * under new ids (read as the one with its summary), or one never read as such, its messages
   * written one by one before their list (a session from before JSON Lines that Gemini resumed
   * copies each message into the new file first), which condensed nothing here.
   */
  addCopy(copy: Compression): void {
    const at = this.byText.get(copy.summaryText);
    if (at === undefined) {
      if (!this.answers.has(copy.summaryId)) this.add(copy);
      return;
    }
    this.answers.set(copy.summaryId, copy.ackId);
    this.answerIds.add(copy.ackId);
    this.byId.set(copy.summaryId, at);
  }

  /**
   * What the compressions up to the newest one still loaded condensed, oldest first. A rewind to a
   * summary or before it leaves that compression out of what Gemini loads, and with it everything
   * it condensed, as a rewind drops any message.
   */
  condensedSteps(loaded: readonly GeminiMessage[]): GeminiStep[] {
    let last = -1;
    for (const { record } of loaded) last = Math.max(last, this.byId.get(String(record.id)) ?? -1);
    return this.condensed.slice(0, last + 1).flat();
  }

  /** A list as steps: a summary is a compression, Gemini's answer to one is left out, and so is each of `skip`. */
  steps(list: readonly GeminiMessage[], skip: ReadonlySet<number> = new Set()): GeminiStep[] {
    return list.flatMap((message, index) => {
      const id = String(message.record.id);
      if (skip.has(index) || this.answerIds.has(id)) return [];
      return [{ message, compression: this.answers.has(id) }];
    });
  }
}

/** The steps of a list that stands alone (a session from before JSON Lines): a compression at its start is one. */
export function stepsOfList(list: readonly GeminiMessage[]): GeminiStep[] {
  const compressions = new Compressions();
  const found = compressionIn(
    list.map((m) => m.record),
    () => false,
  );
  if (found) compressions.add(found);
  return compressions.steps(list);
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
  const compressions = new Compressions();
  const replaceAll = (list: GeminiMessage[]) => {
    const found = compressionIn(
      list.map((m) => m.record),
      (id) => messages.has(id),
    );
    if (found) {
      const before = [...messages.values()];
      const keptFrom = list.length - found.kept.length;
      const pairs = keptPairs(
        before.map((m) => m.record),
        found.kept,
      );
      for (const [b, k] of pairs) {
        // A kept copy names no model; the message it copies does, and Session Facts list it.
        const old = before[b]?.record;
        const copy = list[keptFrom + k];
        if (copy && old && typeof old.model === "string" && copy.record.model === undefined)
          copy.record = { ...copy.record, model: old.model };
      }
      compressions.add(found, compressions.steps(before, new Set(pairs.map(([b]) => b))));
    } else {
      // A compression whose messages Gemini recorded one by one first (its `setHistory`, when it
      // only cut long results, records every message anew; a resumed older session is copied so).
      const copy = compressionIn(
        list.map((m) => m.record),
        () => false,
      );
      if (copy) compressions.addCopy(copy);
    }
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
  const current = [...messages.values()];
  return {
    metadata,
    metadataLine,
    messages: current,
    steps: [...compressions.condensedSteps(current), ...compressions.steps(current)],
    problems,
  };
}
