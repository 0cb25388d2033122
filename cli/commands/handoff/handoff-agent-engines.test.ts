import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { useAgentSandbox } from "../../agents/agent-engines.testing.ts";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../../fixtures/secrets.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "../../../core/handoff/prompt.ts";

const PLANTED = join(REPO, "fixtures", "sessions", "planted-facts.jsonl");
const LAST_ASK = "Great. Next, quote fields that contain commas, per RFC 4180.";
const FOCUS = "the RFC 4180 quoting";

const sandbox = useAgentSandbox();
const env = (extra: Record<string, string> = {}) => sandbox.env(extra);
const source = (fixture?: string) => sandbox.source(fixture);
const fakeRuns = () => sandbox.runs();

/** What each engine must be started with: the prompt on stdin, no tools, nothing saved. */
const EXPECTED_ARGV: Record<string, (system: string) => string[]> = {
  "claude-code": (s) => [
    "-p",
    "--output-format",
    "json",
    "--no-session-persistence",
    "--tools",
    "",
    "--permission-mode",
    "dontAsk",
    "--strict-mcp-config",
    "--disable-slash-commands",
    "--system-prompt",
    s,
  ],
  codex: () =>
    expect.arrayContaining([
      "exec",
      "--json",
      "--ephemeral",
      "--sandbox",
      "read-only",
      "-c",
      "features.shell_tool=false",
      "features.unified_exec=false",
      "features.goals=false",
      "tools.experimental_request_user_input.enabled=false",
      "project_doc_max_bytes=0",
      "project_root_markers=[]",
      "-",
    ]),
  pi: (s) => [
    "-p",
    "--mode",
    "json",
    "--no-session",
    "--no-tools",
    "--no-skills",
    "--no-prompt-templates",
    "--no-context-files",
    "--system-prompt",
    s,
  ],
  omp: (s) => [
    "-p",
    "--mode",
    "json",
    "--no-session",
    "--no-tools",
    "--no-skills",
    "--no-rules",
    "--no-lsp",
    "--no-title",
    "--system-prompt",
    s,
  ],
};

const AGENTS = [
  { engine: "claude-code", command: "claude", model: "claude-sonnet-4-5", usage: { inputTokens: 1200, outputTokens: 300 } },
  { engine: "codex", command: "codex", model: "codex", usage: { inputTokens: 1200, outputTokens: 300 } },
  { engine: "pi", command: "pi", model: "anthropic/claude-sonnet-4-5", usage: { inputTokens: 1200, outputTokens: 300 } },
  { engine: "omp", command: "omp", model: "anthropic/claude-sonnet-4-5", usage: { inputTokens: 1200, outputTokens: 300 } },
];

/** The argv each fake agent must receive; a name with no row is a mistake in the table. */
function expectedArgv(engine: string, system: string): string[] {
  const argv = EXPECTED_ARGV[engine];
  if (!argv) throw new Error(`no expected argv for ${engine}`);
  return argv(system);
}

