import {
  beforeCompactText,
  offerStep,
  parseStopArgv,
  windowOf,
  type AgentIntegration,
  type HookAnswer,
  type StopSupport,
} from "../../core/index.ts";
import { linesBackwards } from "../io/lines-backwards.ts";
import { agentHome } from "../sessions/agent-home.ts";
import type { Run } from "../run.ts";
import { HOOK_GUARD, type RunHandoff } from "./hook-handoff.ts";
import { checkSession, handOffSession, readHookStdin } from "./hook-run.ts";
import { offerState } from "./offer-state.ts";

/**
 * `agent hook <agent> --stop …` at the end of each turn: the offer before the context rots (once
 * per crossing of the share) and the line the hook before a compaction left; and
 * `agent hook claude-code --before-compact`, which writes the handoff session before Claude Code
 * compacts. Neither ever blocks the agent: the end of a turn shows at most one notice, the hook
 * before a compaction prints nothing at all (its output would reach the compaction prompt).
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
  const state = offerState(run.env, integration.name, request.sessionId);
  const lines: string[] = [];
  const compacted = state.takeCompacted();
  if (compacted !== undefined) lines.push(compacted);
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

export interface BeforeCompactOptions {
  integration: AgentIntegration;
  engine: string;
  handoff: RunHandoff;
}

/**
 * Before an automatic compaction: hands the session off (the same engine and rules as `/handoff`)
 * and leaves the line naming the new session for the next end of a turn. Prints nothing, blocks
 * nothing, whatever happens: the compaction goes on as it would have.
 */
export async function answerBeforeCompact(
  run: Run,
  { integration, engine, handoff }: BeforeCompactOptions,
): Promise<HookAnswer | undefined> {
  if (run.env[HOOK_GUARD]) return undefined;
  const stop = supportOf(integration);
  if ("problem" in stop || typeof stop.beforeCompact === "string") return undefined;
  const stdin = await readHookStdin(run);
  if (typeof stdin === "object") return undefined;
  const request = stop.beforeCompact({ stdin, argv: [], home: agentHome(run) });
  if (request.kind !== "stop") return undefined;
  const path = checkSession(run, integration, request);
  if (typeof path === "object") return undefined;
  const call = { kind: "handoff" as const, sessionPath: path, sessionId: request.sessionId, cwd: request.cwd, args: "" };
  const reply = await handOffSession(run, { integration, argv: [], engine, handoff }, call, { path, to: undefined, focus: "" });
  const state = offerState(run.env, integration.name, request.sessionId);
  state.leaveCompacted(
    reply.kind === "handed-off"
      ? beforeCompactText(reply.sessionId, reply.sessionFile)
      : `Before compacting, agent could not write a handoff session: ${reply.text.replace(/^agent handoff: /, "")}`,
  );
  return undefined;
}
