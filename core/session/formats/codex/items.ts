/**
 * One Codex `ResponseItem` (the `payload` of a `response_item` line, or an item of a
 * compaction's `replacement_history`) in the common model's terms: pi's message roles and
 * blocks. Shapes are those of codex-rs/protocol `models.rs` (0.169), checked against the real
 * transcript in fixtures/real/codex/.
 */
import { arrayField, isObject, stringField, type JsonObject } from "../../../json.ts";
import { isWrappedHandoff } from "../handoff-text.ts";
import { isHarnessText, isSummaryText, parseUserShellCommand, type UserShellCommand } from "./harness.ts";

/** A block as the common model stores it inside `entry.data.message.content`. */
export type Block = JsonObject;

/** What one item contributes to the conversation. */
export type ItemMeaning =
  /** Model output: text, thinking, tool calls. Consecutive ones are one model turn. */
  | { kind: "assistant"; blocks: Block[] }
  /** Something the user typed (text and images). */
  | { kind: "user"; content: Block[] }
  /** A handoff document `agent handoff` opened the session with. */
  | { kind: "handoff"; text: string }
  /** A compaction summary Codex sent as a user message (inside `replacement_history`). */
  | { kind: "summary"; text: string }
  /** A shell command the user ran themselves. */
  | { kind: "shell"; run: UserShellCommand }
  /** A tool's output, for the call with this id. */
  | { kind: "result"; callId: string; content: Block[]; isError: boolean }
  /** Not conversation: Codex's own context, encrypted reasoning, items with nothing to read. */
  | { kind: "none" }
  /** An item type this reader does not know. */
  | { kind: "unknown"; type: string };

/** Item types that carry nothing for the conversation we rebuild (server-side tools, snapshots, encrypted compactions). */
const SILENT_TYPES = new Set([
  "web_search_call",
  "image_generation_call",
  "ghost_snapshot",
  "compaction",
  "compaction_summary",
  "tool_search_call",
  "tool_search_output",
  "other",
]);

const NONE: ItemMeaning = { kind: "none" };

/**
 * `data:<mime>;base64,<data>` as an image block; any other URL as a note naming it (we fetch
 * nothing). The URL is kept whole: a reader cuts nothing, since its text is redacted later and a
 * cut made first would send the start of a token the cut went through (a signed URL's `?auth=`).
 */
function imageBlock(url: string): Block {
  const data = /^data:([\w.+/-]+);base64,(.*)$/s.exec(url);
  if (data?.[1] && data[2] !== undefined) return { type: "image", data: data[2], mimeType: data[1] };
  return { type: "text", text: `[image: ${url}]` };
}

/** Codex labels an attached image with `<image name=…>` … `</image>` text parts around it: not the user's words. */
function isImageLabel(parts: readonly unknown[], index: number): boolean {
  const part = parts[index];
  const text = isObject(part) ? stringField(part, "text") : undefined;
  if (text === undefined) return false;
  const isImage = (at: number) => {
    const other = parts[at];
    return isObject(other) && other.type === "input_image";
  };
  if ((text === "<image>" || (text.startsWith("<image name=") && text.endsWith(">"))) && isImage(index + 1)) return true;
  return text === "</image>" && index > 0 && isImage(index - 1);
}

/** The text and image parts of a message's `content`, in the common model's block shapes. */
export function contentBlocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (let index = 0; index < content.length; index++) {
    const part: unknown = content[index];
    if (!isObject(part) || isImageLabel(content, index)) continue;
    const text = stringField(part, "text");
    if (text !== undefined && part.type !== "input_image") blocks.push({ type: "text", text });
    else if (part.type === "input_image") {
      const url = stringField(part, "image_url");
      if (url !== undefined) blocks.push(imageBlock(url));
    }
  }
  return blocks;
}

function texts(blocks: readonly Block[]): string[] {
  const found: string[] = [];
  for (const block of blocks) if (block.type === "text" && typeof block.text === "string") found.push(block.text);
  return found;
}

/**
 * Whether Codex marked every part of a message as its own: newer versions record where each
 * part came from (`content_item_metadata[].provenance.type`, `user` for the user's words).
 */
