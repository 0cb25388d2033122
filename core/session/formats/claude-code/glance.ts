/** What a Claude Code transcript's first and last lines tell: its id, cwd, title and first prompt. */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { objectsOf, oneLine, requestTitle, textOf } from "../glance.ts";
import type { GlanceInput, SessionGlance } from "../types.ts";
import { isOtherFormatsRecord } from "./detect.ts";
import { HeaderFacts } from "./header.ts";
import { claudeProjectFolderName, idOfSessionFileName } from "./location.ts";
import { classifyUserText } from "./user-text.ts";

/**
 * The title Claude Code 2.1.328 shows, newest line of each kind winning: one the user gave
 * (`custom-title`), else one it generated (`ai-title`), else an older version's `summary`.
 * Claude Code writes them again at the end of the file as it goes, so the tail holds them.
 */
function titleOf(records: readonly JsonObject[]): string | undefined {
  for (const [type, field] of [
    ["custom-title", "customTitle"],
    ["ai-title", "aiTitle"],
    ["summary", "summary"],
  ] as const) {
    for (let i = records.length - 1; i >= 0; i--) {
      const record = records[i];
      const value = record?.type === type ? stringField(record, field) : undefined;
      if (value !== undefined && value.trim() !== "") return oneLine(value);
    }
  }
  return undefined;
}

/** The first words of the user's on the main chain: a prompt, or a slash command as typed. */
function firstRequest(records: readonly JsonObject[]): string | undefined {
  for (const record of records) {
    if (
      record.type !== "user" ||
      record.isSidechain === true ||
      record.isMeta === true ||
      record.isCompactSummary === true ||
      !isObject(record.message)
    )
      continue;
    const text = textOf(record.message.content);
    if (text === "") continue;
    const kind = classifyUserText(text);
    if (kind.kind === "prompt") return requestTitle(text);
    if (kind.kind === "command") return oneLine(kind.typed);
  }
  return undefined;
}

/**
 * The cwd of a main-chain line among `records` whose project folder is `folderName`: the folder
 * a session lies in, read from its last lines when its first ones cannot tell (a first line too
 * long to read). Only a cwd that encodes to the folder's own name is taken, so a `cd` later in
 * the session, or a file moved to another project's folder, names no folder it was not in.
 */
function cwdOfFolder(records: readonly JsonObject[], folderName: string): string | undefined {
  for (const record of records) {
    if (typeof record.uuid !== "string" || record.isSidechain === true) continue;
    const cwd = stringField(record, "cwd");
    if (cwd !== undefined && claudeProjectFolderName(cwd) === folderName) return cwd;
  }
  return undefined;
}

/** Whether the records are a subagent's transcript: side-chain lines only. */
function onlySideChain(records: readonly JsonObject[]): boolean {
  const chained = records.filter((record) => typeof record.uuid === "string");
  return chained.length > 0 && chained.every((record) => record.isSidechain === true);
}

/**
 * The session's id and cwd as the reader gathers them (every line repeats them), from the first
 * lines; when there are none (the first line was too long to read), from the last lines,
 * as far as the project folder's name confirms it. A subagent's transcript (only side-chain
 * lines) is not a session of its own.
 */
export function glanceClaudeCode({ head, tail, fileName, folderName }: GlanceInput): SessionGlance | undefined {
  const records = objectsOf(head);
  if (records[0] !== undefined && isOtherFormatsRecord(records[0])) return undefined;
  const facts = new HeaderFacts();
  for (const [i, record] of records.entries()) facts.see(record, i + 1);
  if (onlySideChain(records)) return undefined;
  const tailRecords = objectsOf(tail);
  const header = facts.build(fileName);
  // No first lines at all: the first was given up on (too long to read), and only the last can say where the session lies.
  const cwd = head.length > 0 || folderName === undefined ? header?.cwd : cwdOfFolder(tailRecords, folderName);
  // Claude Code resumes by the file's name; the lines' sessionId can be a parent's (a fork starts with copied lines).
  const id = idOfSessionFileName(fileName) ?? header?.id;
  if (header === undefined && (cwd === undefined || id === undefined || onlySideChain(tailRecords))) return undefined;
  if (id === undefined) return undefined;
  return { id, cwd, title: titleOf(tailRecords) ?? titleOf(records), firstRequest: firstRequest(records) };
}
