import { isAbsolute } from "node:path";
import {
  agentEngine,
  estimateSeconds,
  ranOutLine,
  splitHookBudget,
  tooLongLine,
  type AgentIntegration,
  type DryRunAgentJson,
  type DryRunRequestsJson,
  type HookBudget,
  type HookRequest,
} from "../../core/index.ts";
import { DEFAULT_RETRIES } from "../flags/options.ts";
import { silenceLimitMs } from "../model/endpoint.ts";
import { MemoryStream } from "../output/memory-stream.ts";
import type { Run, RunIo } from "../run.ts";

/**
 * The handoff a hook runs, in this process (`agent handoff … --json --no-record`), within the
 * time the agent gives its hook: the budget, the plan checked against it, the engine stopped
 * when it runs out, and the offline engine in its place (core/agent-run/integration/hook-budget.ts).
 */

/** Set for everything a hook's handoff runs (the engine's own agent, its hooks): a hook seeing it answers nothing. */
export const HOOK_GUARD = "HANDOFF_HOOK_ACTIVE";

/** `agent handoff` run in this process (cli/main.ts's runCli), given by the command table. */
export type RunHandoff = (argv: readonly string[], io: RunIo) => Promise<number>;

/** What the hook needs to run a handoff. */
export interface HookOptions {
  integration: AgentIntegration;
  argv: readonly string[];
  /** The engine that writes the document (`hook-engine`), the agent itself by default. */
  engine: string;
  handoff: RunHandoff;
}

/** How one in-process handoff ended. */
export interface HandoffRan {
  code: number;
  stdout: string;
  stderr: string;
  /** The hook's bound ended it (not the user's cancel). */
  timedOut: boolean;
}

/** What the handoff leaves of the agent's own timeout for reading, answering and ending. */
const MARGIN_SECONDS = 15;

/**
 * The agent's own executable as integrate recorded it, for the engine that runs it (`AGENT_PI_BIN`
 * and the like), unless the environment names one already: the user's own setting wins.
 */
function recordedBin(run: Run, integration: AgentIntegration, request: HookRequest & { kind: "handoff" }): Record<string, string> {
  const name = agentEngine(integration.name).binEnv;
  const bin = request.agentBin;
  return bin === undefined || !isAbsolute(bin) || run.env[name] ? {} : { [name]: bin };
}

/**
 * Set only by tests: the hook's budget in seconds, in place of the agent's hook timeout less the
 * margin, so a slow engine runs out of it in a test's time.
 */
export const TEST_BUDGET_ENV = "AGENT_TEST_HOOK_SECONDS";

/** The seconds the hook's handoff has: the agent's own hook timeout less the margin. */
function budgetOf(run: Run, integration: AgentIntegration): HookBudget {
  const test = Number(run.env[TEST_BUDGET_ENV]);
  const seconds = Number.isFinite(test) && test > 0 ? test : Math.max(30, integration.hookTimeoutSeconds - MARGIN_SECONDS);
  return splitHookBudget(seconds);
}

/**
 * `--retries 0` when a stalled answer could not be tried again inside the bound: the model port
 * calls an attempt silent after its share of `--timeout` (cli/model/endpoint.ts, at least half of
 * it under two minutes), so in a short bound the next attempt would start with next to no time
 * left, only to be stopped by the bound (a request the model serves for nothing). Under the
 * agents' own timeouts (ten minutes) the share leaves time, and the retries stay.
 */
export function retriesFor(seconds: number, timeout: number): string[] {
  return silenceLimitMs(timeout * 1000, DEFAULT_RETRIES) > (seconds * 1000) / 2 ? ["--retries", "0"] : [];
}

/** The `--timeout` of a handoff bounded by `seconds`: a little longer, so the bound is what ends a run too slow. */
export function timeoutFor(seconds: number): number {
  return Math.ceil(seconds) + 5;
}

/** One in-process `agent handoff`, bounded by `seconds`; `timedOut`: that bound ended it (not the user's cancel). */
async function handoffFor(
  run: Run,
  { handoff, integration }: HookOptions,
  request: HookRequest & { kind: "handoff" },
  argv: readonly string[],
  seconds: number,
): Promise<HandoffRan> {
  const stdout = new MemoryStream();
  const stderr = new MemoryStream();
  const bound = AbortSignal.timeout(Math.max(1, seconds * 1000));
  const timeout = timeoutFor(seconds);
  const code = await handoff([...argv, "--timeout", String(timeout), ...retriesFor(seconds, timeout)], {
    env: { ...run.env, ...recordedBin(run, integration, request), [HOOK_GUARD]: "1" },
    cwd: request.cwd ?? run.cwd,
    stdin: { fd: -1, isTTY: false },
    stdout,
    stderr,
    // Never the process's exit: a bound that ends the handoff ends it at its next checkpoint, and the hook answers.
    host: { ...run.host, exitNow: undefined },
    signal: AbortSignal.any([run.cancel.signal, bound]),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text(), timedOut: bound.aborted && !run.cancel.signal.aborted };
}

/** The plan's size as `--dry-run --json` counts it; undefined when the dry run fails (the real run then says why). */
async function plannedRun(
  run: Run,
  options: HookOptions,
  request: HookRequest & { kind: "handoff" },
  argv: readonly string[],
  seconds: number,
) {
  const dry = await handoffFor(run, options, request, [...argv, "--dry-run"], seconds);
  if (dry.code !== 0) return undefined;
  try {
    const report = JSON.parse(dry.stdout) as Partial<DryRunAgentJson & DryRunRequestsJson>;
    const requests = (report.runs ?? report.requests ?? []).length;
    const inputTokens = report.condensed?.tokensSent ?? report.estimatedTokens;
    return requests > 0 && typeof inputTokens === "number" ? { requests, inputTokens } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hook's handoff, inside the hook's time: the engine chosen, unless its plan cannot finish
 * in its share or it does not (then the offline engine, and `note` says so: hook-budget.ts).
 */
export async function handOffInTime(
  run: Run,
  options: HookOptions,
  request: HookRequest & { kind: "handoff" },
  handoffArgv: (engine: string) => string[],
): Promise<{ ran: HandoffRan; note: string | undefined; budget: HookBudget }> {
  const { engine } = options;
  const started = Date.now();
  const budget = budgetOf(run, options.integration);
  // A session too long for the hook's time: the offline engine writes it (hook-budget.ts has the rule).
  let note: string | undefined;
  let chosen = engine;
  if (engine !== "offline") {
    const plan = await plannedRun(run, options, request, handoffArgv(engine), budget.engineSeconds);
    if (plan !== undefined && estimateSeconds(plan) > budget.engineSeconds) {
      chosen = "offline";
      note = tooLongLine(engine, plan, budget);
    }
  }
  const left = () => budget.seconds - (Date.now() - started) / 1000;
  let ran = await handoffFor(
    run,
    options,
    request,
    handoffArgv(chosen),
    chosen === "offline" ? left() : budget.engineSeconds - (Date.now() - started) / 1000,
  );
  if (ran.timedOut && chosen !== "offline") {
    note = ranOutLine(engine, budget);
    ran = await handoffFor(run, options, request, handoffArgv("offline"), left());
  }
  return { ran, note, budget };
}
