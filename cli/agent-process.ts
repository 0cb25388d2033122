import { spawn } from "node:child_process";
import type { AgentRunOutput, AgentRunPlan } from "../core/index.ts";

/**
 * More output than any answer needs: past it the agent is stopped and the run fails. pi and omp
 * echo the prompt and print the answer again with every streamed piece, so it is generous.
 */
export const OUTPUT_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long an agent gets to end after SIGTERM before it is killed. */
const KILL_GRACE_MS = 2000;

export interface ProcessRun extends AgentRunOutput {
  /** The output passed `OUTPUT_LIMIT_BYTES` and the agent was stopped. */
  overflowed: boolean;
}

/** The agents running now, by process group: a run that ends at once (a second Ctrl-C) still takes them along. */
const running = new Set<number>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pid of running) killGroup(pid, "SIGKILL");
  });
}

/** Kills the agent's whole process group (it may have started helpers of its own); gone already is fine. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Nothing left in the group.
  }
}

/**
 * Runs one agent: `executable` with the plan's arguments, in `cwd`, the prompt on stdin, the
 * user's environment plus the plan's variables. The agent leads a process group of its own,
 * so that ending it (an abort of `signal`: Ctrl-C or --timeout; too much output) ends whatever
 * it started too: SIGTERM, then SIGKILL after a grace period. Resolves when it has exited and
 * its output is read; never rejects for what the agent did (the caller reads the output).
 */
export function runAgentProcess(executable: string, plan: AgentRunPlan, cwd: string, signal: AbortSignal): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(executable, plan.args, { cwd, env: { ...process.env, ...plan.env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
    } catch (error) {
      reject(error);
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) {
      running.add(pid);
      killAllOnExit();
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflowed = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const stop = (): void => {
      killGroup(pid, "SIGTERM");
      killTimer ??= setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
    };
    const take = (into: Buffer[]) => (chunk: Buffer) => {
      if (overflowed) return;
      size += chunk.length;
      if (size > OUTPUT_LIMIT_BYTES) {
        overflowed = true;
        stop();
        return;
      }
      into.push(chunk);
    };
    child.stdout?.on("data", take(out));
    child.stderr?.on("data", take(err));
    // An agent that exits without reading its prompt closes the pipe: its exit says what happened.
    child.stdin?.on("error", () => {});
    child.stdin?.end(plan.stdin);
    signal.addEventListener("abort", stop, { once: true });
    if (signal.aborted) stop();
    child.on("error", (error) => {
      signal.removeEventListener("abort", stop);
      clearTimeout(killTimer);
      reject(error);
    });
    // Helpers it left holding the pipes open would keep "close" from ever coming.
    child.on("exit", () => {
      killGroup(pid, "SIGKILL");
      if (pid !== undefined) running.delete(pid);
    });
    child.on("close", (code, ended) => {
      signal.removeEventListener("abort", stop);
      clearTimeout(killTimer);
      resolve({
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        exitCode: code,
        signal: ended,
        overflowed,
      });
    });
  });
}
