/**
 * Gemini CLI's compression (`/compress`, or on its own past `model.compressionThreshold`), as
 * 0.61.0 records it (`tryCompressChat` and `ChatCompressionService` in packages/core): it asks
 * the model for a `<state_snapshot>` of the older part of the history, then starts its chat again
 * from [its context, the summary as a user message, the answer below as Gemini's, the newer
 * part], and writes that list once as `$set.messages`. The summary and the answer get new ids,
 * and so does every kept message (Gemini makes new messages of them, with their parts and no
 * model, thoughts or tool calls of their own); the older messages stay in the file above, no
 * longer loaded. On resume Gemini sends that list as it stands; nothing else marks it.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { isIgnoredUserText, modelBlocks, partsOf, textOfParts, userBlocks } from "./messages.ts";

/** The answer Gemini puts after the summary, word for word (`chatCompressionService.ts`). */
export const COMPRESSION_ACK = "Got it. Thanks for the additional context!";

export interface Compression {
  summaryId: string;
  ackId: string;
  /** The summary's words. */
  summaryText: string;
  /** The messages after the answer: the newer part of the history, kept. */
  kept: JsonObject[];
}

/**
 * Gemini's answer to a summary: its words alone, in a message Gemini made itself, which names no
 * model (a new message of a history turn; recorded anew by `setHistory`, it gets empty thoughts
 * and null tokens, still no model). A model that says those words itself is recorded with its
 * model's name, and its turn is no compression, even when a resume writes it again under ids not
 * loaded at that moment.
 */
function isAck(record: JsonObject | undefined): boolean {
  if (record?.type !== "gemini" || record.model !== undefined) return false;
  const parts = partsOf(record.content);
  return parts.length === 1 && textOfParts(parts) === COMPRESSION_ACK;
}

/**
 * The compression a list of messages starts with (after Gemini's own context), or `undefined`.
 * `isKnown` says whether an id is already among the messages: a list written again on a later
 * start or resume holds the same summary under the same id, and is no new compression.
 */
export function compressionIn(list: readonly JsonObject[], isKnown: (id: string) => boolean): Compression | undefined {
  let at = 0;
  while (at < list.length && list[at]?.type === "user" && isIgnoredUserText(textOfParts(partsOf(list[at]?.content)))) at++;
  const summary = list[at];
  const ack = list[at + 1];
  if (summary?.type !== "user" || !isAck(ack)) return undefined;
  const summaryId = stringField(summary, "id");
  const ackId = ack && stringField(ack, "id");
  if (summaryId === undefined || ackId === undefined || isKnown(summaryId)) return undefined;
  if (userBlocks(partsOf(summary.content)).content.length === 0) return undefined;
  return { summaryId, ackId, summaryText: textOfParts(partsOf(summary.content)), kept: list.slice(at + 2) };
}

/**
 * What a message says, in a form both of its copies share: its words and the ids of its calls,
 * and (a user message) of the results it carries. A kept copy has new ids, its parts gathered
 * into `content` and no tool calls beside it, so only this is compared.
 */
function said(record: JsonObject): string[] {
  if (record.type === "gemini") {
    return modelBlocks(record).content.flatMap((b) => (b.type === "text" ? [`t${b.text}`] : b.type === "toolCall" ? [`c${b.id}`] : []));
  }
  // Part by part, in order: a copy that joins two messages holds their parts one after the other.
  return partsOf(record.content).flatMap((part) =>
    isObject(part.functionResponse)
      ? [`r${stringField(part.functionResponse, "id") ?? ""}`]
      : typeof part.text === "string" && part.thought !== true
        ? [`t${part.text}`]
        : [],
  );
}

/**
 * Whether Gemini sends a message it recorded (`convertSessionToClientHistory`): not its own notes
 * (`info`, `warning`, `error`: a /compress's result, a /model's), nor a user text it leaves out
 * (its context, a command), nor an answer with no words or calls. Only the messages it sends can
 * have kept copies.
 */
function isSent(record: JsonObject): boolean {
  // A turn of thoughts alone leaves nothing once Gemini strips thoughts from the curated history.
  if (record.type === "gemini") return said(record).length > 0;
  if (record.type !== "user") return false;
  const parts = partsOf(record.content);
  return userBlocks(parts).results.length > 0 || !isIgnoredUserText(textOfParts(parts));
}

const sameItems = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The messages of the list before the compression that it kept, paired with their copies from
 * the end back (`[index before, index kept]`), as far as the two say the same. A copy may join
 * consecutive messages of one role (Gemini's curated history does: after a resume a call's
 * result stands twice, as `<id>_response` and as Gemini's record of it), so each of those is
 * paired with it. A message Gemini never sent (its own notes) has no copy and is stepped over.
 * Those paired are read once, as kept; a copy Gemini cut or changed otherwise ends the pairing,
 * and what lies before it is read as condensed.
 */
export function keptPairs(before: readonly JsonObject[], kept: readonly JsonObject[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let b = before.length - 1;
  for (let k = kept.length - 1; k >= 0 && b >= 0; k--) {
    // What Gemini never sent has no copy: the pairing goes past it (read as condensed, where it says nothing).
    while (b >= 0) {
      const old = before[b];
      if (!isObject(old) || isSent(old)) break;
      b--;
    }
    const copy = kept[k];
    if (!isObject(copy)) break;
    const wanted = said(copy);
    // The originals the copy joins, last first, while together they say no more than it.
    let joined: string[] = [];
    let from = b;
    while (from >= 0) {
      const old = before[from];
      if (!isObject(old)) break;
      if (joined.length > 0 && !isSent(old)) {
        from--;
        continue;
      }
      if (old.type !== copy.type) break;
      const next = [...said(old), ...joined];
      if (next.length > wanted.length || !sameItems(next, wanted.slice(wanted.length - next.length))) break;
      joined = next;
      from--;
      if (joined.length === wanted.length) break;
    }
    if (from === b || !sameItems(joined, wanted)) break;
    for (let i = b; i > from; i--) pairs.push([i, k]);
    b = from;
  }
  return pairs;
}
