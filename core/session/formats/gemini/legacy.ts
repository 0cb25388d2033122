/**
 * Gemini CLI's sessions from before JSON Lines: `session-<time>-<id8>.json`, one JSON object
 * (`sessionId`, `projectHash`, `startTime`, `lastUpdated`, `messages`, later `summary`), written
 * whole by `JSON.stringify(record, null, 2)`. Gemini CLI 0.61.0 still lists and resumes them (read
 * in its package, `loadConversationRecord`): when no line of a file is a metadata record, it
 * parses the whole file (`parseLegacyRecordFallback`) and takes any object with a `sessionId`
 * key, its `messages` as they stand (no id is needed, none replaces another), and rebuilds the
 * history from them as from a JSONL file's. Resuming one, it copies the session into a file of
 * the same name ending `.jsonl` (the metadata, then each message on a line) and goes on there;
 * the `.json` file is left as it was.
 */
import { isObject, parseJsonOrUndefined, stringField, type JsonObject } from "../../../json.ts";
import { isIgnoredUserText, partsOf, textOfParts } from "./messages.ts";

export interface LegacyRecord {
  /** Everything but the messages. */
  metadata: JsonObject;
  messages: JsonObject[];
}

/** The record a whole `.json` file holds, as Gemini reads it; undefined when Gemini would not take it for a session. */
export function legacyRecord(text: string): LegacyRecord | undefined {
  const value = parseJsonOrUndefined(text);
  if (!isObject(value) || !("sessionId" in value)) return undefined;
  const { messages, ...metadata } = value;
  // Gemini counts them with `messages?.filter(…)`: no list is no messages, anything else fails its read.
  if (messages !== undefined && !Array.isArray(messages)) return undefined;
  return { metadata, messages: (messages ?? []).filter(isObject) };
}

/**
 * Whether a message gives Gemini something to resume (`isResumableMessageRecord`): a user's
 * words that are no command or context, or an answer with text, calls or thoughts.
 */
export function isResumable(record: JsonObject): boolean {
  const text = textOfParts(partsOf(record.content)).trim();
  if (record.type === "user") return !isIgnoredUserText(text);
  if (record.type !== "gemini") return false;
  const many = (field: unknown) => Array.isArray(field) && field.length > 0;
  return text !== "" || many(record.toolCalls) || many(record.thoughts);
}

/** A top-level field as `JSON.stringify(…, null, 2)` puts it on its own line: `  "<name>": <value>,`. */
function topLevelField(lines: readonly string[], name: string): unknown {
  const prefix = `  "${name}": `;
  for (const line of lines) {
    if (!line.startsWith(prefix)) continue;
    return parseJsonOrUndefined(line.slice(prefix.length).replace(/,$/, ""));
  }
  return undefined;
}

/** Whether a file's first lines open one of these records: `{`, then its `"sessionId"` on a line of its own, or the whole object on one line. */
export function isLegacyHead(head: readonly string[]): boolean {
  const [first, ...rest] = head;
  if (first === undefined) return false;
  if (first.trim() === "{") return typeof topLevelField(rest, "sessionId") === "string";
  return first.trimStart().startsWith("{") && first.includes('"sessionId"') && legacyRecord(first) !== undefined;
}

/** What a record's first and last lines tell: its id, kind and summary, and its first request when the head holds it. */
export interface LegacyGlance {
  id: string | undefined;
  kind: unknown;
  summary: unknown;
  /** The first message Gemini would resume with a user's words, if the head reaches it. */
  firstRequest: string | undefined;
  /** Whether the lines read show something to resume. */
  resumable: boolean;
}

/** The first and last lines of a `.json` session (the whole file, when it is small). */
export function glanceLegacy(head: readonly string[], tail: readonly string[]): LegacyGlance | undefined {
  if (!isLegacyHead(head)) return undefined;
  const whole = legacyRecord(head.join("\n"));
  if (whole !== undefined) {
    const asked = whole.messages.find((m) => m.type === "user" && isResumable(m));
    return {
      id: stringField(whole.metadata, "sessionId"),
      kind: whole.metadata.kind,
      summary: whole.metadata.summary,
      firstRequest: asked === undefined ? undefined : textOfParts(partsOf(asked.content)),
      resumable: whole.messages.some(isResumable),
    };
  }
  // A larger file, read at its ends: its top-level fields have lines of their own; the first request is a message's.
  // One that does not close (a torn write) is no JSON Gemini could parse.
  if (tail.at(-1)?.trim() !== "}") return undefined;
  const firstRequest = firstUserText(head);
  const id = topLevelField(head, "sessionId");
  return {
    id: typeof id === "string" ? id : undefined,
    kind: topLevelField(head, "kind") ?? topLevelField(tail, "kind"),
    summary: topLevelField(tail, "summary"),
    firstRequest,
    // Its messages are not all read: one that starts is taken to hold content, as a session of this size does.
    resumable: firstRequest !== undefined || head.some((line) => line.startsWith('      "type": "gemini"')),
  };
}

/**
 * The first user message's words among pretty-printed messages (`    {` at four spaces, its
 * fields at six): its `"content"` a string on its line, or its parts' `"text"` lines.
 */
function firstUserText(head: readonly string[]): string | undefined {
  let inUser = false;
  let texts: string[] = [];
  const done = () => {
    const text = texts.join("");
    return inUser && !isIgnoredUserText(text.trim()) ? text : undefined;
  };
  for (const line of head) {
    if (line === "    {" || line === "    }," || line === "    }") {
      const found = done();
      if (found !== undefined) return found;
      inUser = false;
      texts = [];
    } else if (line === '      "type": "user",') inUser = true;
    else if (line.startsWith('      "content": "')) texts.push(String(parseJsonOrUndefined(line.slice(17).replace(/,$/, "")) ?? ""));
    else if (/^ {10}"text": "/.test(line)) texts.push(String(parseJsonOrUndefined(line.slice(18).replace(/,$/, "")) ?? ""));
  }
  return undefined;
}
