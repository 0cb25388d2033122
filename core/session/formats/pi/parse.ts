import { isObject, parseJsonOrUndefined, stringField, type JsonObject } from "../../../json.ts";
import { readLines, type LineCursor, type LineLimits, type RawLine, type SessionBytes } from "../../lines.ts";
import { looksBinary, notASession } from "../not-a-session.ts";
import { migrateRecords, type ParsedRecord } from "./migrate.ts";
import type { LineProblem, Session, SessionHeader, TitleSlot } from "../../types.ts";

/** Entry types only oh-my-pi writes; seeing one tells us the format. */
const OMP_ENTRY_TYPES = new Set([
  "title_change",
  "service_tier_change",
  "mode_change",
  "ttsr_injection",
  "session_init",
  "credential_pin",
  "reset_boundary",
]);

/** Entry types we understand; anything else is kept and ignored (with one warning per type). */
const KNOWN_ENTRY_TYPES = new Set([
  "message",
  "compaction",
  "branch_summary",
  "custom_message",
  "custom",
  "model_change",
  "thinking_level_change",
  "label",
  "session_info",
  ...OMP_ENTRY_TYPES,
]);

/**
 * Parses a whole `.jsonl` file, as text or as the bytes read from disk (UTF-8; bytes keep memory
 * near the file's size, see splitLines), and migrates it in memory to version 3.
 * Throws `NOT_A_SESSION` when the file cannot be a session; tolerates and reports malformed
 * lines elsewhere, so a file torn by a crash mid-write still loads.
 */
export function parseSession(input: string | SessionBytes, file = "session", limits: LineLimits = {}): Session {
  const lines = readLines(input, limits);
  try {
    return parseLines(lines, file);
  } finally {
    lines.close(); // stops reading chunks when the file was refused early
  }
}

function parseLines(lines: LineCursor, file: string): Session {
  let first = lines.next();
  if (first === undefined) throw notASession(file, "the file is empty");

  const titleSlot = readTitleSlot(first);
  if (titleSlot) {
    first = lines.next();
    if (first === undefined) throw notASession(file, "it has a title line but no session header");
  }
  const header = readHeader(first, file, lines);
  const versionFound = typeof header.raw.version === "number" ? header.raw.version : undefined;
  const version: 1 | 2 | 3 = versionFound === undefined || versionFound <= 1 ? 1 : versionFound === 2 ? 2 : 3;

  // An unknown version is not an unusable line: the header is read. It is said once, as a
  // notice (unknownLayoutNotice), and nothing is recorded into such a file.
  const problems: LineProblem[] = [];
  const records: ParsedRecord[] = [];
  let last = first;
  for (let raw = lines.next(); raw !== undefined; raw = lines.next()) {
    last = raw;
    const record = parseRecord(raw);
    if (typeof record === "string") problems.push({ line: raw.line, reason: record });
    else records.push(record);
  }

  const migrated = migrateRecords(records, version);
  // Not push(...list): a file with a million id-less lines would overflow the call stack.
  for (const problem of migrated.problems) problems.push(problem);
  problems.sort((a, b) => a.line - b.line);

  // One pass for both: whether omp wrote it (its title line, or an entry only omp writes) and
  // the types we do not know. Not the session id's UUID version: pi 0.73.1 writes v7 ids as omp does.
  const unknownTypes = new Set<string>();
  let omp = titleSlot !== undefined;
  for (const entry of migrated.entries) {
    const type = entry.type;
    if (type === "message") continue; // most entries: known, and written by both
    if (!KNOWN_ENTRY_TYPES.has(type)) unknownTypes.add(type);
    if (!omp && isOmpOnly(type, entry.data)) omp = true;
  }

  return {
    format: omp ? "omp" : "pi",
    titleSlot,
    header,
    versionFound,
    version,
    entries: migrated.entries,
    malformedLines: skippedLines(problems, header.line, migrated.entries),
    problems,
    unknownTypes: [...unknownTypes],
    missingFinalNewline: !last.ended,
  };
}

/**
 * The lines that did not become the header or an entry. A problem on a line that was used (an
 * unknown version, a v1 compaction pointing nowhere) is a warning, not a skipped line.
 */
function skippedLines(problems: readonly LineProblem[], headerLine: number, entries: readonly { line: number }[]): number[] {
  if (problems.length === 0) return [];
  const used = new Set(entries.map((e) => e.line)).add(headerLine);
  return [...new Set(problems.map((p) => p.line).filter((line) => !used.has(line)))];
}

function readTitleSlot(raw: RawLine): TitleSlot | undefined {
  return raw.line === 1 ? titleSlotOf(raw.text) : undefined;
}

/** omp's title line, if `text` is one (it counts only as a file's first line). */
export function titleSlotOf(text: string): TitleSlot | undefined {
  if (!text.includes('"title"')) return undefined;
  const value = parseJsonOrUndefined(text);
  if (!isObject(value) || value.type !== "title" || value.v !== 1) return undefined;
  const title = stringField(value, "title");
  const updatedAt = stringField(value, "updatedAt");
  if (title === undefined || updatedAt === undefined || stringField(value, "pad") === undefined) return undefined;
  const source = stringField(value, "source");
  return source === undefined ? { title, updatedAt } : { title, updatedAt, source };
}

function readHeader(raw: RawLine, file: string, rest: LineCursor): SessionHeader {
  const value = parseJsonOrUndefined(raw.text);
  if (value === undefined) {
    // Binary data, or broken JSON? The next line helps tell (see looksBinary).
    const next = rest.next();
    const binary = looksBinary([raw.text, next === undefined ? "" : next.text]);
    throw notASession(file, binary ? "it looks like binary data" : "the line is not JSON", raw.line);
  }
  if (!isObject(value) || value.type !== "session") {
    throw notASession(file, `the first record is not a session header (expected {"type":"session","id":…})`, raw.line);
  }
  const id = stringField(value, "id");
  if (id === undefined || id === "") throw notASession(file, `the header has no string "id"`, raw.line);
  return {
    id,
    cwd: stringField(value, "cwd"),
    timestamp: stringField(value, "timestamp"),
    parentSession: stringField(value, "parentSession"),
    line: raw.line,
    raw: value,
  };
}

/** A record that looks like an entry, or the reason it does not. */
function parseRecord(raw: RawLine): ParsedRecord | string {
  if (raw.unusable) return raw.unusable;
  let value: unknown;
  try {
    value = JSON.parse(raw.text);
  } catch {
    return "not valid JSON (a torn or hand-edited line?)";
  }
  // isObject, written out: a call per line shows when the read runs interpreted.
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const type = (value as JsonObject).type;
  if (typeof type !== "string" || type === "") return 'no string "type"';
  if (type === "session") return "a second session header";
  return { line: raw.line, type, data: value as JsonObject };
}

/**
 * An entry only omp writes: one of its own types, or a model_change naming the model only as
 * omp does (`model: "provider/id"`). One that also names it as pi does (`modelId`) is what we
 * write for both agents, which says nothing of either.
 */
export function isOmpOnly(type: string, data: JsonObject): boolean {
  return OMP_ENTRY_TYPES.has(type) || (type === "model_change" && typeof data.model === "string" && data.modelId === undefined);
}
