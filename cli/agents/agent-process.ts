import type { ChildProcess } from "node:child_process";
import { AGENT_OUTPUT_LIMIT_BYTES, type AgentRunOutput, type AgentRunPlan } from "../../core/index.ts";
import { createOutputSink, type OutputSink } from "./agent-output.ts";
import { builtin } from "../io/builtins.ts";

/**
 * More output than any answer needs: past it the agent is stopped and the run fails. pi and omp
 * echo the prompt and print the answer again with every streamed piece, so it is generous.
 */
export const OUTPUT_LIMIT_BYTES = AGENT_OUTPUT_LIMIT_BYTES;

/** How long an agent gets to end after SIGTERM before it is killed. */
const KILL_GRACE_MS = 2000;

export interface ProcessRun extends AgentRunOutput {
  /** The output passed `OUTPUT_LIMIT_BYTES` and the agent was stopped. */
  overflowed: boolean;
}

/** Sends `signal` to a process (a negative id: a process group); throws as `process.kill` does. */
export type Kill = (pid: number, signal: NodeJS.Signals | 0) => void;

/** One run's agents running now, by process group: a run that ends at once (a second Ctrl-C) still takes them along. */
export class AgentProcesses {
  private readonly running = new Set<number>();

  constructor(readonly kill: Kill) {}

  add(pid: number): void {
    this.running.add(pid);
  }

  delete(pid: number): void {
    this.running.delete(pid);
  }

  /** Kills every agent still running (we are ending at once). */
  killAll(): void {
    for (const pid of this.running) this.killGroup(pid, "SIGKILL");
  }

  /** Kills the agent's whole process group (it may have started helpers of its own); gone already is fine. */
  killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
    if (pid === undefined) return;
    try {
      this.kill(-pid, signal);
    } catch {
      // Nothing left in the group.
    }
  }
}

/** After the agent exits, how long what it wrote still in the pipes gets to arrive; then we stop reading. */
const DRAIN_MS = 300;

export interface ProcessOptions {
  /** The run's agents, which this one joins while it runs. */
  agents: AgentProcesses;
  cwd: string;
  /** Its whole environment (nothing is added from ours). */
  env: Record<string, string>;
  signal: AbortSignal;
  /** Lines of stdout dropped unread (see `AgentEngine.skipLine`). */
  skipLine?: (start: string) => boolean;
}

/**
 * Runs one agent: `executable` with the plan's arguments, in `cwd`, the prompt on stdin, with
 * `env`. The agent leads a process group of its own, so that ending it (an abort of `signal`:
 * Ctrl-C or --timeout; too much output) ends whatever it started too: SIGTERM, then SIGKILL
 * after a grace period.
 *
 * The run ends when the agent process itself exits: what it wrote is read for a short moment
 * more, then our ends of the pipes are closed. A helper it detached (setsid) may hold them open
 * for as long as it lives; waiting for their end would outlast --timeout and Ctrl-C and throw
 * away an answer given. Never rejects for what the agent did (the caller reads the output).
 */
export function runAgentProcess(
  executable: string,
  plan: AgentRunPlan,
  { agents, cwd, env, signal, skipLine }: ProcessOptions,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      // node:child_process is loaded only when an agent runs.
      const { spawn } = builtin("node:child_process");
      child = spawn(executable, plan.args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    } catch (error) {
      reject(error);
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) agents.add(pid);
    const killGroup = (target: number | undefined, sent: NodeJS.Signals) => agents.killGroup(target, sent);
    // The limit is on what is kept, stdout and stderr together.
    let room = OUTPUT_LIMIT_BYTES;
    const out = createOutputSink(OUTPUT_LIMIT_BYTES, skipLine);
    const err = createOutputSink(OUTPUT_LIMIT_BYTES);
    let overflowed = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    let stopping = false;
    const stop = (): void => {
      killGroup(pid, "SIGTERM");
      if (stopping) return;
      stopping = true;
      timers.push(setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS));
    };
    const take = (sink: OutputSink) => (chunk: Buffer) => {
      if (overflowed) return;
      const before = sink.size();
      const within = sink.push(chunk);
      room -= sink.size() - before;
      if (!within || room < 0) {
        overflowed = true;
        stop();
      }
    };
    child.stdout?.on("data", take(out));
    child.stderr?.on("data", take(err));
    // An agent that exits without reading its prompt closes the pipe: its exit says what happened.
    child.stdin?.on("error", () => {});
    child.stdin?.end(plan.stdin);
    signal.addEventListener("abort", stop, { once: true });
    if (signal.aborted) stop();
    let settled = false;
    const finish = (code: number | null, ended: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", stop);
      for (const timer of timers) clearTimeout(timer);
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      resolve({ stdout: out.text(), stderr: err.text(), exitCode: code, signal: ended, overflowed });
    };
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", stop);
      for (const timer of timers) clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code, ended) => {
      // What it started in its group goes with it.
      killGroup(pid, "SIGKILL");
      if (pid !== undefined) agents.delete(pid);
      // Both pipes at their end (no one else holds them): done now; else after a short drain.
      let open = [child.stdout, child.stderr].filter((s) => s !== null && !s.readableEnded).length;
      if (open === 0) return finish(code, ended);
      for (const stream of [child.stdout, child.stderr]) stream?.once("end", () => --open === 0 && finish(code, ended));
      timers.push(setTimeout(() => finish(code, ended), DRAIN_MS));
    });
  });
}
