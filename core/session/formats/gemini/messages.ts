/**
 * Gemini CLI's messages in the common model's terms, as Gemini rebuilds the history it sends
 * when it resumes (`convertSessionToClientHistory`, 0.61): `info`, `error` and `warning`
 * messages are not sent; a user message whose text is empty or starts with `/`, `?`,
 * `<session_context>` or `<hook_context>` is not sent (the CLI's own context and commands); a
 * `gemini` message is its thoughts, text and function calls, each call's result following it.
 * A resume writes every tool result once more (as a `<id>_response` user message): a result
 * whose call already has one is the same result, read once.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { geminiShellExitCode } from "./shell-result.ts";

export type Block = JsonObject;

/** A Gemini `Part` list (`PartListUnion`: a string, one part, or a list of parts and strings) as parts. */
export function partsOf(content: unknown): JsonObject[] {
  if (typeof content === "string") return [{ text: content }];
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? { text: p } : p)).filter(isObject);
  return isObject(content) ? [content] : [];
}

/** The text parts of a content, joined as Gemini joins them for its checks. */
export function textOfParts(parts: readonly JsonObject[]): string {
  return parts.map((part) => (typeof part.text === "string" && part.thought !== true ? part.text : "")).join("");
}

/** How Gemini's own context opens (its environment, written on every start): never the user's words. */
export const SESSION_CONTEXT_OPEN = "<session_context>";

/** Whether Gemini leaves a user text out of the history it sends (its own context, a command). */
export function isIgnoredUserText(text: string): boolean {
  const trimmed = text.trim();
  return (
    trimmed === "" ||
    trimmed.startsWith("/") ||
    trimmed.startsWith("?") ||
    trimmed.startsWith(SESSION_CONTEXT_OPEN) ||
    trimmed.startsWith("<hook_context>")
  );
}

/** An image sent inline (`inlineData`), in the common model's shape; any other part is not the user's words. */
function imageBlock(part: JsonObject): Block | undefined {
  const inline = isObject(part.inlineData) ? part.inlineData : undefined;
  const data = inline && stringField(inline, "data");
  const mimeType = inline && stringField(inline, "mimeType");
  return data !== undefined && mimeType !== undefined ? { type: "image", data, mimeType } : undefined;
}

/** What a user message's parts say: the words (and images), and the tool results it carries. */
export function userBlocks(parts: readonly JsonObject[]): { content: Block[]; results: ToolResult[] } {
  const content: Block[] = [];
  const results: ToolResult[] = [];
  for (const part of parts) {
    if (typeof part.text === "string") content.push({ type: "text", text: part.text });
    else if (isObject(part.functionResponse)) results.push(resultOf(part.functionResponse));
    else {
      const image = imageBlock(part);
      if (image) content.push(image);
    }
  }
  return { content, results };
}

export interface ToolResult {
  callId: string;
  name: string;
  text: string;
  isError: boolean;
  /** The code a shell result states (shell-result.ts); `undefined` for other tools and texts in no shell shape. */
  exitCode?: number | null;
}

/** Gemini CLI's shell tool: its results state their exit code. */
const SHELL_TOOL = "run_shell_command";

/** The result with the exit code its text states, when it is a shell result that states one. */
function withExitCode(result: ToolResult): ToolResult {
  if (result.name !== SHELL_TOOL || result.isError) return result;
  const exitCode = geminiShellExitCode(result.text);
  return exitCode === undefined ? result : { ...result, exitCode };
}

/** A `functionResponse` as a result: its `output`, or its `error`, or the response itself as JSON. */
function resultOf(response: JsonObject): ToolResult {
  const body = isObject(response.response) ? response.response : {};
  const output = stringField(body, "output");
  const error = stringField(body, "error");
  return withExitCode({
    callId: stringField(response, "id") ?? "",
    name: stringField(response, "name") ?? "tool",
    text: output ?? error ?? JSON.stringify(body),
    isError: output === undefined && error !== undefined,
  });
}

/** A tool call's `result` as Gemini keeps it: a string, a list of parts, or one `functionResponse` part. */
function callResults(call: JsonObject): ToolResult[] {
  const id = stringField(call, "id") ?? "";
  const name = stringField(call, "name") ?? "tool";
  const isError = call.status === "error" || call.status === "cancelled";
  if (typeof call.result === "string") return [withExitCode({ callId: id, name, text: call.result, isError })];
  const results = partsOf(call.result).flatMap((part) => (isObject(part.functionResponse) ? [resultOf(part.functionResponse)] : []));
  // A call Gemini marked failed or cancelled states no code of its own: the mark decides.
  return results.map((result) =>
    isError ? { ...result, callId: result.callId || id, isError, exitCode: undefined } : { ...result, callId: result.callId || id },
  );
}

/** A `gemini` message: its blocks (thinking, text, tool calls) and the results of its calls. */
export function modelBlocks(record: JsonObject): { content: Block[]; results: ToolResult[] } {
  const content: Block[] = [];
  const parts = partsOf(record.content);
  const inContent = parts.some((p) => isObject(p.functionCall) || p.thought === true);
  // Gemini sends the recorded thoughts only when the content holds none of its own (as it rebuilds).
  if (!inContent && Array.isArray(record.thoughts))
    for (const thought of record.thoughts.filter(isObject)) {
      const subject = stringField(thought, "subject");
      const description = stringField(thought, "description") ?? "";
      content.push({ type: "thinking", thinking: subject ? `**${subject}** ${description}` : description });
    }
  const calls = new Set<string>();
  for (const part of parts) {
    if (typeof part.text === "string" && part.thought === true) content.push({ type: "thinking", thinking: part.text });
    else if (typeof part.text === "string") {
      if (part.text !== "") content.push({ type: "text", text: part.text });
    } else if (isObject(part.functionCall)) {
      const id = stringField(part.functionCall, "id") ?? "";
      calls.add(id);
      content.push({
        type: "toolCall",
        id,
        name: stringField(part.functionCall, "name") ?? "tool",
        arguments: part.functionCall.args ?? {},
      });
    }
  }
  const results: ToolResult[] = [];
  const toolCalls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isObject) : [];
  for (const call of toolCalls) {
    const id = stringField(call, "id") ?? "";
    if (!calls.has(id)) {
      calls.add(id);
      content.push({ type: "toolCall", id, name: stringField(call, "name") ?? "tool", arguments: call.args ?? {} });
    }
    results.push(...callResults(call));
  }
  return { content, results };
}
