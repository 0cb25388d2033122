import { isObject, numberField, stringField, type JsonObject } from "../json.ts";
import type { AssistantBlock, ContextMessage, UserBlock, UserMessageKind } from "./messages.ts";
import type { Entry } from "./types.ts";
import { wrapBranchSummary, wrapExecution, wrapFileMention } from "./wrappers.ts";

/**
 * Looks up an omp blob (`blob:sha256:<hex>`) and returns its bytes as base64, or `undefined`
 * when it is not on this machine. Supplied by the CLI; core never reads files.
 */
export type ResolveBlob = (sha256: string) => string | undefined;

const BLOB_PREFIX = "blob:sha256:";

/**
 * A message's content as our blocks: a string is one text block; in an array, what is not an
 * object is skipped, and so is a block of a kind the model is not sent. As readContentBlocks
 * reads them, in a loop of its own: this runs for every message, mostly interpreted, where a
 * call per block showed (~0.4 ms of the 1 MB session's context).
 */
export function toUserBlocks(content: unknown, resolveBlob?: ResolveBlob): UserBlock[] {
  if (typeof content === "string") return textBlocks(content);
  if (!Array.isArray(content)) return [];
  const blocks: UserBlock[] = [];
  for (const item of content as unknown[]) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const block = item as JsonObject;
    if (block.type === "text") {
      if (typeof block.text === "string") blocks.push({ type: "text", text: block.text });
    } else if (block.type === "image") {
      const made = toImageBlock(block, resolveBlob);
      if (made) blocks.push(made);
    }
  }
  return blocks;
}

function textBlocks(text: string): { type: "text"; text: string }[] {
  return [{ type: "text", text }];
}

function toImageBlock(block: JsonObject, resolveBlob?: ResolveBlob): UserBlock | undefined {
  const data = stringField(block, "data");
  const mimeType = stringField(block, "mimeType") ?? "image/png";
  if (data === undefined) return undefined;
  if (!data.startsWith(BLOB_PREFIX)) return { type: "image", data, mimeType };
  const hash = data.slice(BLOB_PREFIX.length);
  const restored = /^[0-9a-f]{64}$/i.test(hash) ? resolveBlob?.(hash.toLowerCase()) : undefined;
  if (restored !== undefined) return { type: "image", data: restored, mimeType };
  // Never send the reference itself: it means nothing to a model.
  return { type: "text", text: `[image not available: ${mimeType} blob ${hash.slice(0, 12)} is not on this machine]` };
}

/** As `toUserBlocks`, for an assistant turn: text, thinking and tool calls. */
function toAssistantBlocks(content: unknown): AssistantBlock[] {
  if (typeof content === "string") return textBlocks(content);
  if (!Array.isArray(content)) return [];
  const blocks: AssistantBlock[] = [];
  for (const item of content as unknown[]) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const block = item as JsonObject;
    const type = block.type;
    if (type === "text") {
      if (typeof block.text === "string") blocks.push({ type: "text", text: block.text });
    } else if (type === "thinking") {
      if (typeof block.thinking === "string") blocks.push({ type: "thinking", thinking: block.thinking });
    } else if (type === "toolCall" && typeof block.id === "string" && typeof block.name === "string") {
      blocks.push({ type: "toolCall", id: block.id, name: block.name, arguments: sendableArguments(block.arguments) });
    }
  }
  return blocks;
}

/** Far deeper than any real tool call; deep enough that JSON.stringify could overflow the stack. */
const MAX_ARGUMENT_DEPTH = 1000;

/**
 * A tool call's arguments as they can be sent. Arguments nested deeper than `MAX_ARGUMENT_DEPTH`
 * (only a damaged or hostile file has them) are replaced by a note, so later steps can always
 * serialise them. Measured with an explicit stack, for the same reason.
 */
