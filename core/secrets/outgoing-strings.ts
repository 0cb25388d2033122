import { isObject } from "../json.ts";
import { chatToolName } from "../llm/messages.ts";
import type { ChatContentPart, ChatMessage, ChatRequest } from "../llm/types.ts";
import type { AssistantBlock, ContextMessage, UserBlock } from "../session/messages.ts";
import { secretKeyKind } from "./redact-assignments.ts";

/**
 * Every string a context or a request can carry out of the machine, by what it is, so a rule
 * about secrets is applied to each where it is (structured data stays structured).
 */
export interface TextMap {
  /** Free text: messages, reasoning, tool output, summaries, names, image types. */
  text(text: string): string;
  /** A string value in structured data (tool-call arguments), under `key` when in an object. */
  assigned(key: string | undefined, value: string): string;
  /** Strings that are not text to scan (ids, the model name, image data): still checked for withheld strings. */
  opaque(text: string): string;
  /**
   * True only when every string and number the JSON text `json` holds, and the text itself, would
   * come back as they are: tool-call arguments need not be parsed and walked. Optional (a map
   * without it parses them all).
   */
  keepsJson?(json: string): boolean;
}

/**
 * Structured data (JSON values) with every string, keys included, and every number passed
 * through `map`, each value with the key it is under. A key that names a secret (`password`,
 * `api_key`) makes everything under it that secret, whatever its type and depth: the items of
 * its array and the values of its object are all under that key (`{"secret": {"value": …}}`).
 * What `map` leaves as it was is returned as it was (the same array or object), not copied.
 */
export function mapJsonStrings(value: unknown, map: TextMap, key?: string): unknown {
  if (typeof value === "string") return map.assigned(key, value);
  if (typeof value === "number") {
    // A number stays a number unless the rule replaced it (a PIN under `password`).
    const text = String(value);
    const mapped = map.assigned(key, text);
    return mapped === text ? value : mapped;
  }
  if (Array.isArray(value)) return sameOrMapped(value, (item) => mapJsonStrings(item, map, key));
  if (!isObject(value)) return value;
  const secretKey = key !== undefined && secretKeyKind(key) !== undefined ? key : undefined;
  // The entries are copied only from the first that changed: most objects keep all of theirs.
  let entries: [string, unknown][] | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const item = value[k];
    const name = map.text(k);
    const inner = mapJsonStrings(item, map, secretKey ?? k);
    if (entries === undefined && (name !== k || inner !== item)) entries = keys.slice(0, i).map((kept) => [kept, value[kept]]);
    entries?.push([name, inner]);
  }
  // fromEntries defines own properties: a `__proto__` key stays a key.
  return entries === undefined ? value : Object.fromEntries(entries);
}

/**
 * `items.map(map)`, or `items` itself when `map` gave back every item as it was. Most of a
 * context holds no secret: the guard's passes then copy nothing but the list of messages.
 */
function sameOrMapped<T>(items: readonly T[], map: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const mapped = map(item);
    if (mapped !== item && out === undefined) out = items.slice(0, i);
    out?.push(mapped);
  }
  return out ?? (items as T[]);
}

function mapUserBlocks(blocks: readonly UserBlock[], map: TextMap): UserBlock[] {
  // Image bytes are not text a secret scanner should read (and base64 makes false matches).
  return sameOrMapped(blocks, (b): UserBlock => {
    if (b.type === "text") {
      const text = map.text(b.text);
      return text === b.text ? b : { type: "text", text };
    }
    const mimeType = map.text(b.mimeType);
    return mimeType === b.mimeType ? b : { ...b, mimeType };
  });
}

function mapAssistantBlocks(blocks: readonly AssistantBlock[], map: TextMap): AssistantBlock[] {
  return sameOrMapped(blocks, (b): AssistantBlock => {
    if (b.type === "text") {
      const text = map.text(b.text);
      return text === b.text ? b : { type: "text", text };
    }
    if (b.type === "thinking") {
      const thinking = map.text(b.thinking);
      return thinking === b.thinking ? b : { type: "thinking", thinking };
    }
    // The id never leaves as it is (requests number calls afresh), so it stays the session's.
    const name = map.text(b.name);
    const args = mapJsonStrings(b.arguments, map);
    return name === b.name && args === b.arguments ? b : { ...b, name, arguments: args };
  });
}

/**
 * A context with every string it could send passed through `map`. Entry ids and call ids stay.
 * A message with nothing changed is the same message.
 */
export function mapContextText(context: readonly ContextMessage[], map: TextMap): ContextMessage[] {
  return context.map((message) => mapMessageText(message, map));
}

