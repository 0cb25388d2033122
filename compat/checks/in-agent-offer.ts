/**
 * The offer before the context rots (issue 25, item 6) with the real agents: after `agent
 * integrate <agent> --offer 80`, turns whose usage the fake model reports as past 80% of the
 * window make the agent show our one line offering the handoff command, once per crossing; and
 * Claude Code's `--before-compact`: an automatic compaction (forced by
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW` and `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`) first writes the
 * handoff session, and the next turn's end names it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import { withFiles, type Agent, type FileAgentInstall } from "../agents.ts";
import { agentEnv, configureAgent } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";
import { CLAUDE_REPLY, claudeEnv, projectFolder, runClaude } from "./claude-code.ts";
import { codexEnv, execStart, prepareCodex } from "./codex.ts";
import { settledScreen } from "./in-agent.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";
import { placeSource } from "./in-agent-extension.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";
import { driveRpc } from "./rpc-drive.ts";
import { TARGETS, type TargetRun } from "./targets.ts";

const OFFER = /Context (\d+)% full \(([\d,]+) of ([\d,]+) tokens\): type (\S+) to continue in a fresh session with a handoff document\./g;

/** `agent integrate <args…>` as the user runs it (Bun and our script), in the sandbox. */
async function integrate(sandbox: Sandbox, env: Record<string, string>, args: string[], dns: DnsLog): Promise<AgentRun> {
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "integrate", ...args],
    { cwd: sandbox.project, env, timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent integrate ${args.join(" ")} failed: ${describeRun(run)}`);
  return run;
}

function offersIn(text: string): string[] {
  return [...text.matchAll(OFFER)].map((match) => match[0]);
}

/** One `claude -p --resume <id>` turn, its output as stream-json (hook output included). */
async function claudeTurn(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  env: Record<string, string>,
  id: string,
  prompt: string,
  dns: DnsLog,
) {
  const run = await runAgent(
    [join(dir, agent.bin), "-p", "--resume", id, "--output-format", "stream-json", "--verbose", prompt],
    { cwd: sandbox.project, env, timeoutMs: 180_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  return run;
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

async function checkClaudeCodeBeforeCompact(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-before-compact-claude-code");
  const fake: FakeModelServer = startFakeModelServer(() => ({ text: CLAUDE_REPLY, inputTokens: 5000 }));
  try {
    await checks.run(
      agent.name,
      "--before-compact: a forced auto compaction writes the handoff session first, and the next Stop names it",
      async () => {
        await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-COMPACT: the first task, handed off before compacting");
        const folder = projectFolder(sandbox);
        const [name] = readdirSync(folder).filter((f) => f.endsWith(".jsonl"));
        must(name !== undefined, "Claude Code wrote no session");
        const id = name.replace(/\.jsonl$/, "");
        const env = claudeEnv(sandbox, fake);
        await integrate(sandbox, env, ["claude-code", "--before-compact"], dns);
        const forced = {
          ...env,
          AGENT_HOOK_ENGINE: "offline",
          CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000",
          CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "1",
        };
        const outputs: string[] = [];
        let made: string[] = [];
        const compacted = () => readFileSync(join(folder, name), "utf8").includes('"compact_boundary"');
        for (let turn = 0; turn < 3 && made.length === 0; turn++) {
          const run = await claudeTurn(agent, dir, sandbox, forced, id, `COMPAT-COMPACT: turn ${turn + 2}`, dns);
          outputs.push(`${run.stdout}\n${run.stderr}`);
          made = readdirSync(folder).filter((f) => f.endsWith(".jsonl") && f !== name);
        }
        must(
          made.length === 1,
          `expected one handoff session beside the source, found ${made.length}; last output: ${outputs.at(-1)?.slice(-1500)}`,
        );
        const newId = made[0]?.replace(/\.jsonl$/, "") ?? "";
        const text = readFileSync(join(folder, made[0] ?? ""), "utf8");
        must(text.includes("<handoff-context>"), "the session written before compacting holds no handoff document");
        must(text.includes("COMPAT-COMPACT: the first task"), "the document is not about the session being compacted");
        // Claude Code 2.1.328 in `claude -p` runs the PreCompact hook when the forced threshold is passed, but (against the
        // fake model) sends no compaction request and writes no compact_boundary: said, not required (see docs/in-agent.md).
        const didCompact = compacted();
        const line = `Before compacting, agent wrote a handoff session ${newId}`;
        // The Stop of the turn that compacted names it; else the next turn's.
        let named = outputs.some((output) => output.includes(line));
        if (!named) {
          const run = await claudeTurn(agent, dir, sandbox, forced, id, "COMPAT-COMPACT: one more turn", dns);
          outputs.push(`${run.stdout}\n${run.stderr}`);
          named = outputs.at(-1)?.includes(line) ?? false;
        }
        must(named, `no Stop line named ${newId}; last output: ${outputs.at(-1)?.slice(-1500)}`);
        must(outputs.join("\n").split(line).length === 2, "the line was shown more than once");
        return `handoff session ${newId} written by the PreCompact hook, named at the end of turn ${outputs.findIndex((o) => o.includes(line)) + 2}; Claude Code ${didCompact ? "compacted" : "did not compact"} the source`;
      },
    );
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
      const offered = readdirSync(join(sandbox.home, ".local/state/agent/offers")).filter((f) => f.startsWith(`codex-${id}`));
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
