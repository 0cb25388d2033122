import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeFormats } from "../../core/index.ts";
import { BLOB_SHA256 } from "../../fixtures/sessions/omp-session.ts";
import { runAgent } from "../../fixtures/run-agent.ts";

/**
 * `agent inspect` as a user runs it (in-process, fixtures/run-agent.ts): an explicit environment (no API keys, a
 * throwaway HOME), and assertions on exit status, stdout and stderr.
 */
const REPO = join(import.meta.dir, "../..");
const REAL_SESSION = "../shared/sessions/before-compaction.jsonl";
const homes: string[] = [];

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), "agent-inspect-"));
  homes.push(home);
  return home;
}
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const emptyHome = tempHome();

async function inspect(args: readonly string[], home = emptyHome) {
  const run = await runAgent(["inspect", ...args], { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" }, REPO);
  return { exitCode: run.code, stdout: run.stdout, stderr: run.stderr };
}

/** stdout of a --json run, parsed; fails the test when stdout is not exactly one JSON line. */
function json(stdout: string): Record<string, unknown> {
  expect(stdout.endsWith("\n")).toBe(true);
  expect(stdout.trimEnd().split("\n")).toHaveLength(1);
  return JSON.parse(stdout);
}

const STACK_FRAME = /^\s+at /m;
const S = "fixtures/sessions";

describe("agent inspect on good sessions", () => {
  test("--json prints one object with the documented fields, nothing on stderr", async () => {
    const run = await inspect([`${S}/v3-branches.jsonl`, "--json"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe("");
    expect(json(run.stdout)).toEqual({
      file: `${S}/v3-branches.jsonl`,
      format: "pi",
      version: 3,
      agentVersion: null,
      sessionId: "7d3e4f50-6172-4c83-9d94-b5c6d7e8f9a0",
      cwd: "/home/dev/shop",
      title: null,
      parentSession: null,
      entries: 32,
      malformedLines: [],
      leafId: "c000001d",
      branchEntries: 29,
      branchMessages: 21,
      contextMessages: 14,
      contextRoles: [
        "compactionSummary",
        "branchSummary",
        "user",
        "assistant",
        "toolResult",
        "bashExecution",
        "custom",
        "user",
        "assistant",
        "toolResult",
        "assistant",
        "toolResult",
        "user",
        "assistant",
      ],
      estimatedTokens: 1471,
      filesRead: ["src/server.ts", "package.json", "docs/limits.md", "src/config.ts"],
      filesModified: ["src/server.ts", "src/config.ts"],
      filesDeleted: [],
      commands: [
        { command: "npm test", exitCode: 1, by: "tool", failed: true },
        { command: "git status --short", exitCode: 0, by: "user", failed: false },
        // Never answered: no exit code, and not counted as failed.
        { command: "ls src", exitCode: null, by: "tool", failed: false },
      ],
      models: ["anthropic/claude-sonnet-4-5", "openai/gpt-5"],
      lastUserRequest: "Make the limit configurable via RATE_LIMIT. Like this:",
      warnings: [],
    });
  });

  test("without --json a short summary goes to stdout", async () => {
    const run = await inspect([`${S}/v3-branches.jsonl`]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        `file      ${S}/v3-branches.jsonl`,
        "format    pi, version 3",
        "session   7d3e4f50-6172-4c83-9d94-b5c6d7e8f9a0",
        "cwd       /home/dev/shop",
        "entries   32",
        "leaf      c000001d",
        "branch    29 entries, 21 messages",
        "context   14 messages, ~1,471 tokens",
        "models    anthropic/claude-sonnet-4-5, openai/gpt-5",
        "files     4 read, 2 modified",
        "commands  3 run, 1 failed",
        "last ask  Make the limit configurable via RATE_LIMIT. Like this:",
        "",
      ].join("\n"),
    );
  });

  test.each([
    { file: "v1.jsonl", format: "pi", version: null, entries: 14, leafId: "0000000e", contextMessages: 8 },
    { file: "v2.jsonl", format: "pi", version: 2, entries: 6, leafId: "b0000006", contextMessages: 5 },
    { file: "omp.jsonl", format: "omp", version: 3, entries: 19, leafId: "d0000013", contextMessages: 8 },
  ])("$file: format $format, version $version as found in the file", async ({ file, ...expected }) => {
    const run = await inspect([`${S}/${file}`, "--json"]);
    expect(run.exitCode).toBe(0);
    expect(json(run.stdout)).toMatchObject(expected);
  });

  test("--leaf inspects the branch ending at that entry", async () => {
    const run = await inspect([`${S}/v3-branches.jsonl`, "--json", "--leaf", "a0000003"]);
    expect(run.exitCode).toBe(0);
    expect(json(run.stdout)).toMatchObject({
      leafId: "a0000003",
      branchEntries: 10,
      branchMessages: 8,
      lastUserRequest: "Actually, back it with redis.",
    });
  });

  test("--leaf naming a line of a Claude Code answer saved a block per line: the branch ends at that answer", async () => {
    // Lines 5, 6, 8 and 9 of split.jsonl are one answer (msg_A): line 8's uuid names it as line 5's does.
    const run = await inspect([`${S}/claude-code/split.jsonl`, "--json", "--leaf", "aaaaaaaa-0000-4000-8000-000000000006"]);
    expect([run.exitCode, run.stderr]).toEqual([0, ""]);
    expect(json(run.stdout)).toMatchObject({
      leafId: "aaaaaaaa-0000-4000-8000-000000000003",
      branchMessages: 2,
      lastUserRequest: "Why does the build fail?",
    });
  });

  test("--leaf=<id> works too", async () => {
    expect(json((await inspect([`${S}/v3-branches.jsonl`, "--json", "--leaf=c0000007"])).stdout)).toMatchObject({
      leafId: "c0000007",
      branchEntries: 7,
    });
  });

  test.skipIf(!existsSync(join(REPO, REAL_SESSION)))(
    `a real 2.4 MB session, read in chunks${existsSync(join(REPO, REAL_SESSION)) ? "" : " (skipped: ../shared/sessions/ is not beside this checkout)"}`,
    async () => {
      // Counts checked with Python in core/session/real-sessions.test.ts.
      const run = await inspect([REAL_SESSION, "--json"]);
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toBe("");
      expect(json(run.stdout)).toMatchObject({
        format: "pi",
        version: null,
        entries: 1002,
        branchMessages: 990,
        contextMessages: 439,
        malformedLines: [],
      });
    },
  );

  test("an omp blob in ~/.omp/agent/blobs is restored; without it the image is a placeholder", async () => {
    const withBlob = tempHome();
    mkdirSync(join(withBlob, ".omp", "agent", "blobs"), { recursive: true });
    copyFileSync(join(REPO, S, "blobs", BLOB_SHA256), join(withBlob, ".omp", "agent", "blobs", BLOB_SHA256));
    const restored = json((await inspect([`${S}/omp.jsonl`, "--json"], withBlob)).stdout);
    const missing = json((await inspect([`${S}/omp.jsonl`, "--json"])).stdout);
    // The restored image costs the fixed image estimate; the placeholder is a short text.
    expect(Number(restored.estimatedTokens) - Number(missing.estimatedTokens)).toBeGreaterThan(1100);
    expect(restored).toMatchObject({ format: "omp", title: "Fix the flaky upload test" });
  });
});

describe("agent inspect on bad input: exit 2, one line on stderr naming the file, nothing on stdout", () => {
  test.each([
    { file: "does-not-exist.jsonl", message: "does-not-exist.jsonl: no such file or folder" },
    { file: `${S}/bad/directory.jsonl`, message: `${S}/bad/directory.jsonl: is a directory, not a session file` },
    { file: `${S}/bad/empty.jsonl`, message: `${S}/bad/empty.jsonl: not a session: the file is empty` },
    { file: `${S}/bad/blank-lines.jsonl`, message: `${S}/bad/blank-lines.jsonl: not a session: the file is empty` },
    { file: `${S}/bad/binary.jsonl`, message: `${S}/bad/binary.jsonl:1: not a session: it looks like binary data` },
    { file: `${S}/bad/not-json.jsonl`, message: `${S}/bad/not-json.jsonl:1: not a session: the line is not JSON` },
    {
      file: `${S}/bad/not-a-session.jsonl`,
      message: `${S}/bad/not-a-session.jsonl:1: not a session: it is not a ${describeFormats()} session`,
    },
    {
      file: `${S}/bad/message-first.jsonl`,
      message: `${S}/bad/message-first.jsonl:1: not a session: it is not a ${describeFormats()} session`,
    },
    {
      file: `${S}/bad/header-without-id.jsonl`,
      message: `${S}/bad/header-without-id.jsonl:1: not a session: the header has no string "id"`,
    },
    {
      file: `${S}/bad/header-with-number-id.jsonl`,
      message: `${S}/bad/header-with-number-id.jsonl:1: not a session: the header has no string "id"`,
    },
  ])("$file", async ({ file, message }) => {
    for (const flags of [[], ["--json"]]) {
      const run = await inspect([file, ...flags]);
      expect(run.exitCode).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(`error: ${message}\n`);
    }
  });

  test("an unknown --leaf id names the file and the id", async () => {
    const run = await inspect([`${S}/v3-branches.jsonl`, "--leaf", "nope"]);
    expect(run).toEqual({ exitCode: 2, stdout: "", stderr: `error: ${S}/v3-branches.jsonl: no entry with id "nope" in this session\n` });
  });
});

describe("agent inspect on damaged sessions", () => {
  test.each([
    {
      file: "malformed-middle.jsonl",
      lines: [3, 4, 5],
      warning: "skipped 3 unusable lines: 3, 4, 5 (line 3: not valid JSON (a torn or hand-edited line?))",
      strict: ":3: not valid JSON (a torn or hand-edited line?) (and 2 more); --strict refuses unusable lines",
    },
    {
      file: "torn-last-line.jsonl",
      lines: [5],
      warning: "skipped 1 unusable line: 5 (line 5: not valid JSON (a torn or hand-edited line?))",
      strict: ":5: not valid JSON (a torn or hand-edited line?); --strict refuses unusable lines",
    },
  ])("$file: skipped with a warning naming the lines; --strict refuses it", async ({ file, lines, warning, strict }) => {
    const path = `${S}/bad/${file}`;
    const run = await inspect([path, "--json"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe(`warning: ${path}: ${warning}\n`);
    expect(json(run.stdout)).toMatchObject({ malformedLines: lines, warnings: [warning] });

    const refused = await inspect([path, "--json", "--strict"]);
    expect(refused).toEqual({ exitCode: 2, stdout: "", stderr: `error: ${path}${strict}\n` });
  });

  test.each([
    { file: "cycle.jsonl", warning: "the parent chain loops back to entry f0000003; the branch was cut there", branchEntries: 3 },
    {
      file: "dangling-parent.jsonl",
      warning: "entry f0000003 names a parent f0000002 that is not in the file; the branch starts there",
      branchEntries: 2,
    },
    { file: "unknown-type.jsonl", warning: 'unknown entry type "hologram" kept and ignored', branchEntries: 4 },
  ])("$file: loads, with one warning", async ({ file, warning, branchEntries }) => {
    const path = `${S}/bad/${file}`;
    const run = await inspect([path, "--json"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe(`warning: ${path}: ${warning}\n`);
    expect(json(run.stdout)).toMatchObject({ branchEntries, malformedLines: [] });
  });

  test("--quiet keeps warnings; the summary still goes to stdout", async () => {
    const run = await inspect([`${S}/bad/torn-last-line.jsonl`, "-q"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain("warning: ");
    expect(run.stdout).toContain("entries   3 (1 unusable line skipped)");
  });
});

describe("agent inspect usage errors", () => {
  test.each([
    { args: [`${S}/v1.jsonl`, "--jsn"], message: "unknown option --jsn; did you mean --json? (see agent inspect --help)" },
    { args: [`${S}/v1.jsonl`, "--strikt"], message: "unknown option --strikt; did you mean --strict? (see agent inspect --help)" },
    { args: [`${S}/v1.jsonl`, "--leef", "x"], message: "unknown option --leef; did you mean --leaf? (see agent inspect --help)" },
    { args: [`${S}/v1.jsonl`, "--zzzzzzzz"], message: "unknown option --zzzzzzzz (see agent inspect --help)" },
  ])("$args → exit 2: $message", async ({ args, message }) => {
    const run = await inspect(args);
    expect(run).toEqual({ exitCode: 2, stdout: "", stderr: `error: ${message}\n` });
  });

  test("no bad input shows a stack trace", async () => {
    for (const args of [
      ["does-not-exist.jsonl"],
      [`${S}/bad/binary.jsonl`],
      [`${S}/v1.jsonl`, "--leaf", "x"],
      [`${S}/v1.jsonl`, "--nope"],
    ]) {
      const run = await inspect(args);
      expect(run.stderr).not.toMatch(STACK_FRAME);
      expect(run.stderr).not.toContain("internal error");
    }
  });

  test("--help prints usage on stdout and exits 0", async () => {
    const run = await inspect(["--help"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("--strict");
    expect(run.stdout).not.toContain("\x1b[");
  });
});
