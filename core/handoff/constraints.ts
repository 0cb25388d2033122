import type { OfflineNotes } from "./offline/note-types.ts";

/**
 * The rules and preferences users stated on the branch ("never …", "always run …"), as
 * sentences quoted from their own messages, oldest first. Models drop these from summaries;
 * the Session Facts section carries them whatever the engine.
 */
export function userConstraints(notes: Pick<OfflineNotes, "constraints">): string[] {
  return [...new Set(notes.constraints.map((c) => c.text))];
}
