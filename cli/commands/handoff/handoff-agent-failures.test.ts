import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runAgent, splitPlanLine } from "../../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../../fixtures/built-cli.ts";
import { isAlive, useAgentSandbox } from "../../agents/agent-engines.testing.ts";

const sandbox = useAgentSandbox();

/** The run folders left behind: under the user's cache, where they are made (and TMPDIR, where nothing of ours goes). */
function leftBehind(): string[] {
  const runs = join(sandbox.home, ".cache", "agent", "runs");
  return [...readdirSync(sandbox.tmp), ...(existsSync(runs) ? readdirSync(runs) : [])];
}

/** Runs a handoff with `engine` and checks what every failure must leave: exit 1, one line, nothing written. */
async function expectFailure(engine: string, extraEnv: Record<string, string>, line: string, extraArgs: string[] = []): Promise<void> {
  const src = sandbox.source();
  const before = readFileSync(src);
  const run = await runAgent(["handoff", src, "--engine", engine, ...extraArgs], sandbox.env(extraEnv), sandbox.dir);
  expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 1, stderr: `Handoff failed: ${line}\n`, stdout: "" });
  expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  expect(readFileSync(src).equals(before)).toBe(true);
  // The scratch folder went with the run, whatever happened in it.
  expect(leftBehind()).toEqual([]);
}

const WHAT = {
  claude: {
    engine: "claude-code",
    bin: "AGENT_CLAUDE_CODE_BIN",
    label: "Claude Code",
    json: "the JSON result of --output-format json",
    login: "run `claude` once and log in",
    loggedOut: "Not logged in · Please run /login",
    code: 1,
  },
  codex: {
    engine: "codex",
    bin: "AGENT_CODEX_BIN",
    label: "Codex",
    json: "the JSON events of codex exec --json",
    login: "run `codex login`",
    loggedOut: "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header",
    code: 1,
  },
  pi: {
    engine: "pi",
    bin: "AGENT_PI_BIN",
    label: "pi",
    json: "the JSON events of --mode json",
    login: "run `pi` and log in (/login), or set the API key of the provider it uses",
    loggedOut: 'No API key found for "anthropic"',
    code: 0,
  },
  omp: {
    engine: "omp",
    bin: "AGENT_OMP_BIN",
    label: "omp",
    json: "the JSON events of --mode json",
    login: "run `omp` and log in (/login), or set the API key of the provider it uses",
    loggedOut: 'No API key found for "anthropic"',
    code: 0,
  },
} as const;

const CASES = Object.entries(WHAT).flatMap(([command, w]) => [
  { command, mode: "logged-out", line: `${command} is not logged in: ${w.login} (it said: ${w.loggedOut})` },
  {
    command,
    mode: "refuse",
    line: `${command} did not answer (${w.code === 0 ? "its request failed" : "exit 1"}: 400 invalid_request_error: the request was refused)`,
  },
  {
    command,
    mode: "garbage",
    line: `${command} printed no answer we can read (expected ${w.json}, got "Hello! I am not JSON."); is ${w.bin} or PATH pointing at ${w.label}?`,
  },
  { command, mode: "huge", line: `${command} printed more than 64 MB; it was stopped` },
  { command, mode: "empty", line: `${command} gave no answer (it exited 0 and printed nothing); try again, or use another --engine` },
  { command, mode: "stderr-only", line: `${command} did not answer (exit 2: fatal: the agent broke)` },
]);

