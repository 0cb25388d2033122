import {
  beforeCompactStep,
  beforeCompactText,
  namesBeforeCompact,
  offerStep,
  parseStopArgv,
  windowOf,
  type AgentIntegration,
  type BeforeCompactMark,
  type BeforeCompactSupport,
  type HookAnswer,
  type StopSupport,
} from "../../core/index.ts";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { acquireLock, type Lock } from "../io/lock.ts";
import { linesBackwards } from "../io/lines-backwards.ts";
import { agentHome } from "../sessions/agent-home.ts";
import type { Run } from "../run.ts";
import { HOOK_GUARD, type RunHandoff } from "./hook-handoff.ts";
import { checkSession, handOffSession, readHookStdin } from "./hook-run.ts";
import { offerState, type OfferState } from "./offer-state.ts";
import { lineSince, prefixDigest } from "./source-since.ts";

/**
 * `agent hook <agent> --stop …` at the end of each turn: the offer before the context rots (once
 * per crossing of the share) and the line the hook before a compaction left; and
 * `agent hook claude-code --before-compact`, which writes the handoff session before Claude Code
 * compacts (at most one per compaction: the guard is core's before-compact.ts). Neither ever blocks
 * the agent: the end of a turn shows at most one notice, the hook before a compaction prints nothing
 * at all (its output would reach the compaction prompt).
 */

function supportOf(integration: AgentIntegration): StopSupport | { problem: string } {
  return integration.stop ?? { problem: `agent hook: ${integration.label} has no hook at the end of a turn` };
}

export interface StopOptions {
  integration: AgentIntegration;
  /** The arguments after `hook <agent>` (`--stop …`). */
  argv: readonly string[];
  /** The `offer-window` setting: the window where the agent records none. */
  windowSetting: number | undefined;
}

/** Answers one end-of-turn call; undefined: nothing to show (print nothing, exit 0). */
export async function answerStop(run: Run, { integration, argv, windowSetting }: StopOptions): Promise<HookAnswer | undefined> {
  if (run.env[HOOK_GUARD]) return undefined;
  const stop = supportOf(integration);
  if ("problem" in stop) return undefined;
  const say = (problem: string) => stop.notice([`agent handoff: ${problem.replace(/^agent hook: /, "")}`]);
  const args = parseStopArgv(argv);
  if ("problem" in args) return say(`${args.problem}; run agent integrate ${integration.name} again`);
  const stdin = await readHookStdin(run);
  if (typeof stdin === "object") return say(stdin.problem);
  const request = stop.readStop({ stdin, argv, home: agentHome(run) }, args);
  if (request.kind === "ignore") return undefined;
  if (request.kind === "problem") return say(request.message);
  const path = checkSession(run, integration, request);
  // No file yet (a turn that wrote nothing): nothing to measure.
  if (typeof path === "object") return undefined;
  const state = offerState(run.env, integration.name, request.sessionId, path);
  const lines: string[] = [];
  // What the hook before a compaction left is read and changed under its lock; while one is
  // writing a handoff, this end of a turn leaves it to the next. With no lock to be had (no state
  // folder yet, something else at the lock's name) no hook before a compaction is writing either.
  const lock = await markLock(run, state, false);
  if (lock !== "held")
    try {
      lines.push(...state.takeCompacted());
      if (typeof stop.beforeCompact === "object") {
        const named = nameBeforeCompact(state, stop.beforeCompact, path);
        if (named !== undefined) lines.push(named);
      }
    } finally {
      if (lock !== undefined && "release" in lock) lock.release();
    }
  if (args.offer !== undefined) {
    let usage: ReturnType<StopSupport["usage"]>;
    try {
      usage = stop.usage(linesBackwards(path));
    } catch {
      // Unreadable now (moved, being replaced): the next turn measures again.
      usage = undefined;
    }
    const window = usage === undefined ? undefined : windowOf(usage, request.window, windowSetting);
    const step = offerStep({ usage, percent: args.offer, window, offered: state.offered(), command: stop.command });
    if (step.kind === "offer") {
      state.markOffered();
      lines.push(step.text);
    } else if (step.kind === "rearm") state.forgetOffered();
  }
  return lines.length === 0 ? undefined : stop.notice(lines);
}

/** The handoff written before a compaction, named once the source recorded the compaction; a damaged state file, its one line. */
function nameBeforeCompact(state: OfferState, support: BeforeCompactSupport, path: string): string | undefined {
  const mark = state.beforeCompactMark();
  if (mark === undefined) return undefined;
  if ("problem" in mark) return `agent handoff: ${mark.problem}`;
  if (!namesBeforeCompact(mark, () => lineSince(path, mark.sourceBytes, support.isCompaction))) return undefined;
  state.putBeforeCompactMark({ ...mark, named: true });
  // Deleted since (by the user): nothing to /resume, so nothing to name.
  return existsSync(mark.sessionFile) ? beforeCompactText(mark.sessionId, mark.sessionFile) : undefined;
}

/**
 * The lock of one session's mark, taken at once or not at all (a hook never waits on another's
 * handoff); "held": another hook holds it; `foreign`: something else is at its name (never
 * removed: not ours); undefined: no lock can be made here (a state folder that cannot be written).
 */
