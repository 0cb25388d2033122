/**
 * `/handoff` in the running TUIs of Claude Code and Codex (tmux), after `agent integrate`: the
 * line our hook shows, `/resume <id>` typed there switching to the new session, and the next
 * prompt's request carrying the document.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import { FAKE_KEY } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox } from "../sandbox.ts";
import { CLAUDE_REPLY, claudeConfigDir, claudeEnv, projectFolder, runClaude } from "./claude-code.ts";
import { codexEnv, execStart, prepareCodex } from "./codex.ts";
import { FIRST, FOCUS, HANDOFF_OPEN, integrate, jsonlIn, NEXT, rollouts, settledScreen } from "./in-agent-runs.ts";
import { must, type Checks } from "./report.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";

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
export async function checkClaudeCodeTui(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
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
        await integrate(sandbox, env, ["claude-code"], dns);
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

/**
 * In Codex's running TUI (tmux): it asks once to trust the new hook ("Hooks need review"); then
 * `$handoff <focus>` shows our line, `/resume <id>` switches to the new rollout, and the next
 * prompt's request carries the document.
 */
export async function checkCodexTui(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
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
        await integrate(sandbox, env, ["codex"], dns);
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
