import {
  beforeCompactStep,
  beforeCompactText,
  namesBeforeCompact,
  offerStep,
  parseStopArgv,
  windowOf,
  type AgentIntegration,
  type BeforeCompactSupport,
  type HookAnswer,
  type StopSupport,
} from "../../core/index.ts";
import { existsSync, statSync } from "node:fs";
import { linesBackwards } from "../io/lines-backwards.ts";
import { agentHome } from "../sessions/agent-home.ts";
import type { Run } from "../run.ts";
import { HOOK_GUARD, type RunHandoff } from "./hook-handoff.ts";
import { checkSession, handOffSession, readHookStdin } from "./hook-run.ts";
import { offerState, type OfferState } from "./offer-state.ts";
import { lineSince } from "./source-since.ts";

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
  lines.push(...state.takeCompacted());
  if (typeof stop.beforeCompact === "object") {
    const named = nameBeforeCompact(state, stop.beforeCompact, path);
    if (named !== undefined) lines.push(named);
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
  return beforeCompactText(mark.sessionId, mark.sessionFile);
}

export interface BeforeCompactOptions {
  integration: AgentIntegration;
  engine: string;
  handoff: RunHandoff;
  /** The `offer-window` setting: the window where the agent records none (the guard's growth). */
  windowSetting: number | undefined;
}

/** The source's size and context now, as the guard weighs them. */
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
  return { bytes, tokens: usage?.tokens, window: usage === undefined ? undefined : windowOf(usage, undefined, windowSetting) };
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
  const state = offerState(run.env, integration.name, request.sessionId, path);
  const read = state.beforeCompactMark();
  // A damaged state file is said at the next end of a turn, and the handoff written anew.
  if (typeof read === "object" && "problem" in read) state.leaveCompacted(`agent handoff: ${read.problem}`);
  const mark = typeof read === "object" && "problem" in read ? undefined : read;
  // Measured before the handoff reads it: what the agent appends meanwhile counts as after.
  const now = sourceNow(stop, path, windowSetting);
  const compactedSince = mark !== undefined && lineSince(path, mark.sourceBytes, stop.beforeCompact.isCompaction);
  const handoffThere = mark !== undefined && existsSync(mark.sessionFile);
  const step = beforeCompactStep(mark, { ...now, compactedSince, handoffThere });
  if (step.kind === "keep") return undefined;
  const call = { kind: "handoff" as const, sessionPath: path, sessionId: request.sessionId, cwd: request.cwd, args: "" };
  const reply = await handOffSession(run, { integration, argv: [], engine, handoff }, call, { path, to: undefined, focus: "" });
  if (reply.kind === "handed-off") {
    if (step.nameReplaced && mark !== undefined) state.leaveCompacted(beforeCompactText(mark.sessionId, mark.sessionFile));
    state.putBeforeCompactMark({
      sessionId: reply.sessionId,
      sessionFile: reply.sessionFile,
      sourceBytes: now.bytes,
      ...(now.tokens === undefined ? {} : { tokens: now.tokens }),
      named: false,
    });
  }
  // A failure leaves the mark as it was (or none): the next call tries again.
  else state.leaveCompacted(`Before compacting, agent could not write a handoff session: ${reply.text.replace(/^agent handoff: /, "")}`);
  return undefined;
}
