/** What a transcript driver gets: the agent, its sandbox and fake, and a way to run it. */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Agent } from "../agents.ts";
import type { FakeModelServer } from "../fake/server.ts";
import { outsideNames, type DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";
import { must } from "../checks/report.ts";
import { PROJECT_FILES, type ToolStyle } from "./script.ts";

export interface RecordContext {
  agent: Agent;
  /** The agent's install folder. */
  dir: string;
  sandbox: Sandbox;
  fake: FakeModelServer;
  dns: DnsLog;
  /** Usage the fake reports from now on (large values make agents compact on their own). */
  setInputTokens(tokens: number): void;
}

export interface TranscriptDriver {
  style(project: string): ToolStyle;
  /** Texts of the agent's own its readers need (Gemini's line naming the workspace), kept when its prose is replaced. */
  keep?(project: string): string[];
  /** Runs the turns and the compaction; returns the session files written, by the name to keep them under. */
  record(context: RecordContext): Promise<Map<string, string>>;
}

/** Runs one agent process in the project; fails on a non-zero exit or an attempt to leave the machine. */
export async function runTurn(context: RecordContext, argv: string[], env: Record<string, string>, stdin?: string): Promise<AgentRun> {
  const run = await runAgent(argv, { cwd: context.sandbox.project, env, stdin, timeoutMs: 180_000 }, context.dns);
  must(run.outside.length === 0, `${context.agent.name} tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, `${argv.slice(1, 3).join(" ")}…: ${describeRun(run)}`);
  return run;
}

export function writeProject(project: string): void {
  for (const [path, content] of Object.entries(PROJECT_FILES)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content);
  }
}

/** Every `.jsonl` file under `dir`, recursively, sorted by path. */
export function jsonlFilesUnder(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(jsonlFilesUnder(path));
    else if (name.endsWith(".jsonl")) out.push(path);
  }
  return out;
}

/**
 * Runs an agent in RPC mode: sends one command, waits for the line that answers it, then
 * closes stdin so the agent exits. Returns everything it printed.
 */
export async function runRpc(
  context: RecordContext,
  argv: string[],
  env: Record<string, string>,
  command: Record<string, unknown>,
  answered: (line: string) => boolean,
): Promise<string> {
  const before = context.dns.queries.length;
  const proc = Bun.spawn(argv, { cwd: context.sandbox.project, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  proc.stdin.write(`${JSON.stringify(command)}\n`);
  await proc.stdin.flush();
  const timer = setTimeout(() => proc.kill("SIGKILL"), 180_000);
  let output = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    output += decoder.decode(chunk, { stream: true });
    if (output.split("\n").some(answered)) break;
  }
  await proc.stdin.end();
  const exitCode = await proc.exited;
  clearTimeout(timer);
  const stderr = await new Response(proc.stderr).text();
  must(
    output.split("\n").some(answered),
    `no answer to ${JSON.stringify(command)} (exit ${exitCode}): ${stderr.slice(-400)} ${output.slice(-400)}`,
  );
  const outside = outsideNames(context.dns.queries.slice(before));
  must(outside.length === 0, `${context.agent.name} tried to reach ${outside.join(", ")}`);
  return output;
}
