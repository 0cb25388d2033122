/**
 * The offer before the context rots (issue 25, item 6) with the real agents: after `agent
 * integrate <agent> --offer 80`, turns whose usage the fake model reports as past 80% of the
 * window make the agent show our one line offering the handoff command, once per crossing (Claude
 * Code's `--before-compact`: in-agent-compact.ts).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import { withFiles, type Agent, type FileAgentInstall } from "../agents.ts";
import { agentEnv, configureAgent } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent } from "../sandbox.ts";
import { CLAUDE_REPLY, claudeEnv, projectFolder, runClaude } from "./claude-code.ts";
import { codexEnv, execStart, prepareCodex } from "./codex.ts";
import { settledScreen } from "./in-agent-runs.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";
import { placeSource } from "./in-agent-extension.ts";
import { checkClaudeCodeBeforeCompact } from "./in-agent-compact.ts";
import { claudeTurn, integrate } from "./in-agent-runs.ts";
import { must, type Checks } from "./report.ts";
import { driveRpc } from "./rpc-drive.ts";
import { TARGETS, type TargetRun } from "./targets.ts";

const OFFER = /Context (\d+)% full \(([\d,]+) of ([\d,]+) tokens\): type (\S+) to continue in a fresh session with a handoff document\./g;

function offersIn(text: string): string[] {
  return [...text.matchAll(OFFER)].map((match) => match[0]);
}

async function checkClaudeCodeOffer(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-offer-claude-code");
  let tokens = 1000;
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: CLAUDE_REPLY, inputTokens: tokens }));
  try {
    await checks.run(agent.name, "--offer 80: the Stop hook's line appears once after the context passes 80%, and not before", async () => {
      await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-OFFER: the first turn");
      const [name] = readdirSync(projectFolder(sandbox)).filter((f) => f.endsWith(".jsonl"));
      must(name !== undefined, "Claude Code wrote no session");
      const id = name.replace(/\.jsonl$/, "");
      const env = claudeEnv(sandbox, fake);
      await integrate(sandbox, env, ["claude-code", "--offer", "80"], dns);
      const seen: string[][] = [];
      for (const [turn, usage] of [1000, 170_000, 170_000, 170_000].entries()) {
        tokens = usage;
        const run = await claudeTurn(agent, dir, sandbox, env, id, `COMPAT-OFFER: turn ${turn + 2}`, dns);
        seen.push(offersIn(`${run.stdout}\n${run.stderr}`));
        if (turn === 3 && seen.flat().length === 0)
          must(false, `no offer after three turns past 80%; the last printed: ${run.stdout.slice(-1500)}`);
      }
      must(seen[0]?.length === 0, `offered below the share: ${seen[0]?.join(" | ")}`);
      const all = seen.flat();
      must(all.length === 1, `offered ${all.length} times past the share (once per crossing): ${all.join(" | ")}`);
      const at = seen.findIndex((offers) => offers.length > 0);
      return `turn ${at + 2} showed: ${all[0]}`;
    });
  } finally {
    await fake.stop();
  }
}

/**
 * Codex: `codex exec resume` turns past 80% of the window Codex records. What `codex exec` prints of a
 * Stop hook's systemMessage is what this finds out (its TUI shows it as the hook's warning).
 */