describe("an agent run that gives no document: exit 1, one line naming the agent and the fix, nothing written", () => {
  test.each(CASES)("$command, $mode", async ({ command, mode, line }) => {
    await expectFailure(WHAT[command as keyof typeof WHAT].engine, { FAKE_AGENT_MODE: mode }, line);
  });

  test("the agent's own message passes the output boundary: the API key in it is withheld", async () => {
    const key = "sk-test-agent-0123456789abcdef";
    await expectFailure(
      "claude-code",
      { FAKE_AGENT_MODE: "refuse", FAKE_AGENT_MESSAGE: `bad key ${key}`, OPENAI_API_KEY: key },
      "claude did not answer (exit 1: bad key [withheld])",
    );
  });

  test.each(["", "Jane Doe", "Zoë Müller/日本", "two  spaces/ lead"])(
    "omp saved the refused request (the whole prompt) in its logs under %p: exactly that file is removed, and the line does not name it",
    async (under) => {
      const logs = join(sandbox.home, under, ".omp", "logs", "http-400-requests");
      const saved = join(logs, "1796052159556-2xjdvms163mg6.json");
      const other = join(logs, "1796052159000-aaaaaaaaaaaaa.json");
      mkdirSync(logs, { recursive: true });
      writeFileSync(other, "{}");
      await expectFailure(
        "omp",
        { FAKE_AGENT_MODE: "saved-request", FAKE_AGENT_SAVED: saved },
        "omp did not answer (its request failed: 400 bad request bad request (type=invalid_request_error))",
      );
      expect(readdirSync(logs)).toEqual(["1796052159000-aaaaaaaaaaaaa.json"]);
    },
  );

  test("a long message is cut to one line of 300 characters", async () => {
    const message = `first line\n${"y".repeat(400)}`;
    await expectFailure(
      "codex",
      { FAKE_AGENT_MODE: "refuse", FAKE_AGENT_MESSAGE: message },
      `codex did not answer (exit 1: first line ${"y".repeat(280)}…)`,
    );
  });
});

describe("finding the agent's executable", () => {
  test.each(Object.entries(WHAT))("%s missing from PATH", async (command, w) => {
    await expectFailure(w.engine, { PATH: "/usr/bin:/bin" }, `${command} not found on PATH: install ${w.label} or set ${w.bin}`);
  });

  test("a PATH entry where `claude` is a folder, or a file without the execute bit, is passed over for the next", async () => {
    const folder = join(sandbox.root, "first");
    mkdirSync(join(folder, "claude"), { recursive: true });
    const notExecutable = join(sandbox.root, "second");
    mkdirSync(notExecutable);
    writeFileSync(join(notExecutable, "claude"), "#!/bin/sh\necho no\n");
    const env = sandbox.env({ PATH: `${folder}:${notExecutable}:relative/bin::/usr/bin:/bin` });
    const missing = await runAgent(["handoff", sandbox.source(), "--engine", "claude", "--no-record"], env, sandbox.dir);
    expect(missing.stderr).toBe("Handoff failed: claude not found on PATH: install Claude Code or set AGENT_CLAUDE_CODE_BIN\n");
    const found = await runAgent(
      ["handoff", sandbox.source(), "--engine", "claude", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      { ...env, PATH: `${folder}:${notExecutable}:${sandbox.bin}` },
      sandbox.dir,
    );
    expect(found.code).toBe(0);
  });

  test.each([
    ["a file without the execute bit", (p: string) => writeFileSync(p, "x"), "not executable"],
    ["a folder", (p: string) => mkdirSync(p), "not a file"],
    ["nothing", () => {}, "no such file or folder"],
  ])("AGENT_CLAUDE_CODE_BIN naming %s", async (_, make, reason) => {
    const path = join(sandbox.root, "my-claude");
    make(path);
    await expectFailure(
      "claude-code",
      { AGENT_CLAUDE_CODE_BIN: path },
      `AGENT_CLAUDE_CODE_BIN=${path}: ${reason}; point it at the Claude Code executable`,
    );
  });

  test("an executable the system will not start (no #! line): one line naming it", async () => {
    const path = join(sandbox.root, "no-shebang");
    writeFileSync(path, "echo hi\n");
    chmodSync(path, 0o755);
    await expectFailure(
      "claude-code",
      { AGENT_CLAUDE_CODE_BIN: path },
      `could not start ${path}: not a program this system can run (a script without a #! line?); is it the Claude Code executable?`,
    );
  });

  test("AGENT_CODEX_BIN naming an executable elsewhere is used, PATH or not", async () => {
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "codex", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      sandbox.env({ PATH: "/usr/bin:/bin", AGENT_CODEX_BIN: join(sandbox.bin, "codex") }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(sandbox.runs().map((r) => r.agent)).toEqual(["codex"]);
  });

  describe("a *-bin path in the config file", () => {
    /** Writes the config file with `claude-code-bin = <value>`; returns its path. */
    function configWith(value: string): string {
      const file = join(sandbox.root, "config", "agent", "config.toml");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `engine = "claude"\nclaude-code-bin = ${JSON.stringify(value)}\n`);
      return file;
    }
    /** A copy of the fake claude at `path`. */
    function fakeAt(path: string): void {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, readFileSync(join(sandbox.bin, "claude")));
      chmodSync(path, 0o755);
    }
    const env = () => sandbox.env({ XDG_CONFIG_HOME: join(sandbox.root, "config") });

    test.each([
      ["./rel/claude, relative to the config file's folder", "./rel/claude", () => join(sandbox.root, "config", "agent", "rel", "claude")],
      ["~/bin/claude, in the home folder", "~/bin/claude", () => join(sandbox.home, "bin", "claude")],
    ])("%s, is the program run", async (_, value, where) => {
      configWith(value);
      fakeAt(where());
      // The same name beside where we stand is not it.
      writeFileSync(join(sandbox.dir, "claude"), "#!/bin/sh\nexit 9\n");
      chmodSync(join(sandbox.dir, "claude"), 0o755);
      mkdirSync(join(sandbox.dir, "rel"));
      writeFileSync(join(sandbox.dir, "rel", "claude"), "#!/bin/sh\nexit 9\n");
      chmodSync(join(sandbox.dir, "rel", "claude"), 0o755);
      const run = await runAgent(["handoff", sandbox.source(), "--no-record", "-o", join(sandbox.dir, "n.jsonl")], env(), sandbox.dir);
      expect(run.code).toBe(0);
      expect(sandbox.runs().map((r) => r.agent)).toEqual(["claude"]);
    });

    test.each([
      [
        "a relative path that is not there: the line names the path tried",
        "./rel/claude",
        (file: string) =>
          `${file}:2: ./rel/claude (${join(dirname(file), "rel", "claude")}): no such file or folder; point it at the Claude Code executable`,
      ],
      [
        "~user is not expanded",
        "~root/claude",
        (file: string) => `${file}:2: ~root/claude: only ~/ (your home folder) is expanded; write the whole path`,
      ],
    ])("%s", async (_, value, line) => {
      const file = configWith(value);
      await expectFailure("claude-code", { XDG_CONFIG_HOME: join(sandbox.root, "config") }, line(file), ["--no-record"]);
    });
  });

  test("pi-bin in the config file that is not executable names the file and line", async () => {
    const config = join(sandbox.root, "config");
    mkdirSync(join(config, "agent"), { recursive: true });
    const file = join(config, "agent", "config.toml");
    const bad = join(sandbox.root, "pi-not-exec");
    writeFileSync(bad, "x");
    chmodSync(bad, 0o644);
    writeFileSync(file, `engine = "pi"\npi-bin = "${bad}"\n`);
    await expectFailure("pi", { XDG_CONFIG_HOME: config }, `${file}:2: ${bad}: not executable; point it at the pi executable`);
  });
});

