/** What a Claude Code transcript's first and last lines tell: its id, cwd, title and first prompt. */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { objectsOf, oneLine, requestTitle, textOf } from "../glance.ts";
import type { GlanceInput, SessionGlance } from "../types.ts";
import { HeaderFacts } from "./header.ts";
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
 * The session's id and cwd as the reader gathers them (every line repeats them), from the first
 * lines. A subagent's transcript (only side-chain lines) is not a session of its own.
 */
export function glanceClaudeCode({ head, tail, fileName }: GlanceInput): SessionGlance | undefined {
  const records = objectsOf(head);
  const facts = new HeaderFacts();
  let mainChain = false;
  let sideChain = false;
  for (const [i, record] of records.entries()) {
    facts.see(record, i + 1);
    if (typeof record.uuid !== "string") continue;
    if (record.isSidechain === true) sideChain = true;
    else mainChain = true;
  }
  if (sideChain && !mainChain) return undefined;
  const header = facts.build(fileName);
  if (header === undefined) return undefined;
  return { id: header.id, cwd: header.cwd, title: titleOf(objectsOf(tail)) ?? titleOf(records), firstRequest: firstRequest(records) };
}
