/**
 * The real agents failing as the model of a handoff: not logged in, and the model refusing the
 * request (401: a revoked key; 400: a request it will not take). Each time `agent handoff
 * --engine <agent>` must exit 1 with one line on stderr that names the agent (and, logged out
 * or refused, says how to log in), print nothing on stdout, write no session, leave no agent
 * process running, and leave the prompt in no file of the agent's HOME or TMPDIR. Ctrl-C while
 * the agent waits for the model must end the run (exit 130) and the agent with it.
 */
import { existsSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { withEngines, type Agent, type AgentName, type EngineAgentInstall } from "../agents.ts";
import type { Script } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun } from "../sandbox.ts";
import { allOf, must, type Checks } from "./report.ts";
import { WRITTEN_DOCUMENT } from "./resume.ts";
import { handedOffPath, handoffCommand, runHandoffCli, setUpEngine, type EngineSetup } from "./engine-drivers.ts";
import { filesHolding, processesWithHome } from "./engine-evidence.ts";
import { LAST_REQUEST } from "./engine-session.ts";

/** The --timeout the failing runs get: an agent that retries for longer must still end by it. */
const TIMEOUT_SECONDS = 40;

interface FailureCase {
  label: string;
  loggedOut: boolean;
  script: Script;
  /** What the one line must say, per agent. */
  says: (agent: AgentName) => RegExp;
}

const LOGGED_OUT = /is not logged in/;

const CASES: readonly FailureCase[] = [
  {
    label: "not logged in",
    loggedOut: true,
    script: () => ({ text: WRITTEN_DOCUMENT }),
    // Codex with no login keeps trying OpenAI (here: a network that is not there) until stopped.
    says: (agent) => (agent === "codex" ? /is not logged in|no answer within --timeout/ : LOGGED_OUT),
  },
  {
    label: "the model refuses the key (401)",
    loggedOut: false,
    script: () => ({ refuse: { status: 401, message: "COMPAT-REFUSED: invalid x-api-key" } }),
    says: () => LOGGED_OUT,
  },
  {
    label: "the model refuses the request (400)",
    loggedOut: false,
    script: () => ({ refuse: { status: 400, message: "COMPAT-REFUSED: this model is not available to you" } }),
    says: () => /COMPAT-REFUSED: this model is not available to you/,
  },
];

/**
 * A HOME with spaces and letters beyond ASCII: a path the agent names (omp's saved copy of a
 * refused request) must still be found whole. The folder is moved there, and every variable
 * that named it follows.
 */
const SPACED_HOME = "Zoë Müller home";

function withSpacedHome(setup: EngineSetup): EngineSetup {
  const before = setup.sandbox.home;
  const home = join(dirname(before), SPACED_HOME);
  renameSync(before, home);
  const env = Object.fromEntries(Object.entries(setup.env).map(([name, value]) => [name, value.split(before).join(home)]));
  return { ...setup, env, sandbox: { ...setup.sandbox, home } };
}

async function checkCase(
  agent: EngineAgentInstall,
  dir: string,
  failure: FailureCase,
  index: number,
  checks: Checks,
  dns: DnsLog,
): Promise<void> {
  const setup = withSpacedHome(await setUpEngine(agent, dir, `fail${index}`, failure.script, failure.loggedOut));
  try {
    await checks.run(
      agent.name,
      `engine fails (${failure.label}; HOME "…/${SPACED_HOME}"): exit 1, one line naming ${setup.engine.command}, nothing written, nothing left running or on disk`,
      async () => {
        const started = performance.now();
        const run = await runHandoffCli(setup, ["--timeout", String(TIMEOUT_SECONDS)], dns, (TIMEOUT_SECONDS + 30) * 1000);
        const seconds = (performance.now() - started) / 1000;
        // A moment for anything the run left behind to show (or to go).
        await Bun.sleep(500);
        const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
        const line = lines[0] ?? "";
        const expected = failure.says(agent.name);
        const left = processesWithHome(setup.sandbox.home);
        const holding = filesHolding(setup.sandbox.home, [setup.sandbox.home, setup.sandbox.tmp], LAST_REQUEST);
        return allOf([
          () => must(run.exitCode === 1, `not exit 1: ${describeRun(run)}`),
          () => must(run.stdout === "", `stdout: ${run.stdout.slice(0, 120)}`),
          () => must(lines.length === 1, `${lines.length} lines on stderr: ${lines.join(" | ").slice(0, 400)}`),
          () => must(line.includes(setup.engine.command) && expected.test(line), `the line does not say ${expected}: ${line}`),
          () => must(!existsSync(handedOffPath(setup)), "a session was written"),
          () => must(left.length === 0, `still running: ${left.join("; ")}`),
          () => must(holding.length === 0, `the prompt is kept in ${holding.join(", ")}`),
          () => `${seconds.toFixed(1)}s: ${line}`,
        ]);
      },
    );
  } finally {
    await setup.fake.stop();
  }
}

