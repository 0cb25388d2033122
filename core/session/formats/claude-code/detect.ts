import { isObject, type JsonObject } from "../../../json.ts";

/** Bookkeeping lines only Claude Code writes; a file may start with several of them. */
const BOOKKEEPING_TYPES = new Set([
  "queue-operation",
  "last-prompt",
  "file-history-snapshot",
  "custom-title",
  "ai-title",
  "tag",
  "mode",
  "cost-state",
  "atis-latch",
  "tools-used",
]);

function isClaudeCodeLine(value: JsonObject): boolean {
  const type = value.type;
  if (typeof type !== "string") return false;
  // A conversation line: pi's and Codex's lines never have type `user`/`assistant` with a `message` object.
  if ((type === "user" || type === "assistant") && isObject(value.message)) return true;
  if (
    typeof value.sessionId === "string" &&
    (typeof value.uuid === "string" || BOOKKEEPING_TYPES.has(type) || type.startsWith("api-request"))
  )
    return true;
  // Older versions start files with titles for the session picker.
  return type === "summary" && typeof value.leafUuid === "string";
}

/**
 * Another format's first record: pi's header, Codex's `{timestamp, type, payload}`, Gemini CLI's
 * metadata (`sessionId` as Claude Code's lines have it, with `projectHash`, which no Claude Code
 * line has). Detection and the glance both stop at one.
 */
export function isOtherFormatsRecord(value: JsonObject): boolean {
  return value.type === "session" || "payload" in value || "projectHash" in value;
}

/**
 * Whether a file's first lines are Claude Code's: one of them (torn or foreign lines aside) is
 * a conversation line or a bookkeeping line of Claude Code's shape. The first lines are often
 * bookkeeping (`queue-operation`, `file-history-snapshot`), so no single line decides.
 */
export function detectClaudeCode(head: readonly string[]): boolean {
  for (const text of head) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(value)) continue;
    if (isOtherFormatsRecord(value)) return false;
    if (isClaudeCodeLine(value)) return true;
  }
  return false;
}
