/**
 * Claude Code's content blocks (the Anthropic Messages shapes it saves) in the common model's
 * blocks, the ones pi writes: `text`, `image` (`data`, `mimeType`), `thinking`, `toolCall`.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { readContentBlocks } from "../../content-blocks.ts";

/** A block of the common model, as JSON (entries hold JSON, not the context's types). */
export type BlockData = JsonObject;

function text(value: string): BlockData {
  return { type: "text", text: value };
}

/**
 * An image the file holds (`source.type: "base64"`) becomes pi's image block; one the file only
 * points at (a URL, an uploaded file) cannot be sent again, so a note says one was there.
 */
function imageBlock(block: JsonObject): BlockData {
  const source = isObject(block.source) ? block.source : {};
  const data = stringField(source, "data");
  const mimeType = stringField(source, "media_type") ?? "image/png";
  if (source.type === "base64" && data !== undefined) return { type: "image", data, mimeType };
  return text(`[image not available: Claude Code kept only a reference to it (${stringField(source, "type") ?? "unknown source"})]`);
}

/**
 * A content (a string, or blocks) as common blocks: a string and `text` blocks as text, every
 * other block as `other` makes it (`undefined` leaves it out), anything not a block skipped.
 */
function contentBlocks(content: unknown, other: (block: JsonObject) => BlockData | undefined): BlockData[] {
  return readContentBlocks(
    content,
    (value) => (value === "" ? [] : [text(value)]),
    (block) => (block.type === "text" && typeof block.text === "string" ? text(block.text) : other(block)),
  );
}

/** What a user-side content (a string, or blocks) says, as text and image blocks. */
export function userBlocks(content: unknown): BlockData[] {
  return contentBlocks(content, (block) => {
    if (block.type === "image") return imageBlock(block);
    if (block.type === "document") return text(`[document not carried over: ${stringField(block, "title") ?? "an attached document"}]`);
    return undefined;
  });
}

/** The text of a user-side content, its text blocks joined with `\n`. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) if (isObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
  return parts.join("\n");
}

/**
 * An assistant line's blocks. `redacted_thinking` (nothing readable) and the server's own tools
 * (`server_tool_use`, web search results: they ran at the provider, not on this machine, and
 * need the provider to be sent again) are left out.
 */
export function assistantBlocks(content: unknown): BlockData[] {
  return contentBlocks(content, (block) => {
    if (block.type === "thinking" && typeof block.thinking === "string") return { type: "thinking", thinking: block.thinking };
    if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") {
      return { type: "toolCall", id: block.id, name: block.name, arguments: block.input ?? {} };
    }
    return undefined;
  });
}

/** One `tool_result` block of a user line. */
export interface ToolResultBlock {
  toolUseId: string;
  content: BlockData[];
  isError: boolean;
}

/** A user line's content split into its tool results and whatever else it holds. */
export function splitToolResults(content: unknown[]): { results: ToolResultBlock[]; rest: unknown[] } {
  const results: ToolResultBlock[] = [];
  const rest: unknown[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === "tool_result" && typeof block.tool_use_id === "string") {
      results.push({ toolUseId: block.tool_use_id, content: userBlocks(block.content), isError: block.is_error === true });
    } else rest.push(block);
  }
  return { results, rest };
}

/** Whether a content holds a `tool_result` block (a tool's answer, not the user's words). */
export function holdsToolResult(content: unknown): content is unknown[] {
  return Array.isArray(content) && content.some((block) => isObject(block) && block.type === "tool_result");
}

/**
 * The Anthropic `stop_reason` as pi's `stopReason`. Lines of a message that is still being
 * streamed carry `null`: they say nothing, and the message keeps what another line says.
 */
export function stopReasonOf(value: unknown): string | undefined {
  switch (value) {
    case "tool_use":
      return "toolUse";
    case "max_tokens":
      return "length";
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
    case "refusal":
      return "stop";
    default:
      return undefined;
  }
}
