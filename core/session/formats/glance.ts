/** What the formats' glances share: lines parsed leniently, and text made into a one-line title. */
import { isObject, type JsonObject } from "../../json.ts";
import { unwrapHandoffDocument } from "./handoff-text.ts";
import type { SessionGlance } from "./types.ts";

/** A title or request longer than this is cut: a list shows one line of it. */
export const TITLE_MAX = 200;

/** Each line that is a JSON object, in order; a torn or foreign line is passed over (a glance never fails). */
export function objectsOf(lines: readonly string[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) out.push(value);
    } catch {
      // Not whole JSON: a glance reads what it can.
    }
  }
  return out;
}

/**
 * Text on one line: runs of whitespace (newlines, tabs) as one space. Not cut to `TITLE_MAX`
 * here: the CLI cuts it when it prints, once the key is withheld from the whole of it (a cut
 * made first would print the key's start). Only a text far longer than any title (a pasted log
 * of megabytes) loses its end, where nothing shown can be.
 */
export function oneLine(text: string): string | undefined {
  const flat = text
    .slice(0, 50 * TITLE_MAX)
    .replace(/\s+/g, " ")
    .trim();
  return flat === "" ? undefined : flat;
}

/** How the title of a session that opens with a handoff document (ours) begins. */
const HANDOFF_TITLE = "handoff: ";

/**
 * Whether a session may open with a handoff document, as far as its first lines tell: their first
 * request is one (its title says so), or they did not reach a first request. Someone who typed
 * "handoff: …" as their first words passes too: the whole file decides (session/handoff-only.ts).
 */
export function mayOpenWithHandoff(glance: SessionGlance): boolean {
  return glance.firstRequest === undefined || glance.firstRequest.startsWith(HANDOFF_TITLE);
}

/**
 * A user's first words as a title. A handoff document that opens a session (ours) says
 * `handoff: ` and its first line of prose (the goal), not the wrapper.
 */
export function requestTitle(text: string): string | undefined {
  const document = unwrapHandoffDocument(text);
  if (document === undefined) return oneLine(text);
  const prose = document
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "" && !line.startsWith("#"));
  return oneLine(`${HANDOFF_TITLE}${prose ?? ""}`);
}

/** The text blocks of a message's content (a string is one block), joined by newlines. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObject)
    .map((block) => (typeof block.text === "string" && (block.type === "text" || block.type === "input_text") ? block.text : ""))
    .filter((text) => text !== "")
    .join("\n");
}