async function markLock(run: Run, state: OfferState, makeFolder: boolean): Promise<Lock | "held" | undefined | { foreign: string }> {
  try {
    if (makeFolder) mkdirSync(dirname(state.markFile), { recursive: true, mode: 0o700 });
    const lock = await acquireLock(run, state.markFile, { waitMs: 0, signal: run.cancel.signal });
    if ("release" in lock) return lock;
    return "heldBy" in lock ? "held" : lock;
  } catch {
    return undefined;
  }
}

export interface BeforeCompactOptions {
  integration: AgentIntegration;
  engine: string;
  handoff: RunHandoff;
  /** The `offer-window` setting: the window where the agent records none (the guard's growth). */
  windowSetting: number | undefined;
}

/** The source's size, beginning and context now, as the guard weighs them. */
function sourceNow(stop: StopSupport, path: string, windowSetting: number | undefined) {
  let bytes = 0;
  let usage: ReturnType<StopSupport["usage"]>;
  try {
    bytes = statSync(path).size;
    usage = stop.usage(linesBackwards(path));
  } catch {
    // Unreadable now: the handoff says why, if it cannot read it either.
    usage = undefined;
  }
  const head = prefixDigest(path, bytes);
  return { bytes, head, tokens: usage?.tokens, window: usage === undefined ? undefined : windowOf(usage, undefined, windowSetting) };
}

/** Whether the source begins as it did for the mark (a mark without a digest: taken as the same). */
function sameHead(path: string, mark: BeforeCompactMark | undefined): boolean {
  if (mark?.sourceHead === undefined) return true;
  return prefixDigest(path, mark.sourceBytes) === mark.sourceHead;
}

/**
 * Before an automatic compaction: hands the session off (the same engine and rules as `/handoff`)
 * unless the guard keeps the handoff an earlier call wrote, and remembers it for the end of the turn
 * after the compaction to name. Prints nothing, blocks nothing, whatever happens: the compaction
 * goes on as it would have.
 */
export async function answerBeforeCompact(
  run: Run,
  { integration, engine, handoff, windowSetting }: BeforeCompactOptions,
): Promise<HookAnswer | undefined> {
  if (run.env[HOOK_GUARD]) return undefined;
  const stop = supportOf(integration);
  if ("problem" in stop || typeof stop.beforeCompact === "string") return undefined;
  const stdin = await readHookStdin(run);
  if (typeof stdin === "object") return undefined;
  const request = stop.beforeCompact.read({ stdin, argv: [], home: agentHome(run) });
  if (request.kind !== "stop") return undefined;
  const path = checkSession(run, integration, request);
  if (typeof path === "object") return undefined;
  const support = stop.beforeCompact;
  const state = offerState(run.env, integration.name, request.sessionId, path);
  // One call at a time per session: a second call while the first writes leaves it to the first;
  // with no lock to be had (a state folder that cannot be written), no mark could be kept either,
  // and every call would write one more handoff: none is written.
  const lock = await markLock(run, state, true);
  if (lock === "held" || lock === undefined) return undefined;
  if ("foreign" in lock) {
    state.leaveCompacted(
      `agent handoff: ${state.markFile}.lock is ${lock.foreign}, not a lock of agent; move it away: until then no handoff is written before a compaction`,
    );
    return undefined;
  }
  try {
    await guardedHandoff(run, { integration, engine, handoff, windowSetting }, { stop, support, state }, { ...request, path });
  } finally {
    lock.release();
  }
  return undefined;
}

/** The guard and the handoff, under the mark's lock. */
async function guardedHandoff(
  run: Run,
  { integration, engine, handoff, windowSetting }: BeforeCompactOptions,
  { stop, support, state }: { stop: StopSupport; support: BeforeCompactSupport; state: OfferState },
  request: { path: string; sessionId: string; cwd?: string | undefined },
): Promise<void> {
  const { path } = request;
  const read = state.beforeCompactMark();
  // A damaged state file is said at the next end of a turn, and the handoff written anew (unless it stays).
  if (typeof read === "object" && "problem" in read) {
    state.leaveCompacted(`agent handoff: ${read.problem}`);
    if (!read.removed) return;
  }
  const mark = typeof read === "object" && "problem" in read ? undefined : read;
  // Measured before the handoff reads it: what the agent appends meanwhile counts as after.
  const { head, ...now } = sourceNow(stop, path, windowSetting);
  const compactedSince = mark !== undefined && lineSince(path, mark.sourceBytes, support.isCompaction);
  const handoffThere = mark !== undefined && existsSync(mark.sessionFile);
  const step = beforeCompactStep(mark, { ...now, sameHead: sameHead(path, mark), compactedSince, handoffThere });
  if (step.kind === "keep") return;
  const call = { kind: "handoff" as const, sessionPath: path, sessionId: request.sessionId, cwd: request.cwd, args: "" };
  const reply = await handOffSession(run, { integration, argv: [], engine, handoff }, call, { path, to: undefined, focus: "" });
  if (reply.kind === "handed-off") {
    if (step.nameReplaced && mark !== undefined) state.leaveCompacted(beforeCompactText(mark.sessionId, mark.sessionFile));
    state.putBeforeCompactMark({
      sessionId: reply.sessionId,
      sessionFile: reply.sessionFile,
      sourceBytes: now.bytes,
      ...(head === undefined ? {} : { sourceHead: head }),
      ...(now.tokens === undefined ? {} : { tokens: now.tokens }),
      named: false,
    });
  }
  // A failure leaves the mark as it was (or none): the next call tries again.
  else state.leaveCompacted(`Before compacting, agent could not write a handoff session: ${reply.text.replace(/^agent handoff: /, "")}`);
}
