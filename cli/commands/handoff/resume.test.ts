/**
 * After a handoff: the command that continues the new session, per agent, on stderr and in
 * `--json`; `--exec` runs it in place of this process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, testRun } from "../../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../../fixtures/built-cli.ts";
import { createFakeHome, IDS, type FakeHome } from "../../sessions/discover.testing.ts";
import { shellQuote } from "../../output/paste-line.ts";
import { describeResume, runAsChild } from "./resume.ts";

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

  // Claude Code and Codex resume a file by the id in its name: -o's name gives the session its id, or there is no command.
  const U = "12345678-1234-4234-8234-123456789abc";
  // Claude Code: every line's sessionId; Codex: its session_meta's id.
  const sessionIdsIn = (text: string) =>
    new Set(
      [...text.matchAll(/"sessionId":"([^"]*)"/g)]
        .map((m) => m[1])
        .concat(text.startsWith('{"timestamp"') ? [JSON.parse(text.split("\n")[0] ?? "").payload.id] : []),
    );
  test.each<[string, string, (home: string) => string, ((file: string) => string[]) | null, string]>([
    ["pi: any name, opened by its path", "pi", (home) => join(home, "out", "p.jsonl"), (file) => ["pi", "--session", file], ""],
    [
      "Claude Code: <uuid>.jsonl anywhere, by its path, the uuid its id",
      "claude",
      (home) => join(home, "out", `${U}.jsonl`),
      (file) => ["claude", "--resume", file],
      U,
    ],
    [
      "Claude Code: another name, no command",
      "claude",
      (home) => join(home, "out", "c.jsonl"),
      null,
      "Claude Code resumes a session only from a file named <uuid>.jsonl",
    ],
    [
      "Claude Code: <uuid>.jsonl.bak, no command",
      "claude",
      (home) => join(home, "out", `${U}.jsonl.bak`),
      null,
      "Claude Code resumes a session only from a file named <uuid>.jsonl",
    ],
    [
      "Codex: a rollout name in its folder, by the name's id",
      "codex",
      (home) => join(home, ".codex", "sessions", "2026", "01", "02", `rollout-2026-01-02T10-00-00-${U}.jsonl`),
      () => ["codex", "resume", U],
      U,
    ],
    [
      "Codex: another name in its folder, no command",
      "codex",
      (home) => join(home, ".codex", "sessions", "2026", "01", "02", "x.jsonl"),
      null,
      "Codex resumes a session only from a file named rollout-<time>-<uuid>.jsonl",
    ],
    [
      "Codex: a rollout name outside its folder, no command",
      "codex",
      (home) => join(home, "out", `rollout-2026-01-02T10-00-00-${U}.jsonl`),
      null,
      "Codex continues sessions only from its own folder",
    ],
  ])("-o, %s", async (_, to, at, argv, said) => {
    const file = at(fake.home);
    mkdirSync(join(file, ".."), { recursive: true });
    rmSync(file, { force: true });
    const { run, out } = await handOff(to, ["-o", file]);
    expect(out.sessionFile).toBe(file);
    expect(out.resume).toEqual(argv === null ? null : { argv: argv(file), cwd: fake.app });
    if (argv === null) {
      // A name the agent cannot resume by is a warning (the user chose it); a folder it does not look in, information.
      expect(run.stderr).toContain(`\n${said.includes("resumes a session only") ? "warning: " : ""}${file}: ${said}`);
      expect(run.stderr).not.toContain("Continue with");
    } else expect(run.stderr).toEndWith(`Continue with: ${argv(file).join(" ")}\n`);
    // The id the lines carry is the one --json names (and, for a name that gives one, that one).
    if (to !== "pi") expect(sessionIdsIn(readFileSync(file, "utf8"))).toEqual(new Set([out.sessionId]));
    if (said === U) expect(out.sessionId).toBe(U);
  });

  // The cwd a session records is its file's word: only an absolute one is a folder to go to.
  test.each<[string, string | null]>([
    ["src/app", null],
    [".", null],
    ["", null],
    ["~/app", null],
  ])("a source recording the cwd %p: resume.cwd %p, no cd in the line", async (cwd, expected) => {
    const dir = join(fake.home, "relative");
    mkdirSync(dir, { recursive: true });
    const src = join(dir, `s-${Bun.hash(cwd)}.jsonl`);
    writeFileSync(src, readFileSync(fake.paths[IDS.app.pi] ?? "", "utf8").replace(`"cwd":"${fake.app}"`, `"cwd":${JSON.stringify(cwd)}`));
    const run = await runAgent(
      ["handoff", src, "--no-record", "--json", "-o", join(dir, `new-${Bun.hash(cwd)}.jsonl`)],
      fake.env(),
      fake.empty,
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.resume).toEqual({ argv: ["pi", "--session", out.sessionFile], cwd: expected });
    expect(run.stderr).toEndWith(`Continue with: pi --session ${out.sessionFile}\n`);
  });

  test.each<[string, string]>([
    ["/home/me/app", "/home/me/app"],
    ["/home/me/my app", "'/home/me/my app'"],
    ["it's", "'it'\\''s'"],
    ["$(rm -rf ~)", "'$(rm -rf ~)'"],
    ["", "''"],
    // A control: one line still, the same word once bash reads it.
    ["out\nNew session started", "$'out\\nNew session started'"],
    ["a\r\tb", "$'a\\r\\tb'"],
    // A tab shows as a blank (and pasted may complete a word): written as an escape too.
    ["a\tb", "$'a\\tb'"],
    ["it's \\ \x1b]0;T\x07", "$'it\\'s \\\\ \\x1b]0;T\\x07'"],
  ])("shell quoting: %p is written %p", (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
    expect(Bun.spawnSync(["bash", "-c", `printf %s ${quoted}`]).stdout.toString()).toBe(word);
    expect(describeResume({ argv: ["pi", "--session", word], cwd: undefined }, "/").command).toBe(`pi --session ${quoted}`);
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
      const command = ["exec", ...CLI_ARGV, "handoff", "--session", IDS.app.pi, "--no-record", "--to", "claude", "--exec"]
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

  // Checked before anything is written (a failed exec would also leave the runtime printing a warning of its own).
  test.skipIf(Bun.which("script") === null || process.platform !== "linux").each<[string, string, number]>([
    ["a script without a #! line", "echo hi\n", 0o755],
    ["bytes no system runs", "\u0001\u0002garbage\n", 0o755],
  ])("an agent program that cannot be executed (%s): one line naming it, exit 1, nothing written", async (_, content, mode) => {
    const broken = join(fake.home, `broken-${Bun.hash(content)}`);
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "claude"), content);
    chmodSync(join(broken, "claude"), mode);
    const claudeFolder = join(fake.home, ".claude", "projects", fake.app.replace(/[^A-Za-z0-9]/g, "-"));
    const before = readdirSync(claudeFolder).sort();
    const env = fake.env({ PATH: `${broken}:${process.env.PATH ?? "/usr/bin:/bin"}`, SHELL: "/bin/sh" });
    const errors = join(broken, "stderr.txt");
    const command = `${[...CLI_ARGV, "handoff", "--session", IDS.app.pi, "--no-record", "--to", "claude", "--exec", "-q"].map(shellQuote).join(" ")} 2>${shellQuote(errors)}`;
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], { env, cwd: fake.app, stdout: "pipe", stderr: "pipe", stdin: "pipe" });
    const [, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(1);
    expect(readFileSync(errors, "utf8")).toBe(
      `Handoff failed: --exec: cannot start ${join(broken, "claude")}: not a program this system can run (a script without a #! line?); nothing was written (leave out --exec, or mend claude)\n`,
    );
    expect(readdirSync(claudeFolder).sort()).toEqual(before);
  });

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
    const words = [...CLI_ARGV, "handoff", "--session", IDS.app.pi, "--no-record", "--to", "claude", "--exec"].map(shellQuote).join(" ");
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
      "error: --exec: /tmp/agent-exec-x.jsonl: Codex resumes a session only from a file named rollout-<time>-<uuid>.jsonl",
    ],
    [
      "Codex: a rollout name outside its folder",
      ["--to", "codex", "-o", "/tmp/rollout-2026-01-02T10-00-00-12345678-1234-4234-8234-123456789abc.jsonl"],
      "error: --exec: /tmp/rollout-2026-01-02T10-00-00-12345678-1234-4234-8234-123456789abc.jsonl: Codex continues sessions only from its own folder",
    ],
    [
      "Claude Code could not resume the name -o gives it",
      ["--to", "claude", "-o", "/tmp/agent-exec-x.jsonl"],
      "error: --exec: /tmp/agent-exec-x.jsonl: Claude Code resumes a session only from a file named <uuid>.jsonl",
    ],
    ["Claude Code is not on the PATH", ["--to", "claude"], "error: --exec: claude (Claude Code) is not on the PATH"],
    ["with -o -", ["-o", "-"], "error: -o - writes no session file for --exec to continue; use one of them (see agent handoff --help)\n"],
    [
      "with --dry-run",
      ["--dry-run"],
      "error: --dry-run writes no session for --exec to continue; use one of them (see agent handoff --help)\n",
    ],
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
    expect(await runAsChild(testRun({ PATH: process.env.PATH ?? "" }), ["/bin/sh", "-c", script], undefined)).toBe(status);
  });

  test("it runs in the folder given", async () => {
    const out = join(fake.home, "child-cwd.txt");
    expect(await runAsChild(testRun({ PATH: process.env.PATH ?? "" }), ["/bin/sh", "-c", `pwd > '${out}'`], fake.other)).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(`${fake.other}\n`);
  });
});
