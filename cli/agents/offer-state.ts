import { dirname, join } from "node:path";
import { markText, parseMark, type BeforeCompactMark } from "../../core/index.ts";
import { asField } from "../output/terminal.ts";
import type { Env } from "../run.ts";
import { memoryPath } from "./integration-memory.ts";
import { pruneOffers } from "./offer-prune.ts";
import { readIfThere, readState, remove, write } from "./state-files.ts";

/**
 * What the hooks at the end of a turn remember between turns, kept in our own state folder (never
 * in the user's session): per session, that the offer was shown (so it comes once per crossing),
 * the handoff the hook before a compaction wrote for it (its guard, core's before-compact.ts), and
 * the line that hook left for the next turn's end to show; and the session file they are for, so
 * that the state of sessions long left is forgotten (offer-prune.ts).
 */

/** `$XDG_STATE_HOME/agent/offers/`, beside what `integrate` remembers. */
function offersFolder(env: Env): string {
  return join(dirname(memoryPath(env)), "offers");
}

type Kind = "offered" | "compacted" | "before-compact" | "source";

/** One session's file of `kind`; the id was checked to be an id (no `/`, no `..`). */
function stateFile(env: Env, agent: string, sessionId: string, kind: Kind): string {
  return join(offersFolder(env), `${agent}-${sessionId}.${kind}`);
}

/** The most lines left for one end of a turn: calls with no end of a turn between would otherwise pile them up. */
const LEFT_LINES = 3;

function leftLines(text: string | undefined): string[] {
  // Only the newest few, control characters shown as escapes (an edited file would reach the user's screen).
  return (text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(-LEFT_LINES)
    .map(asField);
}

export interface OfferState {
  offered(): boolean;
  markOffered(): void;
  forgetOffered(): void;
  /** The lines the hook before a compaction left, taken (shown once). */
  takeCompacted(): string[];
  /** Adds a line for the next end of a turn (the same line twice is kept once; the newest few are kept). */
  leaveCompacted(text: string): void;
  /**
   * The handoff the hook before a compaction wrote for this session; a damaged file is removed and
   * said in one line (`removed`: false when it could not be, so no mark can be kept in its place).
   */
  beforeCompactMark(): BeforeCompactMark | undefined | { problem: string; removed: boolean };
  /** Keeps the mark; false when it could not be written. */
  putBeforeCompactMark(mark: BeforeCompactMark): boolean;
  /** The mark's file: its lock (`<file>.lock`) is held while a hook reads and replaces the mark. */
  readonly markFile: string;
}

/** The state of one session's offer; `source` is its session file. */
export function offerState(env: Env, agent: string, sessionId: string, source: string): OfferState {
  let pruned = false;
  // Each write says which session file the state is for, and forgets other sessions' state long left (once a run).
  const put = (path: string, text: string): boolean => {
    const written = write(path, text);
    write(stateFile(env, agent, sessionId, "source"), `${source}\n`);
    if (!pruned) {
      pruned = true;
      pruneOffers(offersFolder(env), `${agent}-${sessionId}`, Date.now());
    }
    return written;
  };
  const offered = stateFile(env, agent, sessionId, "offered");
  const compacted = stateFile(env, agent, sessionId, "compacted");
  const mark = stateFile(env, agent, sessionId, "before-compact");
  return {
    offered: () => readIfThere(offered) !== undefined,
    markOffered: () => put(offered, "offered\n"),
    forgetOffered: () => remove(offered),
    takeCompacted() {
      const text = readIfThere(compacted);
      if (text !== undefined) remove(compacted);
      return leftLines(text);
    },
    leaveCompacted(text) {
      const lines = [...leftLines(readIfThere(compacted)).filter((line) => line !== text), text].slice(-LEFT_LINES);
      put(compacted, `${lines.join("\n")}\n`);
    },
    beforeCompactMark() {
      const text = readState(mark);
      if (text === undefined) return undefined;
      const read = typeof text === "string" ? parseMark(text) : { problem: text.notOurs };
      if (!("problem" in read)) return read;
      // Forgotten, so the next call starts anew instead of tripping on it again.
      const removed = remove(mark);
      const outcome = removed
        ? "agent removed it"
        : "agent could not remove it, so it writes no handoff before a compaction until it is gone";
      return { problem: `the state file ${mark} could not be read (${read.problem}); ${outcome}`, removed };
    },
    putBeforeCompactMark: (value) => put(mark, markText(value)),
    markFile: mark,
  };
}