describe("--engine <agent>: the installed agent writes the document", () => {
  test.each(AGENTS)(
    "$engine: one headless run in an empty scratch folder, the prompt on stdin, its answer the document, its usage reported",
    async ({ engine, command, model, usage }) => {
      const src = source();
      const run = await runAgent(
        ["handoff", src, "--engine", engine, "--focus", FOCUS, "--json", "-o", join(sandbox.dir, "new.jsonl")],
        env(),
        sandbox.dir,
      );
      // The new session is pi's (the source's agent): the line after says how to continue it.
      expect(run.stderr).toBe(
        `New session started with handoff context: ${join(sandbox.dir, "new.jsonl")}\nContinue with: cd /home/me/app && pi --session ${join(sandbox.dir, "new.jsonl")}\n`,
      );
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report).toMatchObject({ engine, model, usage, missingSections: [] });
      expect(report.document.startsWith("## Goal\nFix the parser.")).toBe(true);
      expect(report.document).toContain("## Session Facts");

      const [only, ...more] = fakeRuns();
      expect(more).toEqual([]);
      expect(only?.agent).toBe(command);
      const system = "You write handoff documents for coding sessions.";
      const argv = only?.argv ?? [];
      if (engine !== "codex") expect(argv).toEqual(expectedArgv(engine, argv.at(-1) ?? ""));
      else expect(argv).toEqual(expectedArgv("codex", ""));
      if (engine !== "codex") expect(argv.at(-1)?.startsWith(system)).toBe(true);
      for (const dangerous of [
        "--dangerously-skip-permissions",
        "--allowedTools",
        "--tools=default",
        "--dangerously-bypass-approvals-and-sandbox",
        "--auto-approve",
      ])
        expect(argv).not.toContain(dangerous);
      // Not the project, nor under TMPDIR: a private folder of its own under the user's cache, gone afterwards.
      const runs = join(sandbox.home, ".cache", "agent", "runs");
      expect(only?.cwd.startsWith(join(runs, `${engine}-`))).toBe(true);
      expect(existsSync(only?.cwd ?? "/")).toBe(false);
      expect(statSync(runs).mode & 0o777).toBe(0o700);
      // Its temporary files in a folder beside it, gone too.
      expect(only?.tmpdir).toBe(join(dirname(only?.cwd ?? ""), "tmp"));
      expect(readdirSync(runs)).toEqual([]);
      expect(readdirSync(sandbox.tmp)).toEqual([]);
      // Empty but for Codex's instructions file, which replaces its own instructions with ours,
      // and omp's project marker, which keeps it from reading the folders above.
      if (engine === "codex") {
        expect(Object.keys(only?.scratch ?? {})).toEqual(["instructions.md"]);
        expect(only?.scratch["instructions.md"]?.startsWith(system)).toBe(true);
        expect(argv).toContain(`model_instructions_file=${JSON.stringify(join(only?.cwd ?? "", "instructions.md"))}`);
      } else {
        expect(only?.scratch).toEqual(engine === "omp" ? { ".git": "" } : {});
      }
      // The prompt: the transcript, our instruction with the focus, the last request.
      expect(only?.stdin).toContain(renderInstruction(FOCUS));
      expect(only?.stdin).toContain(LAST_ASK);
      expect(only?.stdin).toContain("<transcript>");
      // Nothing left in the agent's history.
      expect(existsSync(join(sandbox.home, ".fake-sessions"))).toBe(false);
    },
  );

  test("`claude` is Claude Code; the answer is recorded in the source with the model the agent names", async () => {
    const src = source();
    const run = await runAgent(["handoff", src, "--engine", "claude", "-o", join(sandbox.dir, "new.jsonl")], env(), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith("## Goal\nFix the parser.")).toBe(true);
    const recorded = readFileSync(src, "utf8").trimEnd().split("\n").slice(-2)[0] ?? "";
    expect(JSON.parse(recorded).message).toMatchObject({
      role: "assistant",
      provider: "claude-code",
      model: "claude-sonnet-4-5",
      api: "agent-cli",
    });
  });

  test("no planted secret reaches the agent, and the document gets them back", async () => {
    const src = source(SECRETS_SESSION);
    const run = await runAgent(["handoff", src, "--engine", "codex", "--json", "-o", join(sandbox.dir, "new.jsonl")], env(), sandbox.dir);
    expect(run.code).toBe(0);
    const stdin = fakeRuns()[0]?.stdin ?? "";
    expect(stdin).toContain("[REDACTED:");
    expect(PLANTED_SECRETS.filter((s) => stdin.includes(s.value)).map((s) => s.kind)).toEqual([]);
  });

  test("an agent that reports no usage: usage is null, not zero", async () => {
    const run = await runAgent(
      ["handoff", source(), "--engine", "pi", "--json", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      env({ FAKE_AGENT_MODE: "no-usage" }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).usage).toBeNull();
  });

  test("--strict with an answer missing sections: the repair is a second run of the agent", async () => {
    const run = await runAgent(
      ["handoff", source(), "--engine", "claude-code", "--strict", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      env({ FAKE_AGENT_ANSWER: "## Goal\nonly this" }),
      sandbox.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("after a repair request (--strict)");
    const runs = fakeRuns();
    expect(runs).toHaveLength(2);
    expect(
      runs.some(
        (r) => r.stdin.endsWith("Reply with the document only.") && r.stdin.includes("<assistant>\n## Goal\nonly this\n</assistant>"),
      ),
    ).toBe(true);
  });

  test("a session larger than --context-window is condensed: one run per part, then the handoff", async () => {
    const run = await runAgent(
      ["handoff", source(PLANTED), "--engine", "omp", "--context-window", "2000", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      env(),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    const runs = fakeRuns();
    expect(runs).toHaveLength(2);
    expect(runs.filter((r) => r.stdin.includes("<condensed-notes>"))).toHaveLength(1);
  });
});

describe("the environment an agent runs with", () => {
  const GIVEN = {
    ANTHROPIC_API_KEY: "sk-ant-user-own",
    HTTPS_PROXY: "http://127.0.0.1:9",
    OPENAI_API_KEY: "sk-user-openai",
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    AGENT_MODEL: "gpt-5",
    AGENT_CONTEXT_WINDOW: "100000",
    CLAUDECODE: "1",
    CLAUDE_CODE_ENTRYPOINT: "cli",
    CLAUDE_CODE_SESSION_ID: "11111111-2222-3333-4444-555555555555",
    CLAUDE_CODE_CHILD_SESSION: "1",
    CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS: "11111111-2222-3333-4444-555555555555",
    CLAUDE_CODE_SSE_PORT: "12345",
    CODEX_THREAD_ID: "t-1",
  };
  const MARKERS = [
    "AGENT_MODEL",
    "AGENT_CONTEXT_WINDOW",
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_CHILD_SESSION",
    "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS",
    "CLAUDE_CODE_SSE_PORT",
    "CODEX_THREAD_ID",
  ];
  test.each([
    ["claude-code", ["ANTHROPIC_API_KEY", "HTTPS_PROXY"], [...MARKERS, "OPENAI_API_KEY", "OPENAI_BASE_URL"]],
    ["codex", ["ANTHROPIC_API_KEY", "HTTPS_PROXY", "OPENAI_API_KEY", "OPENAI_BASE_URL"], MARKERS],
    ["pi", ["ANTHROPIC_API_KEY", "HTTPS_PROXY", "OPENAI_API_KEY", "OPENAI_BASE_URL"], MARKERS],
    ["omp", ["ANTHROPIC_API_KEY", "HTTPS_PROXY", "OPENAI_API_KEY", "OPENAI_BASE_URL"], MARKERS],
  ])("%s: the user's own login and settings; not ours, not another agent session's markers", async (engine, kept, dropped) => {
    // AGENT_* and OPENAI_* are the llm engine's settings; the CLAUDE_CODE_* and CODEX_* ones come from a calling agent's shell.
    const run = await runAgent(
      ["handoff", source(), "--engine", engine, "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      env(GIVEN),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    const [only] = fakeRuns();
    const got = only?.env ?? {};
    expect(Object.fromEntries(kept.map((name) => [name, got[name]]))).toEqual(
      Object.fromEntries(kept.map((name) => [name, GIVEN[name as keyof typeof GIVEN]])),
    );
    expect(dropped.filter((name) => name in got)).toEqual([]);
    expect(got.TMPDIR).toBe(only?.tmpdir ?? "");
  });
});

describe("an answer the agent says was cut at its output limit", () => {
  test.each([
    ["claude-code", "1", true],
    ["pi", "1", true],
    ["omp", "1", true],
    ["claude-code", "0", false],
    ["pi", "0", false],
  ])("%s (cut short: %s): the warning the llm engine gives, and still written", async (engine, cut, warned) => {
    const out = join(sandbox.dir, "new.jsonl");
    const run = await runAgent(
      ["handoff", source(), "--engine", engine, "--no-record", "-o", out],
      env({ FAKE_AGENT_CUT_SHORT: cut }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(run.stderr.includes("the model stopped at its output limit; the document may be cut short")).toBe(warned);
  });
});

describe("usage over several runs (a condensed session)", () => {
  test.each([
    ["every run reported it: the sum", undefined, { inputTokens: 2400, outputTokens: 600 }],
    ["the first run did not: unknown, not the part that was reported", "1", null],
    ["the last run did not: unknown", "2", null],
  ])("%s", async (_, silent, usage) => {
    const run = await runAgent(
      [
        "handoff",
        source(PLANTED),
        "--engine",
        "omp",
        "--context-window",
        "2000",
        "--no-record",
        "--json",
        "-o",
        join(sandbox.dir, "new.jsonl"),
      ],
      env(silent === undefined ? {} : { FAKE_AGENT_SILENT_RUN: silent }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(fakeRuns()).toHaveLength(2);
    expect(JSON.parse(run.stdout).usage).toEqual(usage);
  });
});

describe("a prompt larger than the agent takes", () => {
  /** A session of 1.2 million characters, its last request short. */
  function bigSource(): string {
    const header = {
      type: "session",
      version: 3,
      id: "00000000-0000-4000-8000-000000000001",
      timestamp: "2026-11-29T10:00:00.000Z",
      cwd: "/w",
    };
    const turns = Array.from({ length: 13 }, (_, i) => [
      { role: "user", content: i === 12 ? "Now finish it." : `part ${i}: ${"word ".repeat(20_000)}`, timestamp: 1 },
      {
        role: "assistant",
        content: [{ type: "text", text: `done ${i}` }],
        api: "x",
        provider: "p",
        model: "m",
        usage: {},
        stopReason: "stop",
        timestamp: 2,
      },
    ]).flat();
    const entries = turns.map((message, i) => ({
      type: "message",
      id: `b${i}`,
      parentId: i === 0 ? null : `b${i - 1}`,
      timestamp: "2026-11-29T10:01:00.000Z",
      message,
    }));
    const path = join(sandbox.dir, "big.jsonl");
    writeFileSync(path, [header, ...entries].map((l) => `${JSON.stringify(l)}\n`).join(""));
    return path;
  }

  test("Codex takes at most 1,048,576 characters: a window that lets more through fails before it runs, saying what to do", async () => {
    const run = await runAgent(
      ["handoff", bigSource(), "--engine", "codex", "--context-window", "1000000", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      env(),
      sandbox.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Handoff failed: the prompt is [\d,]+ characters, more than the 1,048,576 Codex takes; lower --context-window\n$/,
    );
    expect(fakeRuns()).toEqual([]);
  });

  test("Codex's default window condenses it to fit", async () => {
    const run = await runAgent(
      ["handoff", bigSource(), "--engine", "codex", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      env(),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    for (const r of fakeRuns()) expect(r.stdin.length).toBeLessThan(1_048_576);
  });
});

describe("--dry-run with an agent engine", () => {
  test("prints the exact prompt on stdout and the command line on stderr; nothing runs", async () => {
    const run = await runAgent(["handoff", source(), "--engine", "claude", "--dry-run", "--focus", FOCUS], env(), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith("Below is a coding session");
    expect(run.stdout).toEndWith(`${renderInstruction(FOCUS)}\n`);
    expect(run.stderr).toContain(
      `would run: CLAUDE_CODE_MAX_RETRIES=2 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_FILE_MENTIONS=1 CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 TMPDIR='<new temporary folder>' ${join(sandbox.bin, "claude")} -p --output-format json --no-session-persistence --tools '' --permission-mode dontAsk`,
    );
    expect(run.stderr).toContain(
      `<new empty folder> and <new temporary folder>: made for each run under ${join(sandbox.home, ".cache", "agent", "runs")}, removed when it ends\n`,
    );
    // A dry run makes no folder.
    expect(existsSync(join(sandbox.home, ".cache"))).toBe(false);
    expect(fakeRuns()).toEqual([]);
  });

  // Quoted as a line to paste is (paste-line.ts): the screen's filter would strip U+0085 from the path and name another program.
  test("an executable whose path holds a character the screen's filter strips: the command line writes it as an escape", async () => {
    const odd = join(sandbox.dir, "bin\u0085x");
    mkdirSync(odd);
    writeFileSync(join(odd, "claude"), readFileSync(join(sandbox.bin, "claude")), { mode: 0o755 });
    const run = await runAgent(
      ["handoff", source(), "--engine", "claude", "--dry-run"],
      env({ AGENT_CLAUDE_CODE_BIN: join(odd, "claude") }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(` $'${sandbox.dir}/bin\\xc2\\x85x/claude' -p --output-format json`);
  });

  test("with the agent not installed: the command names it bare, and a line says the real run would fail", async () => {
    const run = await runAgent(["handoff", source(), "--engine", "omp", "--dry-run"], env({ PATH: "/usr/bin:/bin" }), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("a real run would fail: omp not found on PATH: install omp or set AGENT_OMP_BIN\n");
    expect(run.stderr).toContain("would run: TMPDIR='<new temporary folder>' omp -p --mode json --no-session --no-tools");
  });

  test("--json: the runs, each with its command and prompt", async () => {
    const run = await runAgent(["handoff", source(), "--engine", "codex", "--dry-run", "--json"], env(), sandbox.dir);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ dryRun: true, engine: "codex" });
    expect(report.runs).toHaveLength(1);
    expect(report.runs[0].command.slice(0, 2)).toEqual([join(sandbox.bin, "codex"), "exec"]);
    expect(report.runs[0].prompt).toContain(LAST_ASK);
    // Codex gets our system prompt from a file the run writes first: the dry run shows it, so the
    // printed run is the whole run.
    expect(Object.keys(report.runs[0].files)).toEqual(["instructions.md"]);
    expect(report.runs[0].files["instructions.md"]).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(report.runs[0].command.join(" ")).toContain("<new empty folder>/instructions.md");
    expect(fakeRuns()).toEqual([]);
  });

  test("Codex's instructions file is on stdout too, before the prompt", async () => {
    const run = await runAgent(["handoff", source(), "--engine", "codex", "--dry-run"], env(), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith(
      `# file <new empty folder>/instructions.md\n${DEFAULT_SYSTEM_PROMPT}\n# stdin\nBelow is a coding session`,
    );
    expect(fakeRuns()).toEqual([]);
  });
});

describe("--engine auto never starts an agent", () => {
  test("with no model configured and claude on PATH, the offline notice names the engine that would use it", async () => {
    const run = await runAgent(["handoff", source(), "--no-record", "-o", join(sandbox.dir, "new.jsonl")], env(), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n")[0]).toBe(
      "no model configured: the offline engine writes the handoff (see agent config); Claude Code is installed: --engine claude-code has it write the handoff",
    );
    expect(fakeRuns()).toEqual([]);
  });

  test("the config file can make an agent the engine", async () => {
    const config = join(sandbox.root, "config");
    mkdirSync(join(config, "agent"), { recursive: true });
    writeFileSync(join(config, "agent", "config.toml"), `engine = "pi"\npi-bin = "${join(sandbox.bin, "pi")}"\n`);
    const run = await runAgent(
      ["handoff", source(), "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      env({ XDG_CONFIG_HOME: config, PATH: "/usr/bin:/bin" }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(fakeRuns().map((r) => r.agent)).toEqual(["pi"]);
  });
});

describe("an agent that repeats its answer-so-far with every streamed piece (pi 0.73 in --mode json)", () => {
  test("a ~32,000-character document streamed in 8-character pieces (about 135 MB of output) is taken whole", async () => {
    const run = await runAgent(
      ["handoff", source(), "--engine", "pi", "--no-record", "--json", "-o", join(sandbox.dir, "new.jsonl")],
      env({ FAKE_AGENT_MODE: "streaming" }),
      sandbox.dir,
    );
    expect([run.code, run.stderr.startsWith("New session started")]).toEqual([0, true]);
    const report = JSON.parse(run.stdout);
    expect(report.document.startsWith("## Goal\nFix the parser.")).toBe(true);
    expect(report.document.split("The parser keeps each token's span.").length - 1).toBe(900);
    expect(report.usage).toEqual({ inputTokens: 1000, outputTokens: 300 });
  });
});
