/** What a pi or omp session's first and last lines tell (the two share one layout). */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { objectsOf, oneLine, requestTitle, textOf } from "../glance.ts";
import type { GlanceInput, SessionGlance } from "../types.ts";
import { titleSlotOf } from "./parse.ts";

/** The newest non-empty string `field` of the entries of `type`, newest last in `records`. */
function newest(records: readonly JsonObject[], type: string, field: string): string | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record?.type !== type) continue;
    const value = stringField(record, field)?.trim();
    // pi clears a name with an empty one: the newest says, whatever it says.
    return value === "" ? undefined : value;
  }
  return undefined;
}

/**
 * The first thing the user asked: the first user message; in a session that opens with a
 * handoff document (ours), the document stands for it.
 */
function firstRequest(records: readonly JsonObject[]): string | undefined {
  for (const record of records) {
    if (record.type === "message" && isObject(record.message) && record.message.role === "user") {
      const title = requestTitle(textOf(record.message.content));
      if (title !== undefined) return title;
    }
    if (record.type === "custom_message" && record.customType === "handoff") return requestTitle(textOf(record.content));
  }
  return undefined;
}

/**
 * The header (after omp's title line, if any) gives the id and cwd; the title is the newest
 * name the user gave (pi's `session_info`), else omp's title (its `title_change` entries, the
 * title line, the header's own).
 */
export function glancePiFamily({ head, tail }: GlanceInput): SessionGlance | undefined {
  const slot = head[0] === undefined ? undefined : titleSlotOf(head[0]);
  const records = objectsOf(slot ? head.slice(1) : head);
  const header = records[0];
  if (header?.type !== "session") return undefined;
  const id = stringField(header, "id");
  if (id === undefined || id === "") return undefined;
  const ends = objectsOf(tail);
  const title =
    newest(ends, "session_info", "name") ?? newest(ends, "title_change", "title") ?? slot?.title ?? stringField(header, "title");
  return {
    id,
    cwd: stringField(header, "cwd"),
    title: title === undefined ? undefined : oneLine(title),
    firstRequest: firstRequest(records.slice(1)),
  };
}