function sendableArguments(value: unknown): unknown {
  // Only objects go on the stack, their depths beside them: most arguments are one flat object
  // of strings, and a pair per value showed in the 1 MB session's profile.
  const nodes: object[] = [];
  const depths: number[] = [];
  if (typeof value === "object" && value !== null) {
    nodes.push(value);
    depths.push(0);
  }
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const depth = depths.pop() ?? 0;
    if (depth >= MAX_ARGUMENT_DEPTH) return { note: `arguments nested more than ${MAX_ARGUMENT_DEPTH} levels deep were left out` };
    for (const child of Object.values(node)) {
      if (typeof child !== "object" || child === null) continue;
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return value ?? {};
}

function userMessage(kind: UserMessageKind, content: UserBlock[], entryId: string): ContextMessage {
  return { role: "user", kind, content, entryId };
}

function textMessage(kind: UserMessageKind, text: string, entryId: string): ContextMessage {
  return userMessage(kind, [{ type: "text", text }], entryId);
}

/** What one `message` entry contributes to the context, if anything. */
function convertMessage(message: JsonObject, entryId: string, resolveBlob?: ResolveBlob): ContextMessage | undefined {
  switch (message.role) {
    case "user":
    case "developer":
      return userMessage(message.role, toUserBlocks(message.content, resolveBlob), entryId);
    case "custom":
      return userMessage("custom", toUserBlocks(message.content, resolveBlob), entryId);
    case "assistant": {
      const { provider, model, stopReason } = message;
      return {
        role: "assistant",
        content: toAssistantBlocks(message.content),
        provider: typeof provider === "string" ? provider : undefined,
        model: typeof model === "string" ? model : undefined,
        stopReason: typeof stopReason === "string" ? stopReason : undefined,
        entryId,
      };
    }
    case "toolResult": {
      const toolCallId = stringField(message, "toolCallId");
      if (toolCallId === undefined) return undefined;
      const result: ContextMessage = {
        role: "toolResult",
        toolCallId,
        toolName: stringField(message, "toolName") ?? "tool",
        content: toUserBlocks(message.content, resolveBlob),
        isError: message.isError === true,
        entryId,
      };
      // Claude Code's reader states some exit codes beside the text; the facts and the offline engine read them alike.
      const exitCode = message.exitCode === null ? null : numberField(message, "exitCode");
      if (exitCode !== undefined) result.exitCode = exitCode;
      if (message.reportedFailed === true) result.reportedFailed = true;
      return result;
    }
    case "bashExecution":
    case "pythonExecution": {
      // `!!` runs are private to the user: they never reach a model.
      if (message.excludeFromContext === true) return undefined;
      const shell = message.role === "bashExecution";
      return textMessage(
        shell ? "bashExecution" : "pythonExecution",
        wrapExecution({
          language: shell ? "shell" : "python",
          source: stringField(message, shell ? "command" : "code") ?? "",
          output: stringField(message, "output") ?? "",
          exitCode: numberField(message, "exitCode"),
          cancelled: message.cancelled === true,
          truncated: message.truncated === true,
        }),
        entryId,
      );
    }
    case "fileMention": {
      const files = Array.isArray(message.files) ? message.files.filter(isObject) : [];
      const listed = files.map((file) => ({ path: stringField(file, "path") ?? "(unnamed)", content: stringField(file, "content") }));
      return listed.length === 0 ? undefined : textMessage("fileMention", wrapFileMention(listed), entryId);
    }
    default:
      return undefined;
  }
}

/** What one entry contributes to the context. Compactions are handled by the caller. */
export function convertEntry(entry: Entry, resolveBlob?: ResolveBlob): ContextMessage | undefined {
  const data = entry.data;
  switch (entry.type) {
    case "message":
      return isObject(data.message) ? convertMessage(data.message, entry.id, resolveBlob) : undefined;
    case "custom_message":
      return userMessage("custom", toUserBlocks(data.content, resolveBlob), entry.id);
    case "branch_summary": {
      const summary = stringField(data, "summary");
      return summary ? textMessage("branchSummary", wrapBranchSummary(summary), entry.id) : undefined;
    }
    default:
      return undefined;
  }
}
