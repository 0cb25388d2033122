import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describeFormatNames } from "../../core/index.ts";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { installFakeAgents } from "../../fixtures/fake-agents.ts";
import { CLI, cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { createProcessHost } from "../process/host.ts";
import { runCli } from "../main.ts";
import { memoryIo, REPO } from "../../fixtures/run-agent.ts";

const root = mkdtempSync(join(tmpdir(), "agent-hook-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "5b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
const CWD = join(root, "project");
mkdirSync(CWD);

let homes = 0;
function homeWith(agent: "claude-code" | "codex") {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home);
  const path = plantSession({ home, env: {}, tmpdir: tmpdir() }, { agent, id: ID, cwd: CWD, mtime: 1_764_000_000 });
  const env = cleanEnv(home, { PATH: "/nonexistent", AGENT_HOOK_ENGINE: "offline" });
  return { home, path, env };
}

/** Every file under `dir` with its bytes. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(path, "latin1");
    }
  };
  walk(dir);
  return out;
}

function claudeInput(path: string, args: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: ID,
    transcript_path: path,
    cwd: CWD,
    hook_event_name: "UserPromptExpansion",
    command_name: "handoff",
    command_args: args,
    prompt: `/handoff ${args}`,
    ...extra,
  });
}

function codexInput(path: string, prompt: string): string {
  return JSON.stringify({ session_id: ID, transcript_path: path, cwd: CWD, hook_event_name: "UserPromptSubmit", prompt, model: "gpt-5" });
}

/** The block Claude Code reads, its text. */
function claudeBlock(stdout: string): string {
  const answer = JSON.parse(stdout);
  expect(answer).toMatchObject({
    decision: "block",
    hookSpecificOutput: { hookEventName: "UserPromptExpansion", suppressOriginalPrompt: true },
  });
  expect(stdout.endsWith("}\n") && stdout.split("\n").length === 2).toBe(true);
  return answer.reason;
}

const PWNED = join(root, "pwned");

/** Stdin for runAgent: bytes (a string there is a file's path). */
function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

describe("agent hook claude-code: hands off the session the call names", () => {
  test("a focus with $(…), backticks, quotes and a newline is data: in the document as typed, nothing run", async () => {
    const { home, path, env } = homeWith("claude-code");
    const focus = `finish $(touch ${PWNED}) \`touch ${PWNED}\` "the" 'parser'\nand; touch ${PWNED}`;
    const source = readFileSync(path, "utf8");
    const run = await runAgent(["hook", "claude-code"], env, REPO, bytes(claudeInput(path, focus)));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const text = claudeBlock(run.stdout);
    const match = /^New session ([0-9a-f-]{36}): (.+)\nType \/resume \1 to continue in it\.$/.exec(text);
    expect(match).not.toBeNull();
    const [, id = "", file = ""] = match ?? [];
    expect(file).toBe(join(dirname(path), `${id}.jsonl`));
    // The offline engine quotes the focus on one line: every character of it is there, as typed.
    const document = JSON.parse(readFileSync(file, "utf8").split("\n")[0] ?? "").message.content as string;
    expect(document).toContain(`Focus for this handoff: "${focus.replace("\n", " ")}"`);
    expect(existsSync(PWNED)).toBe(false);
    // The source is the agent's: never written to.
    expect(readFileSync(path, "utf8")).toBe(source);
    expect(Object.keys(files(home)).filter((name) => name.endsWith(".jsonl"))).toHaveLength(2);
  });

  test("--to codex: the new session is Codex's, and the line says how to continue there", async () => {
    const { path, env } = homeWith("claude-code");
    const run = await runAgent(["hook", "claude-code"], env, REPO, bytes(claudeInput(path, "--to codex tidy up")));
    const text = claudeBlock(run.stdout);
    expect(text).toMatch(
      /^New session [0-9a-f-]{36}: .+\/\.codex\/sessions\/.+\.jsonl\nContinue in codex with: cd .+ && codex resume [0-9a-f-]{36}$/,
    );
  });

  const HOSTILE: [string, (path: string) => string | undefined, string][] = [
    [
      "a session id that is a path",
      (path) => claudeInput(path, "", { session_id: "../../../etc/passwd" }),
      'the session id "../../../etc/passwd" is not an id',
    ],
    [
      "a transcript path that is relative",
      () => claudeInput("projects/x.jsonl", ""),
      "the transcript path projects/x.jsonl is not absolute",
    ],
    [
      "a transcript that does not exist",
      (path) => claudeInput(`${path}.gone`, ""),
      "does not exist (yet): say something in the session first",
    ],
    [
      "a transcript outside the agent's home",
      (path) => {
        const outside = join(root, "outside", `${ID}.jsonl`);
        mkdirSync(dirname(outside), { recursive: true });
        copyFileSync(path, outside);
        return claudeInput(outside, "");
      },
      `is not session ${ID} in Claude Code's sessions folder`,
    ],
    [
      "another session's transcript",
      (path) => claudeInput(path, "", { session_id: "00000000-0000-4000-8000-000000000000" }),
      "is not session 00000000-0000-4000-8000-000000000000",
    ],
    ["no session id", (path) => claudeInput(path, "", { session_id: 7 }), "the hook input from Claude Code names no session_id"],
    ["malformed JSON", () => '{"session_id": "x", ', "got text that is not JSON on stdin"],
    ["JSON that is not an object", () => "[1, 2]", "got JSON that is not an object on stdin"],
    ["no stdin", () => undefined, "got nothing on stdin: Claude Code gives its hook JSON there"],
    [
      "an option that is not --to",
      (path) => claudeInput(path, "--engine llm now"),
      "--engine is not an option here: only --to <agent>, then the focus",
    ],
    ["--to an agent we do not know", (path) => claudeInput(path, "--to vim"), `--to takes ${describeFormatNames()}, not "vim"`],
  ];

  test.each(HOSTILE)("%s: one line as the block's text, nothing written", async (_, input, problem) => {
    const { home, path, env } = homeWith("claude-code");
    const before = files(home);
    const stdin = input(path);
    const run = await runAgent(["hook", "claude-code"], env, REPO, stdin === undefined ? "/dev/null" : bytes(stdin));
    expect(run.code).toBe(0);
    const text = claudeBlock(run.stdout);
    expect(text).toStartWith("agent handoff: ");
    expect(text).toContain(problem);
    expect(text).not.toContain("\n");
    expect(files(home)).toEqual(before);
  });

  test("a handoff that fails (a session with nothing in it) is one line too, nothing written", async () => {
    const { home, path, env } = homeWith("claude-code");
    const empty = join(dirname(path), "6c2d3e4f-5061-4b7c-8d9e-0f1a2b3c4d5e.jsonl");
    writeFileSync(empty, "");
    const before = files(home);
    const run = await runAgent(
      ["hook", "claude-code"],
      env,
      REPO,
      bytes(claudeInput(empty, "", { session_id: "6c2d3e4f-5061-4b7c-8d9e-0f1a2b3c4d5e" })),
    );
    const text = claudeBlock(run.stdout);
    expect(text).toStartWith("agent handoff: ");
    expect(text).not.toContain("\n");
    expect(files(home)).toEqual(before);
  });

  test.each<[string, Record<string, unknown>, Record<string, string>]>([
    ["another command", { command_name: "review" }, {}],
    ["inside a hook's own handoff (the engine's agent calling its hooks)", {}, { HANDOFF_HOOK_ACTIVE: "1" }],
  ])("%s: no output, exit 0", async (_, extra, moreEnv) => {
    const { home, path, env } = homeWith("claude-code");
    const before = files(home);
    const run = await runAgent(["hook", "claude-code"], { ...env, ...moreEnv }, REPO, bytes(claudeInput(path, "x", extra)));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(files(home)).toEqual(before);
  });

  test("a bad hook-engine in the config file: one line naming the file and line", async () => {
    const { home, path, env } = homeWith("claude-code");
    mkdirSync(join(home, ".config/agent"), { recursive: true });
    writeFileSync(join(home, ".config/agent/config.toml"), 'hook-engine = "auto"\n');
    const { AGENT_HOOK_ENGINE: _, ...noEnv } = env;
    const run = await runAgent(["hook", "claude-code"], noEnv, REPO, bytes(claudeInput(path, "")));
    expect(claudeBlock(run.stdout)).toBe(
      `agent handoff: ${join(home, ".config/agent/config.toml")}:1: hook-engine takes llm, offline, pi, omp, claude-code (or claude) or codex (unset: the agent /handoff runs in), not "auto"`,
    );
  });
});

describe("the default engine: the agent the hook runs in", () => {
  test.each<["claude-code" | "codex", string]>([
    ["claude-code", "--no-session-persistence"],
    ["codex", "--ephemeral"],
  ])(
    "%s writes the document headless, saves no session of its own, and its run is marked so our hook stays out",
    async (agent, persistenceFlag) => {
      const { path, env } = homeWith(agent);
      const log = join(root, `fake-log-${homes}`);
      mkdirSync(log);
      const { AGENT_HOOK_ENGINE: _, ...withoutEngine } = env;
      const input = agent === "codex" ? codexInput(path, "$handoff go on") : claudeInput(path, "go on");
      const run = await runAgent(
        ["hook", agent],
        { ...withoutEngine, PATH: `${installFakeAgents(join(log, "bin"))}:/usr/bin:/bin`, FAKE_AGENT_LOG: log },
        REPO,
        bytes(input),
      );
      expect(JSON.parse(run.stdout).reason).toMatch(/^New session [0-9a-f-]{36}: /);
      const runs = readdirSync(log)
        .filter((name) => name.endsWith(".json"))
        .map((name) => JSON.parse(readFileSync(join(log, name), "utf8")) as { argv: string[]; env: Record<string, string> });
      expect(runs).toHaveLength(1);
      expect(runs[0]?.argv).toContain(persistenceFlag);
      expect(runs[0]?.env.HANDOFF_HOOK_ACTIVE).toBe("1");
    },
  );
});

describe("agent hook codex: sees every prompt, answers $handoff only", () => {
  test.each(["fix the tests", "$handoffs are great", "please $handoff", ""])("%p passes at once: no output", async (prompt) => {
    const { home, path, env } = homeWith("codex");
    const before = files(home);
    const run = await runAgent(["hook", "codex"], env, REPO, bytes(codexInput(path, prompt)));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(files(home)).toEqual(before);
  });

  test("$handoff <focus>: Codex's block, the new rollout of THAT session, /resume <id>", async () => {
    const { path, env } = homeWith("codex");
    const run = await runAgent(["hook", "codex"], env, REPO, bytes(codexInput(path, "$handoff  finish the parser")));
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(Object.keys(answer)).toEqual(["decision", "reason"]);
    expect(answer.decision).toBe("block");
    const match = /^New session ([0-9a-f-]{36}): (.+\.jsonl)\nType \/resume \1 to continue in it\.$/.exec(answer.reason);
    expect(match).not.toBeNull();
    expect(readFileSync(match?.[2] ?? "", "utf8")).toContain("finish the parser");
  });
});

describe("agent hook codex: a rollout that already holds the $handoff prompt at hook time", () => {
  test("the handoff ends before that prompt: the document's last request is the one before it", async () => {
    const { path, env } = homeWith("codex");
    const recorded = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.includes("Thanks, that is all."))
      .map((line) => line.replaceAll("Thanks, that is all.", "$handoff finish the parser"));
    writeFileSync(path, `${readFileSync(path, "utf8")}${recorded.join("\n")}\n`);
    const run = await runAgent(["hook", "codex"], env, REPO, bytes(codexInput(path, "$handoff finish the parser")));
    const file = /: (.+\.jsonl)\n/.exec(JSON.parse(run.stdout).reason)?.[1] ?? "";
    const document = readFileSync(file, "utf8");
    expect(document).toContain("> Thanks, that is all.");
    expect(document).not.toContain("> $handoff");
    expect(document).toContain("finish the parser");
  });
});

describe("the hook line integrate writes, run by a shell as the agents run it", () => {
  async function installedLine(agent: "claude-code" | "codex", home: string, program: { executable: string; script: string | undefined }) {
    const env = cleanEnv(home, { PATH: "/nonexistent" });
    const io = { ...memoryIo(env, REPO), host: { ...createProcessHost(), program } };
    expect(await runCli(["integrate", agent], io)).toBe(0);
    const file = agent === "codex" ? ".codex/hooks.json" : ".claude/settings.json";
    const event = agent === "codex" ? "UserPromptSubmit" : "UserPromptExpansion";
    return JSON.parse(readFileSync(join(home, file), "utf8")).hooks[event][0].hooks[0].command as string;
  }

  function sh(line: string, stdin: string, env: Record<string, string>) {
    const proc = Bun.spawnSync(["/bin/sh", "-c", line], { stdin: bytes(stdin), env: { ...env, PATH: "/usr/bin:/bin" }, cwd: CWD });
    return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
  }

  test("agent still there: the shell runs agent hook, which hands off", async () => {
    const { home, path, env } = homeWith("claude-code");
    const line = await installedLine("claude-code", home, { executable: process.execPath, script: CLI });
    const result = sh(line, claudeInput(path, "from the shell"), { ...env, PATH: "/usr/bin:/bin" });
    expect(result.code).toBe(0);
    expect(claudeBlock(result.stdout)).toMatch(/^New session [0-9a-f-]{36}: /);
  });

  test("agent gone (Claude Code): the block says so in one line, exit 0", async () => {
    const { home, path, env } = homeWith("claude-code");
    const line = await installedLine("claude-code", home, { executable: join(root, "gone", "agent"), script: undefined });
    const result = sh(line, claudeInput(path, ""), env);
    expect(result.code).toBe(0);
    expect(claudeBlock(result.stdout)).toBe(
      `agent is not at ${join(root, "gone", "agent")} any more: run agent integrate claude-code again (or remove the hook)`,
    );
  });

  test.each<[string, boolean]>([
    ["$handoff now", true],
    ["\n\t $handoff after a line break", true],
    ["$handoffs", true],
    ["write the tests", false],
    ["explain $handoff", false],
  ])("Codex, prompt %p: the shell starts agent only for what may be a handoff (readHook decides)", async (prompt, started) => {
    const { home, path, env } = homeWith("codex");
    const marker = join(home, "started");
    const program = join(home, "fake-agent");
    writeFileSync(program, `#!/bin/sh\ncat > ${marker}\n`, { mode: 0o755 });
    const line = await installedLine("codex", home, { executable: program, script: undefined });
    const result = sh(line, codexInput(path, prompt), env);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(marker)).toBe(started);
    // What agent reads is the hook's input, whole.
    if (started) expect(JSON.parse(readFileSync(marker, "utf8")).prompt).toBe(prompt);
  });

  test.each<[string, boolean]>([
    ["$handoff now", true],
    ["  $handoff", true],
    ["write the tests", false],
  ])("agent gone (Codex), prompt %p: answered only when it is a handoff", async (prompt, answered) => {
    const { home, path, env } = homeWith("codex");
    const line = await installedLine("codex", home, { executable: join(root, "gone", "agent"), script: undefined });
    const result = sh(line, codexInput(path, prompt), env);
    expect(result.code).toBe(0);
    if (!answered) return expect(result.stdout).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      decision: "block",
      reason: `agent is not at ${join(root, "gone", "agent")} any more: run agent integrate codex again (or remove the hook)`,
    });
  });
});
