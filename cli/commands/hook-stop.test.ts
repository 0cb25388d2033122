import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

/** `agent hook <agent> --stop …` at the end of each turn (the offer), as the agents call it (`--before-compact`: hook-before-compact.test.ts). */

const root = mkdtempSync(join(tmpdir(), "agent-hook-stop-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "6c1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
const CWD = join(root, "project");
mkdirSync(CWD);

type Agent = "claude-code" | "codex" | "pi" | "omp";

let homes = 0;
function homeWith(agent: Agent, extra: Record<string, string> = {}) {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home);
  const path = plantSession({ home, env: {}, tmpdir: tmpdir(), runFolder: CWD }, { agent, id: ID, cwd: CWD, mtime: 1_764_000_000 });
  const env = cleanEnv(home, { PATH: "/nonexistent", AGENT_HOOK_ENGINE: "offline", ...extra });
  return { home, path, env };
}

/** A newest answer with `tokens` in its context, as each agent records it. */
const ANSWER: Record<Agent, (tokens: number) => string> = {
  "claude-code": (tokens) =>
    JSON.stringify({
      type: "assistant",
      isSidechain: false,
      sessionId: ID,
      message: {
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: "ok" }],
        usage: { input_tokens: 4, cache_read_input_tokens: tokens - 4, output_tokens: 50 },
      },
    }),
  codex: (tokens) =>
    JSON.stringify({
      type: "event_msg",
      payload: { type: "token_count", info: { last_token_usage: { total_tokens: tokens }, model_context_window: 258_400 } },
    }),
  pi: (tokens) =>
    JSON.stringify({ type: "message", id: `a${tokens}`, message: { role: "assistant", model: "gpt-5", usage: { totalTokens: tokens } } }),
  omp: (tokens) =>
    JSON.stringify({ type: "message", id: `a${tokens}`, message: { role: "assistant", model: "gpt-5", usage: { totalTokens: tokens } } }),
};

function answered(path: string, agent: Agent, tokens: number): void {
  appendFileSync(path, `${ANSWER[agent](tokens)}\n`);
}

const bytes = (text: string) => new TextEncoder().encode(text);

function stopInput(path: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ session_id: ID, transcript_path: path, cwd: CWD, hook_event_name: "Stop", stop_hook_active: false, ...extra });
}

/** One end of a turn, as the agent calls the hook: JSON on stdin (Claude Code, Codex), argv from the extension (pi, omp). */
async function endTurn(agent: Agent, path: string, env: Record<string, string>, percent = 80, window?: number) {
  const offer = ["--stop", "--offer", String(percent)];
  if (agent === "pi" || agent === "omp") {
    const known = window === undefined ? [] : ["--window", String(window)];
    return runAgent(["hook", agent, ...offer, "--session", path, "--cwd", CWD, ...known], env);
  }
  return runAgent(["hook", agent, ...offer], env, REPO, bytes(stopInput(path)));
}

/** The one line the agent shows, from what the hook printed (nothing: undefined). */
function shown(agent: Agent, stdout: string): string | undefined {
  if (stdout === "") return undefined;
  expect(stdout.endsWith("}\n") && stdout.split("\n").length === 2).toBe(true);
  const answer = JSON.parse(stdout);
  // Never a block at the end of a turn: that would keep the agent going with our text as a prompt.
  expect(Object.keys(answer)).toEqual([agent === "pi" || agent === "omp" ? "message" : "systemMessage"]);
  return answer.message ?? answer.systemMessage;
}

const OFFERS: { agent: Agent; command: string; window: number; viaExtension?: number }[] = [
  { agent: "claude-code", command: "/handoff", window: 200_000 },
  { agent: "codex", command: "$handoff", window: 258_400 },
  { agent: "pi", command: "/handoff", window: 128_000, viaExtension: 128_000 },
  { agent: "omp", command: "/agent-handoff", window: 1_000_000, viaExtension: 1_000_000 },
];

describe.each(OFFERS)("the offer in $agent", ({ agent, command, window, viaExtension }) => {
  test("once per crossing: shown past the share, not on the turns after, again after the context fell below it", async () => {
    const { path, env } = homeWith(agent);
    const turn = async () => {
      const run = await endTurn(agent, path, env, 80, viaExtension);
      expect(run).toMatchObject({ code: 0, stderr: "" });
      return shown(agent, run.stdout);
    };
    const source = () => readFileSync(path, "utf8");
    answered(path, agent, Math.floor(window * 0.5));
    expect(await turn()).toBeUndefined();
    const tokens = Math.floor(window * 0.85);
    answered(path, agent, tokens);
    const before = source();
    const line = await turn();
    const share = Math.floor((tokens / window) * 100);
    expect(line).toBe(
      `Context ${share}% full (${tokens.toLocaleString("en-US")} of ${window.toLocaleString("en-US")} tokens): type ${command} to continue in a fresh session with a handoff document.`,
    );
    // The state is ours, never the user's session's.
    expect(source()).toBe(before);
    answered(path, agent, Math.floor(window * 0.9));
    expect(await turn()).toBeUndefined();
    expect(await turn()).toBeUndefined();
    // A compaction brought it down: the next crossing is offered again.
    answered(path, agent, Math.floor(window * 0.2));
    expect(await turn()).toBeUndefined();
    answered(path, agent, Math.floor(window * 0.95));
    expect(await turn()).toContain(`type ${command} to continue`);
  });
});

