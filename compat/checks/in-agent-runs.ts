/**
 * What the in-agent checks of Claude Code and Codex share: `agent integrate` as the user runs it,
 * one `claude -p --resume` turn, the prompts, where the sessions are, what the hook's line names,
 * what the new session must hold, and a terminal's settled screen.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";
import { REPO } from "./reading.ts";
import { must } from "./report.ts";
import { waitFor } from "./terminal.ts";

export const FIRST = "COMPAT-INAGENT: the first task, the one handed off";
export const SECOND = "COMPAT-INAGENT: a later task in another session";
export const FOCUS = "COMPAT-FOCUS finish $(touch pwned) the parser";
export const NEXT = "COMPAT-NEXT: what is next?";
export const HANDOFF_OPEN = "<handoff-context>";

/** `agent integrate <args…>` as the user runs it (Bun and our script), in the sandbox. */
export async function integrate(sandbox: Sandbox, env: Record<string, string>, args: string[], dns: DnsLog): Promise<AgentRun> {
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "integrate", ...args],
    { cwd: sandbox.project, env, timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent integrate ${args.join(" ")} failed: ${describeRun(run)}`);
  return run;
}

/** One `claude -p --resume <id>` turn, its output as stream-json (hook output included); `flags` go before the prompt. */
export async function claudeTurn(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  env: Record<string, string>,
  id: string,
  prompt: string,
  dns: DnsLog,
  flags: readonly string[] = [],
) {
  const run = await runAgent(
    [join(dir, agent.bin), "-p", "--resume", id, "--output-format", "stream-json", "--verbose", ...flags, prompt],
    { cwd: sandbox.project, env, timeoutMs: 180_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  return run;
}

export function jsonlIn(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".jsonl")) : [];
}

/** Every rollout file under Codex's sessions folder. */
export function rollouts(codexHome: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".jsonl")) out.push(path);
    }
  };
  walk(join(codexHome, "sessions"));
  return out;
}

/** The new session the hook's line names: `New session <id>: <file>` then `/resume <id>`. */
export function announced(text: string): { id: string; file: string } {
  const match = /New session ([0-9a-f-]{36}): (\S+\.jsonl)[\s\S]*?\/resume \1/.exec(text);
  must(match !== null, `no "New session <id>: <file> … /resume <id>" line in what the agent printed: ${text.slice(-1500)}`);
  return { id: match[1] ?? "", file: match[2] ?? "" };
}

export function checkNewSession(file: string, sourceId: string): void {
  const text = readFileSync(file, "utf8");
  must(text.includes(HANDOFF_OPEN), "the new session holds no handoff document");
  must(text.includes("COMPAT-FOCUS finish $(touch pwned) the parser"), "the focus did not reach the document as typed");
  must(text.includes(FIRST.slice(0, 40)), "the document is not about the session the hook was called from");
  must(!text.includes(SECOND.slice(0, 40)), "the document holds the other (newer) session: the hook handed off the wrong one");
  must(text.includes(sourceId), "the document's Session Facts do not name the source session");
}

/** The screen once it is the same twice in a row, half a second apart (or after `ms`). */
export async function settledScreen(terminal: { screen(): string }, ms: number): Promise<string> {
  let last = "";
  await waitFor(() => {
    const screen = terminal.screen();
    const settled = screen.trim() !== "" && screen === last;
    last = screen;
    return settled;
  }, ms);
  return last;
}