describe("an agent that does not finish", () => {
  test("--timeout ends it: one line, and the agent is gone", async () => {
    await expectFailure(
      "claude-code",
      { FAKE_AGENT_MODE: "hang" },
      "claude gave no answer within --timeout 1s; raise --timeout, or check that `claude` answers a prompt on its own",
      ["--timeout", "1"],
    );
    const [run] = sandbox.runs();
    expect(run === undefined ? true : isAlive(run.pid)).toBe(false);
  });

  // The run ends when the agent exits, or at --timeout: never when the last holder of its output
  // lets go. The helper sleeps 30 s; the bound is generous, the outcome is what is asserted.
  test.each([
    ["answered and exited 0: the answer is taken at once", "detached-answer", 0, ""],
    [
      "never answers: --timeout still ends it",
      "detached-hang",
      1,
      "Handoff failed: claude gave no answer within --timeout 1s; raise --timeout, or check that `claude` answers a prompt on its own\n",
    ],
  ])("an agent whose helper in a session of its own (setsid) holds its output open, %s", async (_, mode, code, stderr) => {
    const started = Date.now();
    const out = join(sandbox.dir, "new.jsonl");
    const run = await runAgent(
      [
        "handoff",
        sandbox.source(),
        "--engine",
        "claude",
        "--no-record",
        "--quiet",
        "--timeout",
        mode === "detached-hang" ? "1" : "60",
        "-o",
        out,
      ],
      sandbox.env({ FAKE_AGENT_MODE: mode }),
      sandbox.dir,
    );
    expect([run.code, run.stderr]).toEqual([code, stderr]);
    expect(existsSync(out)).toBe(code === 0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(leftBehind()).toEqual([]);
  });

  test.each([
    ["an agent whose helper in a session of its own holds its output open", "detached-hang", 1],
    ["an agent that ends on SIGTERM", "hang", 1],
    ["an agent that ignores SIGTERM (killed after the grace period)", "stubborn", 1],
    ["a second Ctrl-C, which ends us at once", "stubborn", 2],
  ])("Ctrl-C (SIGINT to us) ends the running agent too, %s: exit 130, nothing written", async (_, mode, presses) => {
    const src = sandbox.source();
    const proc = Bun.spawn([...CLI_ARGV, "handoff", src, "--engine", "codex"], {
      env: sandbox.env({ FAKE_AGENT_MODE: mode }),
      cwd: sandbox.dir,
      stdout: "pipe",
      stderr: "pipe",
      stdin: "ignore",
    });
    // Wait until the agent runs (it writes its record first).
    let pid: number | undefined;
    for (let i = 0; i < 200 && pid === undefined; i++) {
      await Bun.sleep(50);
      pid = sandbox.runs()[0]?.pid;
    }
    expect(pid).toBeNumber();
    expect(isAlive(pid ?? 0)).toBe(true);
    for (let i = 0; i < presses; i++) {
      // Apart, or the system delivers them as one.
      if (i > 0) await Bun.sleep(300);
      proc.kill("SIGINT");
    }
    const pressed = Date.now();
    const [rawStderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    const { stderr } = splitPlanLine(rawStderr);
    // Not when a helper outside its group lets go of the output (it sleeps 30 s).
    expect(Date.now() - pressed).toBeLessThan(15_000);
    expect([code, stderr]).toEqual([130, "Handoff cancelled\n"]);
    // Give the agent the moment it takes to go.
    for (let i = 0; i < 40 && isAlive(pid ?? 0); i++) await Bun.sleep(50);
    expect(isAlive(pid ?? 0)).toBe(false);
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
    // Its scratch folder and temporary files go even when we end at once (a second Ctrl-C).
    expect(leftBehind()).toEqual([]);
  });
});

describe("the scratch folder the agent ran in", () => {
  /** Where the runs' folders go: the user's cache (cli/agents/agent-scratch.ts). */
  const runs = () => join(sandbox.home, ".cache", "agent", "runs");

  test("a read-only folder the agent left in its TMPDIR is removed all the same", async () => {
    const out = join(sandbox.dir, "new.jsonl");
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "claude", "--no-record", "-o", out],
      sandbox.env({ FAKE_AGENT_MODE: "read-only-temp" }),
      sandbox.dir,
    );
    expect([run.code, run.stderr.startsWith("New session started")]).toEqual([0, true]);
    expect(leftBehind()).toEqual([]);
  });

  test.each(["codex", "claude-code"])("a relative TMPDIR (%s): the agent gets absolute paths that exist where it runs", async (engine) => {
    const out = join(sandbox.dir, "new.jsonl");
    mkdirSync(join(sandbox.dir, "reltmp"));
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", engine, "--no-record", "-o", out],
      sandbox.env({ TMPDIR: "reltmp" }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    const [only] = sandbox.runs();
    expect(only?.cwd.startsWith(`${runs()}/${engine}-`)).toBe(true);
    expect(only?.tmpdir).toBe(join(dirname(only?.cwd ?? ""), "tmp"));
    if (engine === "codex") expect(only?.argv).toContain(only?.cwd);
    expect(readdirSync(join(sandbox.dir, "reltmp"))).toEqual([]);
    expect(readdirSync(runs())).toEqual([]);
  });

  // Only root can make a file immutable; the agent's answer must survive a folder that cannot go.
  const canPin = process.getuid?.() === 0 && Bun.spawnSync(["chattr", "--help"], { stderr: "ignore", stdout: "ignore" }).exitCode !== 127;
  test.skipIf(!canPin)("one that cannot be removed (an immutable file in it) is a warning naming it; the document is written", async () => {
    const out = join(sandbox.dir, "new.jsonl");
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "claude", "--no-record", "-o", out],
      sandbox.env({ FAKE_AGENT_MODE: "immutable-temp" }),
      sandbox.dir,
    );
    const [left] = readdirSync(runs());
    const stuck = join(runs(), left ?? "", "tmp", "stuck");
    Bun.spawnSync(["chattr", "-i", stuck]);
    expect(left).toStartWith("claude-code-");
    expect(run.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(run.stderr.split("\n")[0]).toBe(
      `warning: could not remove ${join(runs(), left ?? "")}, the folder the agent ran in (operation not permitted); remove it yourself`,
    );
  });
});