async function checkCodexOffer(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-offer-codex");
  let tokens = 1000;
  const fake = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on.", inputTokens: tokens }), ["gpt-5"]);
  try {
    await checks.run(agent.name, "--offer 80: after turns past 80% of model_context_window the Stop hook answers once", async () => {
      const codexHome = prepareCodex(sandbox, fake);
      const id = await execStart(agent, dir, sandbox, codexHome, "COMPAT-OFFER: the first turn", dns);
      must(id !== undefined, "codex exec named no thread");
      const env = codexEnv(sandbox, codexHome);
      await integrate(sandbox, env, ["codex", "--offer", "80"], dns);
      const outputs: string[] = [];
      for (const [turn, usage] of [1000, 250_000, 250_000].entries()) {
        tokens = usage;
        const run = await runAgent(
          [
            join(dir, agent.bin),
            "exec",
            "--skip-git-repo-check",
            "--json",
            "--dangerously-bypass-hook-trust",
            "resume",
            id,
            `COMPAT-OFFER: turn ${turn + 2}`,
          ],
          { cwd: sandbox.project, env, timeoutMs: 120_000 },
          dns,
        );
        must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
        must(run.exitCode === 0, describeRun(run));
        outputs.push(`${run.stdout}\n${run.stderr}`);
      }
      const offers = outputs.map(offersIn);
      must(offers[0]?.length === 0, `offered below the share: ${offers[0]?.join(" | ")}`);
      // The state says whether the hook offered, whatever codex exec prints of it.
      const offered = readdirSync(join(sandbox.home, ".local/state/agent/offers")).filter((f) => f === `codex-${id}.offered`);
      must(offered.length === 1, `the hook did not offer (state: ${offered.join(", ") || "none"})`);
      const shown = offers.flat();
      must(shown.length <= 1, `shown ${shown.length} times`);
      const hookLines = outputs
        .join("\n")
        .split("\n")
        .filter((line) => /hook/i.test(line) && /Stop/.test(line))
        .slice(0, 3);
      return shown.length === 1
        ? `codex exec shows it: ${shown[0]}`
        : `the hook offered (its state is written); codex exec prints none of it: ${hookLines.join(" | ").slice(0, 300) || "no Stop line"}`;
    });
  } finally {
    await fake.stop();
  }
}

/** Codex's running TUI (tmux): after the hooks are trusted, a turn past 80% shows the Stop hook's line. */
async function checkCodexTuiOffer(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-offer-codex-tui");
  let tokens = 1000;
  const fake = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on.", inputTokens: tokens }), ["gpt-5"]);
  try {
    await checks.run(agent.name, "in the TUI: --offer 80 shows the Stop hook's line after a turn past 80%", async () => {
      const codexHome = prepareCodex(sandbox, fake, ["check_for_update_on_startup = false", "tui.show_tooltips = false"]);
      const id = await execStart(agent, dir, sandbox, codexHome, "COMPAT-OFFER: the first turn", dns);
      must(id !== undefined, "codex exec named no thread");
      const env = codexEnv(sandbox, codexHome);
      await integrate(sandbox, env, ["codex", "--offer", "80"], dns);
      const terminal = openTerminal({
        argv: [join(dir, agent.bin), "--no-daemon", "resume", id],
        cwd: sandbox.project,
        env,
        sandbox,
        rows: 60,
      });
      if (terminal === undefined) return "not checked: tmux is not installed";
      try {
        const first = compactScreen(await settledScreen(terminal, 40_000));
        must(/Hooks need review/i.test(first), `Codex did not ask to trust the hooks:\n${first.slice(-1200)}`);
        await terminal.typeLine("2");
        await settledScreen(terminal, 20_000);
        tokens = 250_000;
        await terminal.typeLine("COMPAT-OFFER: a turn past the share");
        const shown = await waitFor(() => /Context \d+% full/.test(terminal.screen().replace(/\s+/g, " ")), 60_000);
        const screen = compactScreen(await settledScreen(terminal, 10_000));
        must(shown, `no offer on the screen:\n${screen.slice(-1500)}`);
        const lines = screen
          .split("\n")
          .filter((line) => /Context|Stop|hook|handoff/i.test(line))
          .map((line) => line.trim());
        return lines.join(" | ").slice(0, 400);
      } finally {
        terminal.close();
      }
    });
  } finally {
    await fake.stop();
  }
}