function mapMessageText(message: ContextMessage, map: TextMap): ContextMessage {
  switch (message.role) {
    case "user": {
      const content = mapUserBlocks(message.content, map);
      return content === message.content ? message : { ...message, content };
    }
    case "assistant": {
      const content = mapAssistantBlocks(message.content, map);
      return content === message.content ? message : { ...message, content };
    }
    case "toolResult": {
      const toolName = map.text(message.toolName);
      const content = mapUserBlocks(message.content, map);
      return toolName === message.toolName && content === message.content ? message : { ...message, toolName, content };
    }
  }
}

function mapParts(parts: readonly ChatContentPart[], map: TextMap): ChatContentPart[] {
  return parts.map((part) =>
    part.type === "text"
      ? { type: "text", text: map.text(part.text) }
      : { type: "image_url", image_url: { url: map.opaque(part.image_url.url) } },
  );
}

/** A string or a number of JSON text, as it is written there (read from the start: a string is taken whole). */
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*/g;

/**
 * Whether valid JSON text holds a string or a number that `map.opaque` (the withheld strings'
 * check) changes where its value shows none: reading keeps only the last value of a name given
 * twice, and rounds a number too long for a double (`123456789012345678901234`), or writes it
 * another way (`1e5`). Looked for only where the text itself holds a withheld string.
 */
function lostInReading(json: string, map: TextMap): boolean {
  if (map.opaque(json) === json) return false;
  for (const [token] of json.matchAll(JSON_TOKEN)) {
    const piece = token.startsWith('"') ? (JSON.parse(token) as string) : token;
    if (map.opaque(piece) !== piece) return true;
  }
  return false;
}

/**
 * Tool-call arguments as JSON text, every string in them mapped. Unchanged, the text itself:
 * requests carry `JSON.stringify`'s own output, which writing again would give back as it is;
 * unless the text holds what its value lost in reading, then the value written again.
 */
function mapArguments(json: string, map: TextMap): string {
  if (map.keepsJson?.(json)) return json;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return map.text(json);
  }
  const mapped = mapJsonStrings(value, map);
  return mapped === value && !lostInReading(json, map) ? json : JSON.stringify(mapped);
}

/**
 * A message with every string passed through `map`: the message itself when they all stay (most
 * of a request, the context as the guard passed it), so nothing is copied for them; else a new
 * one of the same fields (a user's parts are always copied).
 */
function mapMessage(message: ChatMessage, map: TextMap): ChatMessage {
  switch (message.role) {
    case "system":
    case "developer": {
      const content = map.text(message.content);
      return content === message.content ? message : { role: message.role, content };
    }
    case "user": {
      if (typeof message.content !== "string") return { role: "user", content: mapParts(message.content, map) };
      const content = map.text(message.content);
      return content === message.content ? message : { role: "user", content };
    }
    case "assistant": {
      const content = message.content === null ? null : map.text(message.content);
      const calls = message.tool_calls;
      if (!calls) return content === message.content ? message : { role: "assistant", content };
      // Each call's strings first, as plain values: objects are made only when one of them changed.
      const ids: string[] = [];
      const names: string[] = [];
      const args: string[] = [];
      let same = content === message.content;
      for (const call of calls) {
        const id = map.opaque(call.id);
        const name = chatToolName(map.text(call.function.name));
        const json = mapArguments(call.function.arguments, map);
        same &&= id === call.id && name === call.function.name && json === call.function.arguments;
        ids.push(id);
        names.push(name);
        args.push(json);
      }
      if (same) return message;
      const mapped = calls.map((call, i) => ({
        id: ids[i] as string,
        type: call.type,
        function: { name: names[i] as string, arguments: args[i] as string },
      }));
      return { role: "assistant", content, tool_calls: mapped };
    }
    case "tool": {
      const id = map.opaque(message.tool_call_id);
      const content = map.text(message.content);
      return id === message.tool_call_id && content === message.content ? message : { role: "tool", tool_call_id: id, content };
    }
  }
}

/**
 * A request with every string it carries passed through `map`; names stay valid tool names. A
 * message whose strings all stay is passed on as it is.
 */
export function mapRequestText(request: ChatRequest, map: TextMap): ChatRequest {
  const messages = request.messages.map((m) => mapMessage(m, map));
  const mapped: ChatRequest = { ...request, model: map.opaque(request.model), messages };
  if (request.tools) {
    mapped.tools = request.tools.map((tool) => ({
      ...tool,
      function: { ...tool.function, name: chatToolName(map.text(tool.function.name)), description: map.text(tool.function.description) },
    }));
  }
  return mapped;
}
