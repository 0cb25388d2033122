/**
 * "The newest session" of a folder, for every command that picks one without being told which:
 * the newest that holds work to hand off. Sessions `agent handoff` wrote that nothing happened in
 * yet are passed over (running it twice must not pick what the first run wrote), and files newer
 * than the one picked that could not be read are kept, for a warning: the pick may be older than
 * the user's last session (a Codex rollout `sudo codex` left to root).
 */
import type { HandoffOnly } from "../../core/index.ts";
import type { FoundSession, Unreadable } from "./found-session.ts";
import { handoffSessionOf } from "./handoff-session.ts";

export interface PassedOver {
  found: FoundSession;
  ours: HandoffOnly;
}

export interface NewestChoice {
  /** The newest session with work in it; undefined when there is none. */
  pick: FoundSession | undefined;
  /** Handoff sessions newer than the pick, newest first. */
  passedOver: PassedOver[];
  /**
   * What could not be read and may hold newer work than the pick: every folder (a folder's time
   * changes only when a file is added or removed, not when one in it is written: an old folder
   * can hold today's session), and the files that changed after the pick was written (all of
   * them, when nothing was picked).
   */
  newerUnreadable: Unreadable[];
}

/** The choice among `sessions` (newest first), and what it passed over. */
export function chooseNewest(sessions: readonly FoundSession[], unreadable: readonly Unreadable[]): NewestChoice {
  const passedOver: PassedOver[] = [];
  let pick: FoundSession | undefined;
  for (const found of sessions) {
    const ours = handoffSessionOf(found);
    if (ours === undefined) {
      pick = found;
      break;
    }
    passedOver.push({ found, ours });
  }
  const after = pick?.mtimeMs ?? Number.NEGATIVE_INFINITY;
  // A time that cannot be told may be later: it is kept.
  const newerUnreadable = unreadable.filter((u) => u.folder || u.mtimeMs === undefined || u.mtimeMs > after);
  return { pick, passedOver, newerUnreadable };
}
