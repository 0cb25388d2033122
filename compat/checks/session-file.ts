/** Checks on a session file after a real agent wrote to it, and what its requests carried. */
import { readFileSync } from "node:fs";
import { isObject } from "../../core/json.ts";
import type { LoggedRequest } from "../fake/server.ts";
import { must } from "./report.ts";

/**
 * After an agent continued a file: every line is JSON, there is exactly one session header,
 * no entry id is used twice, and (when given) the file still starts with the bytes we wrote.
 */
export function checkSessionFile(path: string, ourBytes?: string): string {
  const text = readFileSync(path, "utf8");
  if (ourBytes !== undefined) must(text.startsWith(ourBytes), "our lines are no longer the start of the file");
  must(text.endsWith("\n"), "the file does not end with a newline");
  const lines = text.slice(0, -1).split("\n");
  let headers = 0;
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    must(isObject(value), `line ${i + 1} is not a JSON object`);
    if (value.type === "session") headers++;
    else if (value.type !== "title" && typeof value.id === "string") {
      if (seen.has(value.id)) duplicates.push(value.id);
      seen.add(value.id);
    }
  }
  must(headers === 1, `${headers} session headers`);
  must(duplicates.length === 0, `entry ids used twice: ${duplicates.join(", ")}`);
  return `${lines.length} lines, one header, ${seen.size} distinct ids`;
}

/** The text of a chat message's content, whether a string or a list of parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
}

/**
 * A Gemini API request as messages: the model is in its path, and each part of `contents` is a
 * message of its own (Gemini merges the turns of one role into one content).
 */
function geminiRequest(path: string, body: Record<string, unknown>): { model: string; messages: unknown[] } {
  const model = /\/models\/([^/:]+):/.exec(path)?.[1] ?? "";
  const contents = Array.isArray(body.contents) ? body.contents.filter(isObject) : [];
  const messages = contents.flatMap((content) =>
    (Array.isArray(content.parts) ? content.parts.filter(isObject) : []).map((part) => ({
      role: content.role,
      content: typeof part.text === "string" ? part.text : "",
    })),
  );
  return { model, messages };
}

/**
 * The model requests an agent sent for its conversation (not our handoff's), on any wire: an
 * agent that falls back to another model may use another API.
 */
export function conversationRequests(requests: readonly LoggedRequest[], writerModel: string): { model: string; messages: unknown[] }[] {
  const out: { model: string; messages: unknown[] }[] = [];
  for (const request of requests) {
    if (request.wire === undefined || !isObject(request.body)) continue;
    if (request.wire === "gemini") {
      out.push(geminiRequest(request.path, request.body));
      continue;
    }
    const model = typeof request.body.model === "string" ? request.body.model : "";
    if (model === writerModel) continue;
    const messages = request.body.messages ?? request.body.input;
    out.push({ model: `${model} (${request.wire})`.replace(" (chat)", ""), messages: Array.isArray(messages) ? messages : [] });
  }
  return out;
}

/** Whether some message of the request carries exactly `text` (a message's whole text, or one of its parts). */
export function carriesVerbatim(messages: readonly unknown[], text: string): boolean {
  return messages.some((message) => {
    if (!isObject(message)) return false;
    if (contentText(message.content) === text) return true;
    return Array.isArray(message.content) && message.content.some((part) => isObject(part) && part.text === text);
  });
}
