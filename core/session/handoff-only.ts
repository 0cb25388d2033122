/**
 * A session `agent handoff` wrote, in which nothing has happened yet: no work to hand off. Read
 * on the common model, so one rule covers every agent's format (each reads our file back as the
 * same entries: the document as a `handoff` custom message, our acknowledgement as an assistant
 * message, and for pi and omp a model entry).
 */
import { isObject } from "../json.ts";
import { HANDOFF_ACKNOWLEDGEMENT } from "./formats/handoff-text.ts";
import type { Entry, Session } from "./types.ts";

/** What such a session says of where it came from. */
export interface HandoffOnly {
  /** The source's path, where the file records one (pi's and omp's header `parentSession`). */
  source: string | undefined;
}

/**
 * Entries that are the conversation: anything of these but our two is work done in the session
 * (a user turn, an answer, a tool result, a command the user ran, a compaction, a summary).
 */
const CONVERSATION = new Set(["message", "custom_message", "branch_summary", "compaction"]);

function isDocument(entry: Entry): boolean {
  return entry.type === "custom_message" && entry.data.customType === "handoff";
}

/** Our acknowledgement, as every writer puts it: one assistant text block, exactly our words. */
function isAcknowledgement(entry: Entry): boolean {
  const message = entry.data.message;
  if (entry.type !== "message" || !isObject(message) || message.role !== "assistant") return false;
  const content = message.content;
  if (typeof content === "string") return content === HANDOFF_ACKNOWLEDGEMENT;
  if (!Array.isArray(content) || content.length !== 1) return false;
  const [block] = content;
  return isObject(block) && block.type === "text" && block.text === HANDOFF_ACKNOWLEDGEMENT;
}

/**
 * Set when the file holds nothing but a handoff document: its conversation is the document
 * (first), then at most our acknowledgement; everything else in it is not a conversation (a model
 * or settings entry, a title, an agent's bookkeeping). Any other message after the document,
 * the user's first words included, makes it a session with work of its own. Over the whole
 * file, not one branch: work on a branch the user left is work too.
 */
export function handoffOnly(session: Session): HandoffOnly | undefined {
  const conversation = session.entries.filter((entry) => CONVERSATION.has(entry.type));
  const [document, answer, ...more] = conversation;
  if (document === undefined || !isDocument(document) || more.length > 0) return undefined;
  if (answer !== undefined && !isAcknowledgement(answer)) return undefined;
  return { source: session.header.parentSession };
}
