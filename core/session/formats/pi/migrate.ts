import type { JsonObject } from "../../../json.ts";
import type { Entry, LineProblem } from "../../types.ts";

/** A line that parsed as a JSON object with a string `type`, before migration. */
export interface ParsedRecord {
  line: number;
  type: string;
  data: JsonObject;
}

/** The id a version-1 entry gets: its position among the file's entries, as 8 hex digits. */
export function v1EntryId(position: number): string {
  const hex = position.toString(16);
  // Not padStart: it cost a thousand-entry file's read a fifth of a millisecond, run cold.
  return hex.length >= 8 ? hex : ZEROS.slice(hex.length) + hex;
}

const ZEROS = "00000000";

/**
 * Brings records of any version to version 3, in place and in memory:
 * - v1 → v2: entries get ids (deterministic, so two reads of a file agree) chained in file
 *   order, and a compaction's `firstKeptEntryIndex` (an index into the file's records, header
 *   at 0) becomes `firstKeptEntryId`.
 * - v2 → v3: the message role `hookMessage` is renamed `custom`.
 * Records that cannot be entries are reported, not thrown. Plain loops, one pass: this runs over
 * every line of the file, mostly before the code is compiled.
 */
export function migrateRecords(records: readonly ParsedRecord[], version: 1 | 2 | 3): { entries: Entry[]; problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  const entries: Entry[] = [];
  if (version === 1) {
    let previous: string | null = null;
    const compactions: Entry[] = [];
    for (const record of records) {
      const id = v1EntryId(entries.length + 1);
      const parentId = previous;
      record.data.id = id;
      record.data.parentId = parentId;
      previous = id;
      const entry = { type: record.type, id, parentId, line: record.line, data: record.data };
      entries.push(entry);
      if (entry.type === "compaction") compactions.push(entry);
    }
    renameHookMessages(entries);
    for (const entry of compactions) {
      const index = entry.data.firstKeptEntryIndex;
      const kept = typeof index === "number" && Number.isInteger(index) && index >= 1 ? entries[index - 1] : undefined;
      if (kept) entry.data.firstKeptEntryId = kept.id;
      else problems.push({ line: entry.line, reason: `compaction's firstKeptEntryIndex ${String(index)} points at no entry` });
    }
    return { entries, problems };
  }
  for (const record of records) {
    const id = record.data.id;
    if (typeof id !== "string" || id === "") {
      problems.push({ line: record.line, reason: 'entry has no string "id"' });
      continue;
    }
    const parent = record.data.parentId;
    if (parent !== null && typeof parent !== "string") {
      problems.push({ line: record.line, reason: 'entry has no "parentId" (string or null)' });
      continue;
    }
    entries.push({ type: record.type, id, parentId: parent, line: record.line, data: record.data });
  }
  renameHookMessages(entries);
  return { entries, problems };
}

/**
 * v2 → v3: a message's role `hookMessage` is `custom`. One loop and no call per entry: calls
 * are what a loop pays most for when it runs interpreted (~0.2 ms over the 1 MB session). A
 * `message` that is an array has no `role`, so no check for one is needed.
 */
function renameHookMessages(entries: readonly Entry[]): void {
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message = entry.data.message;
    if (typeof message === "object" && message !== null && (message as JsonObject).role === "hookMessage")
      (message as JsonObject).role = "custom";
  }
}
