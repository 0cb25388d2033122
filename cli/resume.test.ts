/**
 * After a handoff: the command that continues the new session, per agent, on stderr and in
 * `--json`; `--exec` runs it in place of this process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, runAgent } from "../fixtures/run-agent.ts";
import { createFakeHome, IDS, type FakeHome } from "./discover.testing.ts";
import { describeResume, runAsChild, shellQuote } from "./resume.ts";

let fake: FakeHome;
beforeAll(() => {
  fake = createFakeHome();
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

/** Hands the app's pi session off to `to` (not recorded, so every test starts from the same source). */
async function handOff(to: string, extra: string[] = [], cwd = fake.app) {
  const run = await runAgent(["handoff", "--session", IDS.app.pi, "--to", to, "--no-record", "--json", ...extra], fake.env(), cwd);
  expect(run.code).toBe(0);
  return { run, out: JSON.parse(run.stdout) };
}

describe("the command that continues the new session", () => {
  test.each<[string, (out: { sessionFile: string; sessionId: string }) => string[]]>([
    ["pi", (out) => ["pi", "--session", out.sessionFile]],
    ["omp", (out) => ["omp", "--resume", out.sessionFile]],
    ["claude-code", (out) => ["claude", "--resume", out.sessionId]],
    ["codex", (out) => ["codex", "resume", out.sessionId]],
  ])("%s: in --json as resume {argv, cwd}, and on stderr", async (to, argv) => {
    const { run, out } = await handOff(to);
    expect(out.resume).toEqual({ argv: argv(out), cwd: fake.app });
    expect(run.stderr).toEndWith(`New session started with handoff context: ${out.sessionFile}\nContinue with: ${argv(out).join(" ")}\n`);
  });

  test("run from another folder, the line says to go to the session's folder first", async () => {
    const { run, out } = await handOff("claude", [], fake.empty);
    expect(run.stderr).toContain(`\nContinue with: cd ${fake.app} && claude --resume ${out.sessionId}\n`);
  });

  test("a new session written elsewhere (-o): pi and Claude Code open it by its path; Codex cannot, and says so", async () => {
    const dir = join(fake.home, "out");
    mkdirSync(dir, { recursive: true });
    const claude = await handOff("claude", ["-o", join(dir, "c.jsonl")]);
    expect(claude.out.resume).toEqual({ argv: ["claude", "--resume", join(dir, "c.jsonl")], cwd: fake.app });
    const codex = await handOff("codex", ["-o", join(dir, "x.jsonl")]);
    expect(codex.out.resume).toBeNull();
    expect(codex.run.stderr).toContain(
      `${join(dir, "x.jsonl")}: Codex continues sessions only from its own folder (${join(fake.home, ".codex", "sessions")}), so there is no command that continues this one\n`,
    );
  });

  test.each<[string, string]>([
    ["/home/me/app", "/home/me/app"],
    ["/home/me/my app", "'/home/me/my app'"],
    ["it's", "'it'\\''s'"],
    ["$(rm -rf ~)", "'$(rm -rf ~)'"],
    ["", "''"],
  ])("shell quoting: %p is written %p", (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
    expect(describeResume({ argv: ["pi", "--session", word], cwd: undefined }, "/")).toBe(`pi --session ${quoted}`);
  });
});

