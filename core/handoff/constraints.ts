import type { ContextMessage } from "../session/messages.ts";
import { extractNotes } from "./offline/extract.ts";

/**
 * The rules and preferences users stated on the branch ("never …", "always run …"), as
 * sentences quoted from their own messages, oldest first. Models drop these from summaries;
 * the Session Facts section carries them whatever the engine.
 */
export function userConstraints(context: readonly ContextMessage[]): string[] {
  return [...new Set(extractNotes(context).constraints.map((c) => c.text))];
}
