import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { markText, parseMark, type BeforeCompactMark } from "../../core/index.ts";
import { errorCode } from "../io/fs-errors.ts";
import type { Env } from "../run.ts";
import { memoryPath } from "./integration-memory.ts";
import { pruneOffers } from "./offer-prune.ts";

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

/** More than any state file of ours holds (a few lines): a bigger one is not ours to read. */
export const STATE_FILE_MAX_BYTES = 64 * 1024;

/**
 * A state file's text; undefined when there is none; `notOurs` when what is there is not a file
 * we wrote (a directory, a symbolic link, a fifo, a file over `STATE_FILE_MAX_BYTES`): never
 * followed, never read whole, never waited on.
 */
function readState(path: string): string | undefined | { notOurs: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ELOOP") return { notOurs: "it is a symbolic link" };
    if (code === "EISDIR") return { notOurs: "it is a directory" };
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { notOurs: "it is a directory" };
    if (!stats.isFile()) return { notOurs: "it is not a file" };
    if (stats.size > STATE_FILE_MAX_BYTES) return { notOurs: "it is over 64 KB" };
    const buffer = Buffer.alloc(stats.size);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function readIfThere(path: string): string | undefined {
  const text = readState(path);
  return typeof text === "string" ? text : undefined;
}

/** Removes a state file (or an empty folder in its place); false when something is still there. */
function remove(path: string): boolean {
  try {
    unlinkSync(path);
  } catch {
    try {
      rmdirSync(path);
    } catch {
      // Not there: nothing to forget (or a folder with files in it: not ours to empty).
    }
  }
  try {
    lstatSync(path);
    return false;
  } catch {
    return true;
  }
}

/**
 * Writes a small state file whole: a temp file renamed into place, so a hook reading it meanwhile
 * sees the old text or the new, never half of it (which it would take for damage), and a symbolic
 * link at its name is replaced, never followed. False when it could not be written; a folder that
 * cannot be written only costs the offer shown again.
 */
function write(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(temp, text, { mode: 0o600, flag: "wx" });
    renameSync(temp, path);
    return true;
  } catch {
    // The state is a courtesy (an offer not repeated), never a reason to fail the user's turn.
    remove(temp);
    return false;
  }
}

/** The most lines left for one end of a turn: calls with no end of a turn between would otherwise pile them up. */
const LEFT_LINES = 3;

function leftLines(text: string | undefined): string[] {
  return (text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
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
