/**
 * Whether a session found on disk is one `agent handoff` wrote that nothing happened in yet
 * (core/session/handoff-only.ts has the rule). Its first lines only say whether it may be; the
 * whole file decides, so it is read only then, and only when it is small enough to be ours.
 */
import { handoffOnly, mayOpenWithHandoff, readSession, type HandoffOnly } from "../../core/index.ts";
import type { FoundSession } from "./found-session.ts";
import { readSessionFile } from "./session-file.ts";
import { readRowSession } from "./session-rows.ts";

/**
 * Larger than any session we write: the document (the model's answer, bounded by its output
 * limit) and the facts code adds come to kilobytes, rarely a megabyte. A larger file has work
 * in it, and is not read whole to be told so.
 */
const MAX_HANDOFF_SESSION_BYTES = 4 * 1024 * 1024;

/** Set when `found` holds nothing but a handoff document (and our acknowledgement, and a model entry). */
export function handoffSessionOf(found: FoundSession): HandoffOnly | undefined {
  const { format, rowId } = found;
  // A session kept as rows has no first lines to glance at: its rows are read, by id (a handoff session's are a few),
  // unless it holds more messages than ours open with (a list of a thousand would be a thousand reads).
  if (rowId !== undefined && format.rows !== undefined) {
    if (found.rowMessages !== undefined && found.rowMessages > format.rows.newSessionMessages) return undefined;
    try {
      return handoffOnly(readRowSession(found.path, format.rows, rowId));
    } catch {
      return undefined;
    }
  }
  if (!mayOpenWithHandoff(found.glance)) return undefined;
  if (found.textBytes === undefined || found.textBytes > MAX_HANDOFF_SESSION_BYTES) return undefined;
  try {
    const { session } = readSession(readSessionFile(found.path).chunks, found.path);
    return handoffOnly(session);
  } catch {
    // Unreadable or no session after all: not passed over here; choosing it says what is wrong.
    return undefined;
  }
}
