/** The installed agent starts at all: its (native) executable runs and names the pinned version. */
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent } from "../sandbox.ts";
import { must, type Checks } from "./report.ts";

export async function checkVersion(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  await checks.run(agent.name, `runs: ${agent.bin.split("/").pop()} --version prints ${agent.version}`, async () => {
    const sandbox = createSandbox(`${agent.name}-version`);
    const run = await runAgent([join(dir, agent.bin), "--version"], { cwd: sandbox.project, env: sandbox.env(), timeoutMs: 60_000 }, dns);
    must(run.exitCode === 0 && agent.versionLine.test(`${run.stdout}${run.stderr}`), describeRun(run));
    must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
    return undefined;
  });
}
