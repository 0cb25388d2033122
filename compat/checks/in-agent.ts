/**
 * `/handoff` inside the real agents (issue 25): after `agent integrate <agent>`, the agent's own
 * headless run of `/handoff <focus>` (Claude Code: `claude -p --resume <sid> "/handoff F"`;
 * Codex: `codex exec --dangerously-bypass-hook-trust resume <id> '$handoff F'`) runs our hook,
 * which hands off THAT session (in a home with history it is not the newest of the folder) with
 * the offline engine: no model request at all, the new session holds the document and the
 * focus, the agent prints the line with `/resume <id>`, and the source keeps its bytes (the
 * agent may add the line it writes for a blocked prompt). Resuming the new session by id then
 * sends the document to the fake model. (The running screens: in-agent-tui.ts.)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent } from "../sandbox.ts";
import { CLAUDE_REPLY, claudeEnv, projectFolder, runClaude } from "./claude-code.ts";
import { codexEnv, execResume, execStart, prepareCodex } from "./codex.ts";
import { checkClaudeCodeTui, checkCodexTui } from "./in-agent-tui.ts";
import { announced, checkNewSession, FIRST, FOCUS, HANDOFF_OPEN, integrate, jsonlIn, NEXT, rollouts, SECOND } from "./in-agent-runs.ts";
import { must, type Checks } from "./report.ts";

async function checkClaudeCode(agent: Agent, dir: string, checks: Checks, dns: DnsLog, withHistory: boolean): Promise<void> {
  const where = withHistory ? "in a home with history" : "in a fresh home";
  const sandbox = createSandbox(`in-agent-claude-code${withHistory ? "-used" : ""}`);
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: CLAUDE_REPLY }));
  try {
    await checks.run(agent.name, `${where}: /handoff <focus> inside claude -p hands off THAT session, with no model request`, async () => {
      await runClaude(agent, dir, sandbox, fake, dns, FIRST);
      const [sourceName] = jsonlIn(projectFolder(sandbox));
      must(sourceName !== undefined, "Claude Code wrote no session");
      const sourceId = sourceName.replace(/\.jsonl$/, "");
      if (withHistory) await runClaude(agent, dir, sandbox, fake, dns, SECOND);
      const env = claudeEnv(sandbox, fake);
      await integrate(sandbox, env, ["claude-code"], dns);
      const source = join(projectFolder(sandbox), sourceName);
      const sourceBefore = readFileSync(source, "utf8");
      const requestsBefore = fake.modelRequests().length;
      const run = await runAgent(
        [join(dir, agent.bin), "-p", "--resume", sourceId, `/handoff ${FOCUS}`],
        { cwd: sandbox.project, env: { ...env, AGENT_HOOK_ENGINE: "offline" }, timeoutMs: 120_000 },
        dns,
      );
      must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
      must(
        fake.modelRequests().length === requestsBefore,
        `${fake.modelRequests().length - requestsBefore} model request(s) during /handoff`,
      );
      const { id, file } = announced(`${run.stdout}\n${run.stderr}`);
      must(file.startsWith(projectFolder(sandbox)), `the new session is not in the project's folder: ${file}`);
      checkNewSession(file, sourceId);
      must(readFileSync(source, "utf8").startsWith(sourceBefore), "the source session lost or changed bytes");
      const request = await runClaude(agent, dir, sandbox, fake, dns, NEXT, ["--resume", id]);
      must(JSON.stringify(request.messages).includes(HANDOFF_OPEN), "resuming the new session did not send the document");
      return `new session ${id}; printed: ${run.stdout.trim().split("\n")[0]?.slice(0, 160)}`;
    });
  } finally {
    await fake.stop();
  }
}

async function checkCodex(agent: Agent, dir: string, checks: Checks, dns: DnsLog, withHistory: boolean): Promise<void> {
  const where = withHistory ? "in a home with history" : "in a fresh home";
  const sandbox = createSandbox(`in-agent-codex${withHistory ? "-used" : ""}`);
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on." }), ["gpt-5"]);
  try {
    await checks.run(agent.name, `${where}: $handoff <focus> inside codex exec hands off THAT session, with no model request`, async () => {
      const codexHome = prepareCodex(sandbox, fake);
      const sourceId = await execStart(agent, dir, sandbox, codexHome, FIRST, dns);
      must(sourceId !== undefined, "codex exec named no thread");
      if (withHistory) await execStart(agent, dir, sandbox, codexHome, SECOND, dns);
      const env = codexEnv(sandbox, codexHome);
      const configBefore = readFileSync(join(codexHome, "config.toml"), "utf8");
      const said = await integrate(sandbox, env, ["codex"], dns);
      must(said.stdout.includes("Hooks need review"), `integrate did not say that Codex asks to trust the hook: ${said.stdout}`);
      must(
        readFileSync(join(codexHome, "config.toml"), "utf8") === configBefore,
        "integrate changed Codex's config.toml (no trust entry may be written)",
      );
      const source = rollouts(codexHome).find((path) => path.includes(sourceId));
      must(source !== undefined, `no rollout of thread ${sourceId}`);
      const sourceBefore = readFileSync(source, "utf8");
      const rolloutsBefore = new Set(rollouts(codexHome));
      const requestsBefore = fake.modelRequests().length;
      const run = await runAgent(
        [
          join(dir, agent.bin),
          "exec",
          "--skip-git-repo-check",
          "--json",
          "--dangerously-bypass-hook-trust",
          "resume",
          sourceId,
          `$handoff ${FOCUS}`,
        ],
        { cwd: sandbox.project, env: { ...env, AGENT_HOOK_ENGINE: "offline" }, timeoutMs: 120_000 },
        dns,
      );
      must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
      must(
        fake.modelRequests().length === requestsBefore,
        `${fake.modelRequests().length - requestsBefore} model request(s) during $handoff; ${describeRun(run)}`,
      );
      // `codex exec` shows only "hook: UserPromptSubmit Blocked", not the hook's text (its TUI shows the text): the new rollout is found on disk.
      const made = rollouts(codexHome).filter((path) => !rolloutsBefore.has(path));
      must(made.length === 1, `expected one new rollout, found ${made.length}: ${made.join(", ")}`);
      const file = made[0] ?? "";
      const id = /-([0-9a-f-]{36})\.jsonl$/.exec(file)?.[1] ?? "";
      checkNewSession(file, sourceId);
      const written = readFileSync(file, "utf8");
      must(readFileSync(source, "utf8").startsWith(sourceBefore), "the source rollout lost or changed bytes");
      const { thread, input } = await execResume(agent, dir, sandbox, codexHome, fake, [id], NEXT, dns);
      must(thread === id, `codex exec resume ${id} continued ${thread}`);
      must(JSON.stringify(input).includes(HANDOFF_OPEN), "resuming the new session did not send the document");
      // The document is about the turns before the prompt, never the prompt itself.
      must(!written.includes(`$handoff ${FOCUS}`), "the document holds the $handoff prompt itself");
      const recorded = readFileSync(source, "utf8").slice(sourceBefore.length).includes(`$handoff ${FOCUS}`);
      return `new session ${id}; codex exec printed none of the hook's text; the source ${recorded ? "holds" : "does not hold"} the blocked prompt`;
    });
    if (withHistory) return;
    await checks.run(
      agent.name,
      "codex exec with the hook not trusted yet: the hook does not run, $handoff reaches the model",
      async () => {
        const codexHome = join(sandbox.home, ".codex");
        const threads = rollouts(codexHome).length;
        const requestsBefore = fake.modelRequests().length;
        const run = await runAgent(
          [join(dir, agent.bin), "exec", "--skip-git-repo-check", "--json", `$handoff ${FOCUS}`],
          { cwd: sandbox.project, env: { ...codexEnv(sandbox, codexHome), AGENT_HOOK_ENGINE: "offline" }, timeoutMs: 120_000 },
          dns,
        );
        must(run.exitCode === 0, describeRun(run));
        // Its own new thread only: no handoff session besides it.
        must(rollouts(codexHome).length === threads + 1, `${rollouts(codexHome).length - threads} new rollouts; the hook ran untrusted?`);
        must(fake.modelRequests().length > requestsBefore, "no model request: the prompt did not reach the model");
        return `${fake.modelRequests().length - requestsBefore} model request(s); stderr: ${
          run.stderr
            .trim()
            .split("\n")
            .filter((l) => /hook/i.test(l))
            .join(" | ") || "nothing about hooks"
        }`;
      },
    );
  } finally {
    await fake.stop();
  }
}

/**
 * Whether Codex reads the `timeout` key `integrate` writes: a hook that sleeps past `timeout: 2`
 * and would then block is cut off, so the prompt reaches the model.
 */
