import { readObjectMembers, type ObjectSpan } from "./json-members.ts";
import type { RawLine } from "../../lines.ts";
import type { Entry, Session } from "../../types.ts";

/** A replacement of `text[start, end)`; an insertion when `start === end`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/**
 * Gives each key its new JSON value: every member so named gets it in place; a key with no
 * member is added right after the `type` member (where the agents write ids), else first.
 */
function setMembers(object: ObjectSpan, values: readonly [string, string][]): Edit[] {
  const edits: Edit[] = [];
  const missing: string[] = [];
  for (const [key, json] of values) {
    const found = object.members.filter((m) => m.key === key);
    if (found.length === 0) missing.push(`${JSON.stringify(key)}:${json}`);
    for (const member of found) edits.push({ start: member.valueStart, end: member.valueEnd, text: json });
  }
  if (missing.length === 0) return edits;
  const type = object.members.findLast((m) => m.key === "type");
  if (type) edits.push({ start: type.valueEnd, end: type.valueEnd, text: `,${missing.join(",")}` });
  else edits.push({ start: object.open + 1, end: object.open + 1, text: `${missing.join(",")}${object.members.length > 0 ? "," : ""}` });
  return edits;
}

/**
 * Version 1 compactions point at the entry they keep from by index, version 3 by id: the id
 * goes right after the index, which stays (it is the file's own data, and readers of version 3
 * ignore it).
 */
function firstKeptEdits(object: ObjectSpan, entry: Entry): Edit[] {
  const id = entry.data.firstKeptEntryId;
  if (entry.type !== "compaction" || typeof id !== "string") return [];
  const json = JSON.stringify(id);
  const ids = object.members.filter((m) => m.key === "firstKeptEntryId");
  if (ids.length > 0) return ids.map((m) => ({ start: m.valueStart, end: m.valueEnd, text: json }));
  const index = object.members.findLast((m) => m.key === "firstKeptEntryIndex");
  if (index) return [{ start: index.valueEnd, end: index.valueEnd, text: `,"firstKeptEntryId":${json}` }];
  return setMembers(object, [["firstKeptEntryId", json]]);
}

/** Version 2 called the custom message role `hookMessage`. */
function roleEdits(text: string, object: ObjectSpan, entry: Entry): Edit[] | undefined {
  if (entry.type !== "message") return [];
  const edits: Edit[] = [];
  for (const member of object.members) {
    if (member.key !== "message" || text[member.valueStart] !== "{") continue;
    const message = readObjectMembers(text, member.valueStart);
    if (!message) return undefined;
    for (const role of message.members) {
      if (role.key === "role" && text.slice(role.valueStart, role.valueEnd) === '"hookMessage"')
        edits.push({ start: role.valueStart, end: role.valueEnd, text: '"custom"' });
    }
  }
  return edits;
}

/** The decoded string value of the last member called `key`, if it is a string. */
function stringMember(text: string, object: ObjectSpan, key: string): string | undefined {
  const member = object.members.findLast((m) => m.key === key);
  if (!member || text[member.valueStart] !== '"') return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(member.valueStart, member.valueEnd));
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One entry's line as version 3 writes it, every byte not migration's own kept; `undefined` when
 * the line is not that entry (the file changed since it was read) or cannot be read.
 */
function upgradeEntryLine(text: string, entry: Entry, version: 1 | 2): string | undefined {
  const object = readObjectMembers(text);
  if (!object || stringMember(text, object, "type") !== entry.type) return undefined;
  if (version === 2 && stringMember(text, object, "id") !== entry.id) return undefined;
  const roles = roleEdits(text, object, entry);
  if (!roles) return undefined;
  if (version === 2) return applyEdits(text, roles);
  const ids = setMembers(object, [
    ["id", JSON.stringify(entry.id)],
    ["parentId", JSON.stringify(entry.parentId)],
  ]);
  return applyEdits(text, [...ids, ...firstKeptEdits(object, entry), ...roles]);
}

/** A line as the file had it around `text`: its byte-order mark and its line end; a last line without one gets a `\n`, so that what is appended starts a line. */
function asWritten(raw: RawLine, text: string): string {
  return `${raw.bom ?? ""}${text}${raw.eol}${raw.ended ? "" : "\n"}`;
}

/**
 * Writes a version 1 or 2 session as version 3 through `write`, line by line, from its file's
 * lines (`lines`, read again with `splitLines(…, { exact: true })`: the parsed session keeps no
 * text, so an old file costs no more memory to load than a new one, and the rewrite is never
 * one string). Only what migration must change is changed (the header's `version`; v1 entries'
 * `id` and `parentId`, a v1 compaction's `firstKeptEntryId` beside its `firstKeptEntryIndex`;
 * the `hookMessage` role → `custom`), and a missing final line break is added. Every other byte
 * stays: line ends (`\r\n` too), a byte-order mark, blank lines, numbers past 2^53, `1.0`, `1e5`,
 * `\u` escapes, key order, and values nested too deep to serialise again. Stops at the first
 * line that is not what was parsed there (the file changed since) and returns it; what was
 * written before is then to be thrown away.
 */
export function upgradeToVersion3(
  session: Session,
  lines: Iterable<RawLine>,
  write: (text: string) => void,
): { mismatchedLine: number } | undefined {
  if (session.version === 3) throw new Error("upgradeToVersion3: the session is version 3 already");
  let next = 0;
  let headerSeen = false;
  for (const raw of lines) {
    // A line not kept whole cannot be written back as it was.
    if (raw.unusable) return { mismatchedLine: raw.line };
    // Blank lines are no entry (the parser skips them) and stay as they are.
    if (raw.text.trim() === "") {
      write(asWritten(raw, raw.text));
      continue;
    }
    if (raw.line === session.header.line) {
      const header = readObjectMembers(raw.text);
      if (!header || stringMember(raw.text, header, "id") !== session.header.id) return { mismatchedLine: raw.line };
      write(asWritten(raw, applyEdits(raw.text, setMembers(header, [["version", "3"]]))));
      headerSeen = true;
      continue;
    }
    const entry = session.entries[next];
    const line = entry?.line === raw.line && headerSeen ? upgradeEntryLine(raw.text, entry, session.version) : undefined;
    if (line === undefined) return { mismatchedLine: raw.line };
    write(asWritten(raw, line));
    next++;
  }
  if (!headerSeen || next < session.entries.length) return { mismatchedLine: session.entries[next]?.line ?? session.header.line };
  return undefined;
}
