/**
 * What two of Claude Code's bookkeeping lines (no uuid, never sent to the model) tell the user:
 * - `custom-title` (`customTitle`, `sessionId`): the name the user gave the session, the one
 *   `claude --resume` lists; the newest line for the session's id wins.
 * - `continued-in` (`continuedInSessionId`, `sessionId`): Claude Code 2.1.328 writes it when the
 *   conversation moved on in another session file, and then treats this file as superseded. It
 *   counts only when no conversation line follows it (Claude Code reads it so, from the end).
 */
import { stringField, type JsonObject } from "../../../json.ts";

/** A session id as Claude Code writes it; anything else names no session we could point to. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class SessionMarks {
  private readonly titles = new Map<string, string>();
  private continuedIn: { id: string; line: number } | undefined;

  /** Reads a line if it is one of these; true when it was. */
  see(record: JsonObject, line: number): boolean {
    if (record.type === "custom-title") {
      const sessionId = stringField(record, "sessionId");
      const title = stringField(record, "customTitle")?.trim();
      if (sessionId !== undefined && title !== undefined && title !== "") this.titles.set(sessionId, title);
      return true;
    }
    if (record.type === "continued-in") {
      const id = stringField(record, "continuedInSessionId");
      this.continuedIn = id !== undefined && SESSION_ID.test(id) ? { id, line } : undefined;
      return true;
    }
    return false;
  }

  /** A conversation line was read: the conversation went on in this file after any earlier `continued-in`. */
  conversationAt(): void {
    this.continuedIn = undefined;
  }

  title(sessionId: string): string | undefined {
    return this.titles.get(sessionId);
  }

  /** One line for the user when the file's conversation continued elsewhere (another session than `sessionId`). */
  notices(sessionId: string): string[] {
    const moved = this.continuedIn;
    if (!moved || moved.id.toLowerCase() === sessionId.toLowerCase()) return [];
    return [
      `line ${moved.line}: this conversation continued in Claude Code session ${moved.id}; this file holds it only up to then (hand off ${moved.id}.jsonl, in the same project folder, for where it stands now)`,
    ];
  }
}