async function checkCodexTimeoutKey(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-codex-timeout");
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on." }), ["gpt-5"]);
  try {
    await checks.run(agent.name, "reads the timeout key of a hooks.json entry (a hook past it is cut off)", async () => {
      const codexHome = prepareCodex(sandbox, fake);
      const block = JSON.stringify({ decision: "block", reason: "COMPAT-LATE" });
      const entry = { hooks: [{ type: "command", command: `sleep 8; printf '%s\\n' '${block}'`, timeout: 2 }] };
      writeFileSync(join(codexHome, "hooks.json"), `${JSON.stringify({ hooks: { UserPromptSubmit: [entry] } }, null, 2)}\n`);
      const before = fake.modelRequests().length;
      const started = performance.now();
      const run = await runAgent(
        [join(dir, agent.bin), "exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-hook-trust", "COMPAT-TIMEOUT: hello"],
        { cwd: sandbox.project, env: codexEnv(sandbox, codexHome), timeoutMs: 60_000 },
        dns,
      );
      const seconds = (performance.now() - started) / 1000;
      must(run.exitCode === 0, describeRun(run));
      must(fake.modelRequests().length > before, `the late hook still blocked the prompt after ${seconds.toFixed(1)} s: timeout not read`);
      must(seconds < 8, `the run waited ${seconds.toFixed(1)} s, the hook's whole sleep`);
      return `cut off: the prompt reached the model after ${seconds.toFixed(1)} s`;
    });
  } finally {
    await fake.stop();
  }
}

/** The in-agent family: each of Claude Code and Codex, in a fresh home and in one with history. */
export async function checkInAgent(
  agents: readonly Agent[],
  dirs: ReadonlyMap<string, string>,
  checks: Checks,
  dns: DnsLog,
): Promise<void> {
  for (const agent of agents) {
    const dir = dirs.get(agent.name) ?? "";
    for (const withHistory of [false, true]) {
      if (agent.name === "claude-code") await checkClaudeCode(agent, dir, checks, dns, withHistory);
      if (agent.name === "codex") await checkCodex(agent, dir, checks, dns, withHistory);
    }
    if (agent.name === "codex") await checkCodexTimeoutKey(agent, dir, checks, dns);
    if (agent.name === "codex") await checkCodexTui(agent, dir, checks, dns);
    if (agent.name === "claude-code") await checkClaudeCodeTui(agent, dir, checks, dns);
  }
}