describe("--exec", () => {
  let bin: string;
  beforeAll(() => {
    bin = join(fake.home, "bin");
    mkdirSync(bin, { recursive: true });
    // A stand-in for the agent: says what it was given, where, whose child it is; exits 7.
    for (const name of ["pi", "claude"]) {
      writeFileSync(
        join(bin, name),
        `#!/bin/sh\nprintf '%s\\n' "parent=$(cat /proc/$PPID/comm)" "cwd=$(pwd)" "$@" > "${join(fake.home, `${name}-ran.txt`)}"\nexit 7\n`,
      );
      chmodSync(join(bin, name), 0o755);
    }
  });

  // In a terminal (script(1) gives it one): `exec` makes the shell bun, and bun the agent, so the
  // agent's parent is script itself; run as bun's child, it would be bun.
  test.skipIf(Bun.which("script") === null || process.platform !== "linux")(
    "becomes the agent's command once everything is written: same process, the session's folder, the agent's exit status",
    async () => {
      const env = fake.env({ PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, SHELL: "/bin/sh" });
      const command = ["exec", process.execPath, CLI, "handoff", "--session", IDS.app.pi, "--no-record", "--to", "claude", "--exec"]
        .map(shellQuote)
        .join(" ");
      const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], {
        env,
        cwd: fake.empty,
        stdout: "pipe",
        stderr: "pipe",
        stdin: "pipe",
      });
      const [screen, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      expect(code).toBe(7);
      expect(screen).toContain("## Goal");
      const sessionId = /claude --resume (\S+)\r?\n/.exec(screen)?.[1] ?? "";
      const ran = readFileSync(join(fake.home, "claude-ran.txt"), "utf8");
      expect(ran).toBe(`parent=script\ncwd=${fake.app}\n--resume\n${sessionId}\n`);
      expect(existsSync(join(fake.home, ".claude", "projects", fake.app.replace(/[^A-Za-z0-9]/g, "-"), `${sessionId}.jsonl`))).toBe(true);
    },
  );

  test.each<[string, "stdin" | "stdout" | "both", string]>([
    [
      "stdout is a pipe (agent handoff --exec | less)",
      "stdout",
      "error: --exec opens Claude Code in this terminal, but stdout is not a terminal; leave out --exec",
    ],
    ["stdin is a pipe", "stdin", "error: --exec opens Claude Code in this terminal, but stdin is not a terminal; leave out --exec"],
    [
      "neither is a terminal",
      "both",
      "error: --exec opens Claude Code in this terminal, but stdin and stdout are not a terminal; leave out --exec",
    ],
  ])("outside a terminal, a usage error before anything is asked or written: %s", async (_, piped, message) => {
    const env = fake.env({ PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, SHELL: "/bin/sh" });
    const claudeFolder = join(fake.home, ".claude", "projects", fake.app.replace(/[^A-Za-z0-9]/g, "-"));
    const before = readdirSync(claudeFolder).sort();
    const words = [process.execPath, CLI, "handoff", "--session", IDS.app.pi, "--no-record", "--to", "claude", "--exec"]
      .map(shellQuote)
      .join(" ");
    const errors = join(fake.home, "exec-stderr.txt");
    const command =
      piped === "stdout"
        ? `${words} 2>'${errors}' | cat`
        : piped === "stdin"
          ? `echo | ${words} 2>'${errors}'`
          : `echo | ${words} 2>'${errors}' | cat`;
    const proc = Bun.spawn(["script", "-qec", `${command}; exit $?`, "/dev/null"], {
      env,
      cwd: fake.app,
      stdout: "pipe",
      stderr: "pipe",
      stdin: "pipe",
    });
    const [screen] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(readFileSync(errors, "utf8")).toContain(`\n${message}`);
    expect(screen).not.toContain("## Goal");
    expect(readdirSync(claudeFolder).sort()).toEqual(before);
  });

  test.each<[string, string[], string]>([
    [
      "the agent is not on the PATH",
      ["--to", "omp"],
      "error: --exec: omp is not on the PATH, so the new session cannot be continued here; leave out --exec, or put omp on the PATH\n",
    ],
    [
      "Codex could not find the session where -o puts it",
      ["--to", "codex", "-o", "/tmp/agent-exec-x.jsonl"],
      "error: --exec: /tmp/agent-exec-x.jsonl: Codex continues sessions only from its own folder",
    ],
    ["Claude Code is not on the PATH", ["--to", "claude"], "error: --exec: claude (Claude Code) is not on the PATH"],
    ["with -o -", ["-o", "-"], "error: -o - writes no session file for --exec to continue; use one of them\n"],
    ["with --dry-run", ["--dry-run"], "error: --dry-run writes no session for --exec to continue; use one of them\n"],
  ])("a usage error before anything is asked or written: %s", async (_, args, message) => {
    const folders = [join(fake.paths[IDS.app.pi] ?? "", ".."), join(fake.paths[IDS.app.omp] ?? "", "..")];
    const before = folders.map((folder) => readdirSync(folder).sort());
    const run = await runAgent(
      ["handoff", "--session", IDS.app.pi, "--exec", ...args],
      fake.env({ PATH: join(fake.home, "no-agents-here") }),
      fake.app,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(folders.map((folder) => readdirSync(folder).sort())).toEqual(before);
    expect(existsSync("/tmp/agent-exec-x.jsonl")).toBe(false);
  });
});

describe("where the process cannot be replaced: the agent runs as a child", () => {
  test.each<[string, string, number]>([
    ["its exit status is ours", "exit 5", 5],
    ["a signal that ends it is 128 + its number", "kill -TERM $$", 143],
  ])("%s", async (_, script, status) => {
    expect(await runAsChild(["/bin/sh", "-c", script], undefined)).toBe(status);
  });

  test("it runs in the folder given", async () => {
    const out = join(fake.home, "child-cwd.txt");
    expect(await runAsChild(["/bin/sh", "-c", `pwd > '${out}'`], fake.other)).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(`${fake.other}\n`);
  });
});
