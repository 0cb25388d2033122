/**
 * `/handoff` inside the real agents (issue 25): after `agent integrate <agent>`, the agent's own
 * headless run of `/handoff <focus>` (Claude Code: `claude -p --resume <sid> "/handoff F"`;
 * Codex: `codex exec --dangerously-bypass-hook-trust resume <id> '$handoff F'`) runs our hook,
 * which hands off THAT session (in a home with history it is not the newest of the folder) with
 * the offline engine: no model request at all, the new session holds the document and the
 * focus, the agent prints the line with `/resume <id>`, and the source keeps its bytes (the
 * agent may add the line it writes for a blocked prompt). Resuming the new session by id then
 * sends the document to the fake model.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";
import { FAKE_KEY } from "../agent-setup.ts";
import { CLAUDE_REPLY, claudeConfigDir, claudeEnv, projectFolder, runClaude } from "./claude-code.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";
import { codexEnv, execResume, execStart, prepareCodex } from "./codex.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";

const FIRST = "COMPAT-INAGENT: the first task, the one handed off";
const SECOND = "COMPAT-INAGENT: a later task in another session";
const FOCUS = "COMPAT-FOCUS finish $(touch pwned) the parser";
const NEXT = "COMPAT-NEXT: what is next?";
const HANDOFF_OPEN = "<handoff-context>";

/** `agent integrate <agent>` as the user runs it (Bun and our script, by absolute path), in the sandbox. */
async function integrate(sandbox: Sandbox, env: Record<string, string>, agent: string, dns: DnsLog): Promise<AgentRun> {
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "integrate", agent],
    { cwd: sandbox.project, env, timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent integrate ${agent} failed: ${describeRun(run)}`);
  return run;
}

function jsonlIn(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".jsonl")) : [];
}

/** Every rollout file under Codex's sessions folder. */
function rollouts(codexHome: string): string[] {
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
function announced(text: string): { id: string; file: string } {
  const match = /New session ([0-9a-f-]{36}): (\S+\.jsonl)[\s\S]*?\/resume \1/.exec(text);
  must(match !== null, `no "New session <id>: <file> … /resume <id>" line in what the agent printed: ${text.slice(-1500)}`);
  return { id: match[1] ?? "", file: match[2] ?? "" };
}

function checkNewSession(file: string, sourceId: string): void {
  const text = readFileSync(file, "utf8");
  must(text.includes(HANDOFF_OPEN), "the new session holds no handoff document");
  must(text.includes("COMPAT-FOCUS finish $(touch pwned) the parser"), "the focus did not reach the document as typed");
  must(text.includes(FIRST.slice(0, 40)), "the document is not about the session the hook was called from");
  must(!text.includes(SECOND.slice(0, 40)), "the document holds the other (newer) session: the hook handed off the wrong one");
  must(text.includes(sourceId), "the document's Session Facts do not name the source session");
}

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
      await integrate(sandbox, env, "claude-code", dns);
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
      const said = await integrate(sandbox, env, "codex", dns);
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

/** The conversation request carrying `text` after request `from`, as a string; undefined when none came. */
function requestWith(fake: FakeModelServer, from: number, text: string): string | undefined {
  return fake.requests
    .slice(from)
    .map((request) => JSON.stringify(request.body))
    .find((body) => body.includes(text));
}

/**
 * In Claude Code's running TUI (tmux): `/handoff <focus>` shows our line, `/resume <id>` switches
 * to the new session, and the next prompt's request carries the document and lands in the new file.
 */
async function checkClaudeCodeTui(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-claude-code-tui");
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: CLAUDE_REPLY }));
  try {
    await checks.run(
      agent.name,
      "in the TUI: /handoff shows the line, /resume <id> switches, the next prompt lands in the new session",
      async () => {
        await runClaude(agent, dir, sandbox, fake, dns, FIRST);
        const [sourceName] = jsonlIn(projectFolder(sandbox));
        must(sourceName !== undefined, "Claude Code wrote no session");
        const env = claudeEnv(sandbox, fake);
        await integrate(sandbox, env, "claude-code", dns);
        // Its screen asks for a theme, trust in the folder and approval of the key on a first start.
        const state = {
          hasCompletedOnboarding: true,
          theme: "dark",
          customApiKeyResponses: { approved: [FAKE_KEY.slice(-20)], rejected: [] },
          projects: { [sandbox.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
        };
        writeFileSync(join(claudeConfigDir(sandbox), ".claude.json"), JSON.stringify(state));
        const terminal = openTerminal({
          argv: [join(dir, agent.bin), "--resume", sourceName.replace(/\.jsonl$/, "")],
          cwd: sandbox.project,
          env: { ...env, AGENT_HOOK_ENGINE: "offline" },
          sandbox,
          rows: 60,
        });
        if (terminal === undefined) return "not checked: tmux is not installed";
        try {
          let last = "";
          await waitFor(() => {
            const screen = terminal.screen();
            const settled = screen.trim() !== "" && screen === last;
            last = screen;
            return settled;
          }, 40_000);
          const requestsBefore = fake.modelRequests().length;
          await terminal.typeLine(`/handoff ${FOCUS}`);
          const shown = await waitFor(() => /New session [0-9a-f-]{36}/.test(terminal.screen().replace(/\s+/g, " ")), 60_000);
          const screen = compactScreen(terminal.screen());
          must(shown, `the screen does not show the new session:\n${screen.slice(-1500)}`);
          must(fake.modelRequests().length === requestsBefore, "a model request during /handoff");
          const id = /New session ([0-9a-f-]{36})/.exec(screen.replace(/\s+/g, " "))?.[1] ?? "";
          const said = screen
            .split("\n")
            .filter((line) => /blocked by hook|New session|\/resume/.test(line))
            .map((line) => line.trim())
            .join(" | ");
          must(
            /blocked by hook/i.test(screen) && screen.replace(/\s+/g, " ").includes(`/resume ${id}`),
            `the screen lacks the block line or /resume ${id}:\n${screen.slice(-1500)}`,
          );
          await terminal.typeLine(`/resume ${id}`);
          await Bun.sleep(3_000);
          const from = fake.requests.length;
          await terminal.typeLine(NEXT);
          for (let tries = 0; tries < 8 && requestWith(fake, from, NEXT) === undefined; tries++) {
            if (!(await waitFor(() => requestWith(fake, from, NEXT) !== undefined, 5_000))) terminal.pressEnter();
          }
          const sent = requestWith(fake, from, NEXT);
          must(sent !== undefined, `the next prompt was not sent:\n${compactScreen(terminal.screen()).slice(-1500)}`);
          must(sent.includes(HANDOFF_OPEN), "the next prompt's request does not carry the document");
          const file = join(projectFolder(sandbox), `${id}.jsonl`);
          await waitFor(() => readFileSync(file, "utf8").includes(NEXT), 10_000);
          must(readFileSync(file, "utf8").includes(NEXT), "the next prompt did not land in the new session's file");
          must(!readFileSync(join(projectFolder(sandbox), sourceName), "utf8").includes(NEXT), "the next prompt landed in the source too");
          return `new session ${id}; the screen said: ${said}`;
        } finally {
          terminal.close();
        }
      },
    );
  } finally {
    await fake.stop();
  }
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

/**
 * In Codex's running TUI (tmux): it asks once to trust the new hook ("Hooks need review"); then
 * `$handoff <focus>` shows our line, `/resume <id>` switches to the new rollout, and the next
 * prompt's request carries the document.
 */
async function checkCodexTui(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-codex-tui");
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on." }), ["gpt-5"]);
  try {
    await checks.run(
      agent.name,
      "in the TUI: asks once to trust the hook, $handoff shows the line, /resume <id> switches, the next prompt lands in the new rollout",
      async () => {
        const codexHome = prepareCodex(sandbox, fake, ["check_for_update_on_startup = false", "tui.show_tooltips = false"]);
        const sourceId = await execStart(agent, dir, sandbox, codexHome, FIRST, dns);
        must(sourceId !== undefined, "codex exec named no thread");
        const env = codexEnv(sandbox, codexHome);
        await integrate(sandbox, env, "codex", dns);
        const terminal = openTerminal({
          argv: [join(dir, agent.bin), "--no-daemon", "resume", sourceId],
          cwd: sandbox.project,
          env: { ...env, AGENT_HOOK_ENGINE: "offline" },
          sandbox,
          rows: 60,
        });
        if (terminal === undefined) return "not checked: tmux is not installed";
        const steps: string[] = [];
        try {
          const first = compactScreen(await settledScreen(terminal, 40_000));
          steps.push(`start:\n${first.slice(-1200)}`);
          must(/Hooks need review/i.test(first), `Codex did not ask to trust the hook:\n${steps.join("\n---\n")}`);
          await terminal.typeLine("2");
          const trusted = compactScreen(await settledScreen(terminal, 20_000));
          steps.push(`after trust:\n${trusted.slice(-800)}`);
          const config = readFileSync(join(codexHome, "config.toml"), "utf8");
          // Written by Codex itself when the user trusts the hook, never by integrate.
          must(/trusted_hash = "sha256:/.test(config), `Codex wrote no trust entry:\n${steps.join("\n---\n")}`);
          const requestsBefore = fake.modelRequests().length;
          const source = rollouts(codexHome).find((path) => path.includes(sourceId)) ?? "";
          const sourceBefore = readFileSync(source, "utf8");
          await terminal.typeLine(`$handoff ${FOCUS}`);
          await waitFor(() => /New session [0-9a-f-]{36}/.test(terminal.screen().replace(/\s+/g, " ")), 30_000);
          const handed = compactScreen(await settledScreen(terminal, 10_000));
          steps.push(`after $handoff:\n${handed.slice(-1500)}`);
          const flat = handed.replace(/\s+/g, " ");
          const id = /New session ([0-9a-f-]{36})/.exec(flat)?.[1] ?? "";
          must(
            /Blocked by hook/.test(handed) && flat.includes(`Type /resume ${id} to continue in it.`),
            `the screen lacks the block or the /resume line:\n${steps.join("\n---\n")}`,
          );
          must(fake.modelRequests().length === requestsBefore, "a model request during $handoff");
          await terminal.typeLine(`/resume ${id}`);
          await Bun.sleep(3_000);
          const from = fake.requests.length;
          await terminal.typeLine(NEXT);
          for (let tries = 0; tries < 8 && requestWith(fake, from, NEXT) === undefined; tries++) {
            if (!(await waitFor(() => requestWith(fake, from, NEXT) !== undefined, 5_000))) terminal.pressEnter();
          }
          const sent = requestWith(fake, from, NEXT);
          must(sent !== undefined, `the next prompt was not sent:\n${compactScreen(terminal.screen()).slice(-1500)}`);
          must(sent.includes(HANDOFF_OPEN), "the next prompt's request does not carry the document");
          const file = rollouts(codexHome).find((path) => path.includes(id)) ?? "";
          await waitFor(() => readFileSync(file, "utf8").includes(NEXT), 10_000);
          must(readFileSync(file, "utf8").includes(NEXT), "the next prompt did not land in the new rollout");
          must(!readFileSync(source, "utf8").includes(NEXT), "the next prompt landed in the source too");
          const recorded = readFileSync(source, "utf8").slice(sourceBefore.length).includes(`$handoff ${FOCUS}`);
          const said = handed
            .split("\n")
            .filter((line) => /Blocked by hook|New session|\/resume/.test(line))
            .map((line) => line.trim())
            .join(" | ");
          return `new session ${id}; the source ${recorded ? "holds" : "does not hold"} the blocked prompt; the screen said: ${said}`;
        } finally {
          terminal.close();
        }
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