function markedAsHarness(payload: JsonObject): boolean {
  const passthrough = payload.internal_chat_message_metadata_passthrough;
  const parts = isObject(passthrough) ? arrayField(passthrough, "content_item_metadata") : undefined;
  if (!parts || parts.length === 0) return false;
  return parts.every(
    (part) => isObject(part) && isObject(part.provenance) && typeof part.provenance.type === "string" && part.provenance.type !== "user",
  );
}

function userMessage(payload: JsonObject): ItemMeaning {
  const content = contentBlocks(payload.content);
  const parts = texts(content);
  // Codex's own rule: one marked part makes the whole message its own.
  const harness = parts.find(isHarnessText);
  if (harness !== undefined) {
    const run = parseUserShellCommand(harness);
    return run ? { kind: "shell", run } : NONE;
  }
  const summary = parts.find(isSummaryText);
  if (summary !== undefined) return { kind: "summary", text: summary };
  if (markedAsHarness(payload)) return NONE;
  if (content.length === 1 && parts.length === 1 && parts[0] !== undefined && isWrappedHandoff(parts[0]))
    return { kind: "handoff", text: parts[0] };
  return content.length === 0 ? NONE : { kind: "user", content };
}

/** Reasoning the model left readable: its raw text where recorded, else its summary. Encrypted reasoning has none. */
function reasoningBlocks(payload: JsonObject): Block[] {
  const read = (field: string) =>
    (arrayField(payload, field) ?? []).flatMap((part) =>
      isObject(part) && typeof part.text === "string" && part.text.trim() !== "" ? [part.text] : [],
    );
  const raw = read("content");
  const thinking = (raw.length > 0 ? raw : read("summary")).join("\n\n");
  return thinking === "" ? [] : [{ type: "thinking", thinking }];
}

/** A function call's arguments: Codex records them as a JSON string; an object is what every other agent has. */
function parsedArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : raw;
  } catch {
    return raw; // the model's own malformed arguments, kept as it wrote them
  }
}

/**
 * A tool output: a string, the content items a structured output has (text and images), or
 * the `{content, success}` object older versions wrote.
 */
export function outputBlocks(output: unknown): { content: Block[]; isError: boolean } {
  if (typeof output === "string") return { content: [{ type: "text", text: output }], isError: false };
  if (Array.isArray(output)) return { content: contentBlocks(output), isError: false };
  if (isObject(output)) {
    const blocks = Array.isArray(output.content_items) ? contentBlocks(output.content_items) : contentBlocks(output.content);
    return { content: blocks, isError: output.success === false };
  }
  return { content: [], isError: false };
}

function toolCall(id: string | undefined, name: string | undefined, args: unknown): ItemMeaning {
  if (id === undefined || name === undefined) return NONE;
  return { kind: "assistant", blocks: [{ type: "toolCall", id, name, arguments: args }] };
}

/** What one response item means for the conversation. */
export function readItem(payload: JsonObject): ItemMeaning {
  const type = stringField(payload, "type") ?? "(no type)";
  switch (type) {
    case "message":
      if (payload.role === "assistant") return { kind: "assistant", blocks: contentBlocks(payload.content) };
      // `developer` and `system` messages are Codex's instructions, never the user's words.
      return payload.role === "user" ? userMessage(payload) : NONE;
    case "reasoning":
      return { kind: "assistant", blocks: reasoningBlocks(payload) };
    case "function_call":
      return toolCall(stringField(payload, "call_id"), stringField(payload, "name"), parsedArguments(payload.arguments));
    case "custom_tool_call":
      // A freeform tool (apply_patch): its input is raw text, kept under `input`.
      return toolCall(stringField(payload, "call_id"), stringField(payload, "name"), { input: stringField(payload, "input") ?? "" });
    case "local_shell_call":
      return toolCall(
        stringField(payload, "call_id") ?? stringField(payload, "id"),
        "local_shell_call",
        isObject(payload.action) ? payload.action : {},
      );
    case "function_call_output":
    case "custom_tool_call_output": {
      const callId = stringField(payload, "call_id");
      if (callId === undefined) return NONE;
      const { content, isError } = outputBlocks(payload.output);
      return { kind: "result", callId, content, isError };
    }
    default:
      return SILENT_TYPES.has(type) ? NONE : { kind: "unknown", type };
  }
}