describe("where the window comes from", () => {
  test("Claude Code: the model's name gives 200,000; offer-window overrides it (a 1M context)", async () => {
    const { path, env } = homeWith("claude-code", { AGENT_OFFER_WINDOW: "1000000" });
    answered(path, "claude-code", 170_000);
    expect((await endTurn("claude-code", path, env)).stdout).toBe("");
    answered(path, "claude-code", 850_000);
    expect(shown("claude-code", (await endTurn("claude-code", path, env)).stdout)).toStartWith(
      "Context 85% full (850,000 of 1,000,000 tokens)",
    );
  });

  test("Codex: the window it records wins over offer-window", async () => {
    const { path, env } = homeWith("codex", { AGENT_OFFER_WINDOW: "1000000" });
    answered(path, "codex", 250_000);
    expect(shown("codex", (await endTurn("codex", path, env)).stdout)).toStartWith("Context 96% full (250,000 of 258,400 tokens)");
  });

  test("pi: the window the running pi knows; none known and no setting: nothing is said", async () => {
    const { path, env } = homeWith("pi");
    answered(path, "pi", 120_000);
    expect((await endTurn("pi", path, env, 80, undefined)).stdout).toBe("");
    const set = { ...env, AGENT_OFFER_WINDOW: "128000" };
    expect(shown("pi", (await endTurn("pi", path, set, 80, undefined)).stdout)).toStartWith("Context 93% full (120,000 of 128,000 tokens)");
  });

  test("a compaction after the newest answer: the figures are stale, nothing is said", async () => {
    const { path, env } = homeWith("claude-code");
    answered(path, "claude-code", 190_000);
    appendFileSync(path, `${JSON.stringify({ type: "system", subtype: "compact_boundary", content: "Conversation compacted" })}\n`);
    expect((await endTurn("claude-code", path, env)).stdout).toBe("");
  });
});

describe("the end of a turn never troubles the agent", () => {
  const CASES: [string, Agent, (path: string) => { argv: string[]; stdin?: string }, string | undefined][] = [
    [
      "a percent out of range (an edited entry)",
      "claude-code",
      (p) => ({ argv: ["--stop", "--offer", "100"], stdin: stopInput(p) }),
      "--offer takes a whole percent",
    ],
    ["an unknown argument", "codex", (p) => ({ argv: ["--stop", "--bogus", "1"], stdin: stopInput(p) }), 'unexpected "--bogus"'],
    ["stdin not JSON", "claude-code", () => ({ argv: ["--stop", "--offer", "80"], stdin: "{not json" }), "not JSON"],
    [
      "another event",
      "claude-code",
      (p) => ({ argv: ["--stop", "--offer", "80"], stdin: stopInput(p, { hook_event_name: "SubagentStop" }) }),
      undefined,
    ],
    [
      "Codex with no transcript",
      "codex",
      () => ({ argv: ["--stop", "--offer", "80"], stdin: stopInput("", { transcript_path: null }) }),
      undefined,
    ],
    [
      "a transcript that is not there (yet)",
      "claude-code",
      (p) => ({ argv: ["--stop", "--offer", "80"], stdin: stopInput(`${p}.gone`) }),
      undefined,
    ],
    ["the extension with no session", "pi", () => ({ argv: ["--stop", "--offer", "80", "--cwd", CWD] }), "needs --session and --cwd"],
  ];
  test.each(CASES)("%s: exit 0, at most one line, never a block", async (_, agent, make, said) => {
    const { path, env } = homeWith(agent);
    answered(path, agent, 10_000_000);
    const { argv, stdin } = make(path);
    const run = await runAgent(["hook", agent, ...argv], env, REPO, stdin === undefined ? undefined : bytes(stdin));
    expect(run).toMatchObject({ code: 0, stderr: "" });
    if (said === undefined) expect(run.stdout).toBe("");
    else expect(shown(agent, run.stdout)).toContain(said);
  });

  test("inside a hook's own handoff (HANDOFF_HOOK_ACTIVE): nothing", async () => {
    const { path, env } = homeWith("claude-code", { HANDOFF_HOOK_ACTIVE: "1" });
    answered(path, "claude-code", 190_000);
    expect(await endTurn("claude-code", path, env)).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  test("a bad config file: one systemMessage line, not a block", async () => {
    const { home, path, env } = homeWith("claude-code");
    mkdirSync(join(home, ".config/agent"), { recursive: true });
    writeFileSync(join(home, ".config/agent/config.toml"), "offer-window = 0\n");
    answered(path, "claude-code", 190_000);
    const run = await endTurn("claude-code", path, env);
    expect(run.code).toBe(0);
    expect(shown("claude-code", run.stdout)).toContain("config.toml:1: offer-window takes a whole number of tokens");
  });
});
