import { isObject } from "../../json.ts";

/**
 * The guard of the hook before a compaction (`--before-compact`), in one place: Claude Code runs
 * PreCompact each time it considers compacting, not only when it compacts, and one handoff session
 * per call would fill the user's `/resume` list with copies. So a handoff is written once per
 * compaction, named once after it, and a failed one changes nothing. The rule, case by case, is in
 * docs/in-agent.md ("The offer before the context rots"). Pure: cli reads the source's size, its
 * lines since the mark and its usage, and keeps the mark.
 */

/** What the hook remembers of the handoff it wrote before a compaction of one source session. */
export interface BeforeCompactMark {
  /** The handoff session written, as the end of a turn names it. */
  sessionId: string;
  sessionFile: string;
  /** The source's size in bytes when the handoff read it: a compaction since is a line after it. */
  sourceBytes: number;
  /**
   * A digest of the source's first and last `HEAD_BYTES` then: a file whose first `sourceBytes`
   * differ there now is another file, whatever its size. Absent in marks written before it was kept.
   */
  sourceHead?: string;
  /** The source's context in tokens then, when the agent had recorded one. */
  tokens?: number;
  /** Whether an end of a turn has named it (it is named once). */
  named: boolean;
}

/** The share of the window the context may grow by, with no compaction, before a new PreCompact writes afresh. */
export const REWRITE_AFTER_GROWTH = 0.1;

/** How much of the source's beginning, and of its end then, the mark's digest covers. */
export const HEAD_BYTES = 4096;

/** The source as the hook sees it now. */
export interface SourceNow {
  bytes: number;
  /** Whether its first `sourceBytes` hold what they did when the mark was written (as far as the digest covers them). */
  sameHead: boolean;
  /** Whether a line after the mark's `sourceBytes` records a compaction. */
  compactedSince: boolean;
  /** Whether the mark's handoff session is still where it was written. */
  handoffThere: boolean;
  /** Its context now, when the agent recorded one (none since a compaction). */
  tokens?: number | undefined;
  window?: number | undefined;
}

/**
 * Why a PreCompact writes a handoff (the first for the source, or afresh), or that it keeps the one
 * it has. `nameReplaced`: the handoff it replaces stood for a compaction that no end of a turn has
 * named yet (Claude Code may write the boundary only after that turn's Stop ran), so the next end
 * of a turn names it, once, besides the new one.
 */
export type BeforeCompactStep =
  | { kind: "write"; why: "first" | "compacted" | "replaced" | "gone" | "grew"; nameReplaced: boolean }
  | { kind: "keep" };

/** The rule above, for one PreCompact call. */
export function beforeCompactStep(mark: BeforeCompactMark | undefined, now: SourceNow): BeforeCompactStep {
  if (mark === undefined) return { kind: "write", why: "first", nameReplaced: false };
  if (now.bytes < mark.sourceBytes || !now.sameHead) return { kind: "write", why: "replaced", nameReplaced: false };
  if (now.compactedSince) return { kind: "write", why: "compacted", nameReplaced: !mark.named && now.handoffThere };
  if (!now.handoffThere) return { kind: "write", why: "gone", nameReplaced: false };
  const grown = now.tokens !== undefined && mark.tokens !== undefined ? now.tokens - mark.tokens : 0;
  if (now.window !== undefined && grown >= now.window * REWRITE_AFTER_GROWTH) return { kind: "write", why: "grew", nameReplaced: false };
  return { kind: "keep" };
}

/**
 * Whether the end of a turn names the handoff now: not yet named, and the source compacted since it
 * was written (asked only then: it reads what the source gained since).
 */
export function namesBeforeCompact(mark: BeforeCompactMark, compactedSince: () => boolean): boolean {
  return !mark.named && compactedSince();
}

/** The line an end of a turn shows once the source was compacted after the hook wrote its handoff. */
export function beforeCompactText(sessionId: string, sessionFile: string): string {
  return `Before compacting, agent wrote a handoff session ${sessionId} (${sessionFile}): type /resume ${sessionId} to continue there instead of from the summary.`;
}

/** The mark as its state file holds it (one JSON line). */
export function markText(mark: BeforeCompactMark): string {
  return `${JSON.stringify({ version: 1, ...mark })}\n`;
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** Reads a state file `markText` wrote; anything else is a problem of one line (the file was damaged or edited). */
export function parseMark(text: string): BeforeCompactMark | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "it is not JSON" };
  }
  if (!isObject(value) || value.version !== 1) return { problem: "it is not a version 1 mark" };
  const { sessionId, sessionFile, sourceBytes, sourceHead, tokens, named } = value;
  if (typeof sessionId !== "string" || sessionId === "" || typeof sessionFile !== "string" || sessionFile === "")
    return { problem: "it names no handoff session" };
  // Both go into the line the user reads, and the file is looked for: an id, and an absolute path, with no control characters.
  if (!/^[^/\\\0-\x1f\x7f]{1,200}$/.test(sessionId) || !sessionFile.startsWith("/") || /[\0-\x1f\x7f]/.test(sessionFile))
    return { problem: "the handoff session it names is not an id and a path" };
  if (!isCount(sourceBytes) || (tokens !== undefined && !isCount(tokens)) || typeof named !== "boolean")
    return { problem: "its figures are not counts" };
  if (sourceHead !== undefined && (typeof sourceHead !== "string" || !/^[0-9a-f]{64}$/.test(sourceHead)))
    return { problem: "its digest of the source is not one" };
  return {
    sessionId,
    sessionFile,
    sourceBytes,
    ...(sourceHead === undefined ? {} : { sourceHead }),
    ...(tokens === undefined ? {} : { tokens }),
    named,
  };
}