/** How long the fake keeps the agent waiting: far longer than the check waits. */
const SLOW_MODEL_MS = 120_000;

/** Ctrl-C (SIGINT to `agent`) while the agent waits for the model: the agent must go with it. */
async function checkCancel(agent: EngineAgentInstall, dir: string, checks: Checks): Promise<void> {
  const setup = await setUpEngine(agent, dir, "cancel", () => ({ text: WRITTEN_DOCUMENT, delayMs: SLOW_MODEL_MS }));
  try {
    await checks.run(
      agent.name,
      "engine: Ctrl-C while the agent waits for the model: exit 130, the agent ended with it, nothing written or left",
      async () => {
        const proc = Bun.spawn(handoffCommand(setup, []), {
          cwd: setup.sandbox.project,
          env: setup.env,
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        });
        const asked = () => setup.fake.modelRequests(setup.engine.wire).length > 0;
        const deadline = Date.now() + 60_000;
        while (!asked() && Date.now() < deadline && proc.exitCode === null) await Bun.sleep(100);
        const sent = asked();
        // The agent, seen running beside us: so "nothing left running" below can fail.
        const during = processesWithHome(setup.sandbox.home).filter((line) => !line.startsWith(`${proc.pid} `));
        proc.kill("SIGINT");
        const started = performance.now();
        const killer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
        const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
        const code = await proc.exited;
        clearTimeout(killer);
        const seconds = (performance.now() - started) / 1000;
        await Bun.sleep(500);
        const left = processesWithHome(setup.sandbox.home);
        const holding = filesHolding(setup.sandbox.home, [setup.sandbox.home, setup.sandbox.tmp], LAST_REQUEST);
        must(sent, `the agent sent the model no request within 60 s; stderr: ${stderr.trim().slice(-300)}`);
        must(during.length > 0, "no agent process seen while it waited: the check of what is left could not fail");
        return allOf([
          () => must(code === 130, `exit ${code}, not 130; stderr: ${stderr.trim().slice(-300)}`),
          () => must(stdout === "", `stdout: ${stdout.slice(0, 120)}`),
          () => must(!existsSync(handedOffPath(setup)), "a session was written"),
          () => must(left.length === 0, `still running: ${left.join("; ")}`),
          () => must(holding.length === 0, `the prompt is kept in ${holding.join(", ")}`),
          () => `ended ${seconds.toFixed(1)}s after SIGINT, with ${during.length} agent process${during.length === 1 ? "" : "es"}`,
        ]);
      },
    );
  } finally {
    await setup.fake.stop();
  }
}

/** Every failure case for every installed agent, and Ctrl-C. */
export async function checkEngineFailures(
  agents: readonly Agent[],
  dirs: ReadonlyMap<string, string>,
  checks: Checks,
  dns: DnsLog,
): Promise<void> {
  for (const agent of withEngines(agents)) {
    for (const [index, failure] of CASES.entries()) await checkCase(agent, dirs.get(agent.name) ?? "", failure, index, checks, dns);
    await checkCancel(agent, dirs.get(agent.name) ?? "", checks);
  }
}
