/** The runs the in-agent checks share: `agent integrate` as the user runs it, one `claude -p --resume` turn. */
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";
import { REPO } from "./reading.ts";
import { must } from "./report.ts";

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