/** pi and omp over RPC: a turn past 80% of the fake model's 200,000-token window, then another. */
async function checkExtensionOffer(agent: FileAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  if (agent.name !== "pi" && agent.name !== "omp") return;
  const name = agent.name;
  const sandbox = createSandbox(`${name}-in-agent-offer`);
  let tokens = 170_000;
  const fake = startFakeModelServer(
    () => ({ text: "COMPAT-REPLY: carrying on.", inputTokens: tokens }),
    ["gpt-5", "gpt-5.1", "claude-sonnet-4-5", "claude-opus-4-5"],
  );
  const run: TargetRun = { agent, dir, sandbox, fake, dns };
  const command = name === "pi" ? "/handoff" : "/agent-handoff";
  try {
    await checks.run(agent.name, `in-agent: --offer 80: after a turn past 80% the extension notifies ${command} once`, async () => {
      TARGETS[name].prepare(run);
      // omp compacts a session this full by itself in the background, through a remote model the sandbox does not have.
      if (name === "omp")
        configureAgent(agent, sandbox, fake.origin, dir, {
          modelRoles: { default: "openai/gpt-5.1" },
          startup: { checkUpdate: false },
          compaction: { enabled: false },
        });
      const env = sandbox.env();
      await integrate(sandbox, { ...env, PATH: `${join(dir, "node_modules", ".bin")}:${env.PATH ?? ""}` }, [name, "--offer", "80"], dns);
      const source = placeSource(name, sandbox);
      const flags =
        name === "pi" ? ["--offline", "--no-skills", "--no-context-files"] : ["--no-skills", "--no-rules", "--no-lsp", "--no-title"];
      const argv = [join(dir, agent.bin), "--mode", "rpc", ...flags, "--session", source];
      const isOffer = (event: unknown) =>
        isObject(event) &&
        event.type === "extension_ui_request" &&
        event.method === "notify" &&
        /Context \d+% full/.test(String(event.message));
      const rpc = await driveRpc(argv, { cwd: sandbox.project, env: agentEnv(sandbox) }, dns, async (session) => {
        await session.request({ type: "prompt", message: "COMPAT-NEXT: a turn past the share" });
        await session.waitFor((event) => event.type === "agent_end", 120_000);
        const offer = await session.waitFor(isOffer, 60_000);
        tokens = 180_000;
        await session.request({ type: "prompt", message: "COMPAT-NEXT: another turn past it" });
        await session.waitFor((event) => event.type === "agent_end", 120_000);
        // The check after this turn answers in well under this: no second line may come.
        await Bun.sleep(8_000);
        return String(offer.message);
      });
      must(rpc.outside.length === 0, `tried to reach ${rpc.outside.join(", ")}`);
      const offers = rpc.events.filter(isOffer).map((e) => String(e.message));
      must(offers.length === 1, `${offers.length} offers for two turns past the share: ${offers.join(" | ")}`);
      must(rpc.result.includes(`type ${command} to continue`), `the notice does not name ${command}: ${rpc.result}`);
      must(/of 200,000 tokens/.test(rpc.result), `the notice does not use the model's window as ${name} knows it: ${rpc.result}`);
      return rpc.result;
    });
  } finally {
    await fake.stop();
  }
}

/** The offer's checks for the agents given (Claude Code, pi, omp). */
export async function checkInAgentOffer(
  agents: readonly Agent[],
  dirs: ReadonlyMap<string, string>,
  checks: Checks,
  dns: DnsLog,
): Promise<void> {
  for (const agent of agents) {
    const dir = dirs.get(agent.name) ?? "";
    if (agent.name === "codex") await checkCodexOffer(agent, dir, checks, dns);
    if (agent.name === "codex") await checkCodexTuiOffer(agent, dir, checks, dns);
    if (agent.name !== "claude-code") continue;
    await checkClaudeCodeOffer(agent, dir, checks, dns);
    await checkClaudeCodeBeforeCompact(agent, dir, checks, dns);
  }
  for (const agent of withFiles(agents)) await checkExtensionOffer(agent, dirs.get(agent.name) ?? "", checks, dns);
}
