/**
 * Where and how an agent runs: a fixed scratch folder per agent (HOME, TMPDIR, the project it
 * works in), an explicit environment (never the caller's), a time limit, and the names it
 * tried to resolve while it ran (anything but loopback is an attempt to leave the machine).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { outsideNames, type DnsLog } from "./isolate.ts";

/** Fixed, so the paths inside the transcripts are the same on every run and machine. */
export const SCRATCH_ROOT = "/tmp/agent-compat";

export interface Sandbox {
  name: string;
  home: string;
  tmp: string;
  /** The project folder the agent works in. */
  project: string;
  env(extra?: Record<string, string>): Record<string, string>;
}

/** A fresh scratch folder for one agent run (anything left from an earlier run is removed). */
export function createSandbox(name: string): Sandbox {
  const root = join(SCRATCH_ROOT, name);
  rmSync(root, { recursive: true, force: true });
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  const project = join(root, "project");
  for (const dir of [home, tmp, project]) mkdirSync(dir, { recursive: true });
  return {
    name,
    home,
    tmp,
    project,
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      TMPDIR: tmp,
      LANG: "C.UTF-8",
      TERM: "dumb",
      NO_COLOR: "1",
      CI: "1",
      ...extra,
    }),
  };
}

export interface AgentRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Non-loopback names the agent tried to resolve during this run. */
  outside: string[];
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
}

/** Runs an agent to completion (or the time limit), capturing its output and its DNS attempts. */
export async function runAgent(argv: string[], options: RunOptions, dns: DnsLog): Promise<AgentRun> {
  const before = dns.queries.length;
  const proc = Bun.spawn(argv, {
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "ignore" : "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  if (options.stdin !== undefined && proc.stdin) {
    proc.stdin.write(options.stdin);
    await proc.stdin.end();
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, options.timeoutMs ?? 120_000);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const exitCode = await proc.exited;
  clearTimeout(timer);
  return { exitCode: timedOut ? null : exitCode, stdout, stderr, timedOut, outside: outsideNames(dns.queries.slice(before)) };
}

/** One line saying how a run ended, for failure details. */
export function describeRun(run: AgentRun): string {
  const tail = (text: string) => text.trim().split("\n").slice(-6).join("\n");
  return `${run.timedOut ? "timed out" : `exit ${run.exitCode}`}; stderr: ${tail(run.stderr) || "(none)"}; stdout: ${tail(run.stdout) || "(none)"}`;
}
