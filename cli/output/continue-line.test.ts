/**
 * The "Continue with:" line names exactly the folder and file `--json`'s `resume` names: pasted
 * into bash or zsh, it runs `resume.argv` in `resume.cwd`, whatever characters they hold (issue
 * 22 A1), and it is never a rewritten command (a `[REDACTED:…]` in it would be a glob): a
 * command that would show a secret-looking word is not printed, and the line says where it is
 * (A2). Every target agent, a pi source whose cwd holds each variant, and a pi session file in a
 * folder that does; run from another folder, so the line starts with `cd`.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { partsOf, piSessionIn, useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { bytesOf, runInShell, SHELLS } from "./paste-line.testing.ts";

const sandbox = useHandoffSandbox();

const TARGETS = ["pi", "omp", "claude-code", "codex"];

/** What `shell` runs for `line`: each command's name and words, NUL after each (cd and the agents are functions that print them). */
function pasted(shell: string, line: string): Buffer {
  const say = ["cd", "pi", "omp", "claude", "codex"].map((name) => `${name}() { printf '%s\\0' ${name} "$@"; }`).join("\n");
  return runInShell(shell, `${say}\n${line}\n`);
}

interface Handoff {
  code: number;
  stderr: string;
  resume: { argv: string[]; cwd: string | null } | null;
  sessionFile: string;
}

async function handOff(source: string, to: string, env: Record<string, string> = {}): Promise<Handoff> {
  const run = await runAgent(
    ["handoff", source, "--engine", "offline", "--to", to, "--no-record", "--json"],
    cleanEnv(sandbox.home, env),
    sandbox.dir,
  );
  const out = run.code === 0 ? JSON.parse(run.stdout) : {};
  return { code: run.code, stderr: run.stderr, resume: out.resume ?? null, sessionFile: out.sessionFile ?? "" };
}

/** The one "Continue with:" line, without its label. */
function continueLine(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.startsWith("Continue with: "));
  expect(lines.length).toBe(1);
  return (lines[0] ?? "").slice("Continue with: ".length);
}

/** Folder names, each with characters that a filter for the screen would change, or that must stay as they are. */
const NAMES: [string, string][] = [
  ["U+0085 (next line) at the end", "shared/app\u0085"],
  ["a right-to-left override", "a\u202etxt.exe"],
  ["the line separator", "a\u2028b"],
  ["an escape sequence", "app\x1b]0;pwned\x07"],
  ["DEL", "app\x7f"],
  ["C1 controls", "a\u0080b\u009bc\u009f"],
  ["a lone surrogate", "x\ud800y\udfffz"],
  ["zero-width characters", "a\u200bb\u200dc\ufeff"],
  ["combining marks", "e\u0301a\u0308"],
  ["a no-break space", "my\u00a0app"],
  ["quotes", `it's "quoted"`],
  ["$, a command substitution and backquotes", "$HOME$(id)`id`"],
  ["a backslash", "a\\b\\x41"],
  ["a line break", "out\nNew session started"],
  ["a tab", "a\tb"],
  ["letters of other scripts and an emoji", "café/日本語/Ωmega/🎉"],
  ["a space", "my app"],
];

describe("the line to paste names exactly the folder and the file of --json's resume", () => {
  test.each(NAMES)("a cwd holding %s, every target agent", async (_, name) => {
    const cwd = `/home/dev/${name}/work`;
    const source = join(sandbox.dir, "source.jsonl");
    writeFileSync(source, piSessionIn(cwd));
    for (const to of TARGETS) {
      const run = await handOff(source, to);
      expect({ to, code: run.code }).toEqual({ to, code: 0 });
      expect(run.resume?.cwd).toBe(cwd);
      const line = continueLine(run.stderr);
      expect(line).toStartWith("cd ");
      const expected = bytesOf(["cd", run.resume?.cwd ?? "", ...(run.resume?.argv ?? [])]);
      for (const shell of SHELLS) expect({ to, shell, pasted: pasted(shell, line).equals(expected) }).toEqual({ to, shell, pasted: true });
    }
  });

  // A lone surrogate cannot be a folder's name: made on disk, it is U+FFFD's bytes, as everywhere.
  test.each(NAMES.filter(([what]) => what !== "a line break" || process.platform === "linux"))(
    "a pi session file in a folder whose name holds %s",
    async (_, name) => {
      const folder = join(sandbox.dir, name.replaceAll("/", "-"));
      mkdirSync(folder, { recursive: true });
      const source = join(folder, "source.jsonl");
      writeFileSync(source, piSessionIn("/home/dev/app"));
      const run = await handOff(source, "pi");
      expect(run.code).toBe(0);
      expect(run.resume?.argv).toEqual(["pi", "--session", run.sessionFile]);
      const line = continueLine(run.stderr);
      const expected = bytesOf(["cd", "/home/dev/app", "pi", "--session", run.sessionFile]);
      for (const shell of SHELLS) expect({ shell, pasted: pasted(shell, line).equals(expected) }).toEqual({ shell, pasted: true });
    },
  );

  test("a cwd holding a NUL (no folder can): no line, which would end the word there; --json's resume holds the cwd", async () => {
    const cwd = "/home/dev/a\0b";
    const source = join(sandbox.dir, "source.jsonl");
    writeFileSync(source, piSessionIn(cwd));
    // omp names its folder after the cwd, which no file system takes: a usage error of its own.
    for (const to of ["pi", "claude-code", "codex"]) {
      const run = await handOff(source, to);
      expect(run.code).toBe(0);
      expect(run.resume?.cwd).toBe(cwd);
      expect(continueLine(run.stderr)).toBe(
        `the command in --json's "resume" (not printed here: it names a path holding a NUL character, which no command can pass on)`,
      );
    }
  });
});

/** Names that look like secrets, each of a kind the redactor knows; the last two hold a `/`, so only a cwd can. */
const SECRETS: [string, string][] = [
  ["an AWS access key id", "AKIAIOSFODNN7EXAMPLE"],
  ["a GitHub token", "ghp_Zx9Kq2Lm4Np6Rs8Tv0Wy1Ab3Cd5Ef7Gh9Ij1K"],
  ["a Slack token", "xoxb-2048-4096-Zq7Xw2Rt9Yp4Lm6Nb8"],
  ["a Stripe key", "sk_live_Zq7Xw2Rt9Yp4Lm6Nb8Vc3Kd"],
  ["a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.Zq7Xw2Rt9Yp4Lm6Nb8Vc3Kd"],
  ["a password assignment", "password=Hunter2Hunter2Hunter2"],
  ["a URL with a password", "postgres://app:Qv7_Lk2-Zp9.Xw4Rt8Mn3@db"],
  ["a Slack webhook", "https://hooks.slack.com/services/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"],
];

const NOT_PRINTED = `the command in --json's "resume" (not printed here: it names a path that looks like a secret)`;

describe("a command that would show a secret-looking word is not printed: the line says where it is", () => {
  test.each(SECRETS)("a cwd holding %s, every target agent", async (_, secret) => {
    const cwd = `/home/dev/${secret}/app`;
    const source = join(sandbox.dir, "source.jsonl");
    writeFileSync(source, piSessionIn(cwd));
    for (const to of TARGETS) {
      const run = await handOff(source, to);
      expect({ to, code: run.code }).toEqual({ to, code: 0 });
      expect(continueLine(run.stderr)).toBe(NOT_PRINTED);
      const printed = new Set(partsOf(run.stderr));
      expect(partsOf(secret).filter((part) => printed.has(part))).toEqual([]);
      // --json keeps the exact command (its cwd normalised, `//` → `/`, as always).
      expect(run.resume?.cwd).toBe(cwd.replace(/\/+/g, "/"));
      expect(run.resume?.argv[0]).toBe(to === "claude-code" ? "claude" : to);
    }
  });

  test.each(SECRETS.filter(([, secret]) => !secret.includes("/")))("a pi session file in a folder named %s", async (_, secret) => {
    const folder = join(sandbox.dir, secret);
    mkdirSync(folder, { recursive: true });
    const source = join(folder, "source.jsonl");
    writeFileSync(source, piSessionIn("/home/dev/app"));
    const run = await handOff(source, "pi");
    expect(run.code).toBe(0);
    expect(continueLine(run.stderr)).toBe(NOT_PRINTED);
    expect(run.resume).toEqual({ argv: ["pi", "--session", run.sessionFile], cwd: "/home/dev/app" });
    expect(run.sessionFile.startsWith(`${folder}/`)).toBe(true);
  });

  // --json's resume names our own new session: exact, for a script to run (the document keeps the key withheld).
  test("a cwd holding the configured API key: not printed on stderr; --json's resume has it exact", async () => {
    const key = "sk-test-configured-key-0123456789";
    const source = join(sandbox.dir, "source.jsonl");
    writeFileSync(source, piSessionIn(`/home/dev/${key}/app`));
    for (const to of TARGETS) {
      const run = await handOff(source, to, { OPENAI_API_KEY: key });
      expect({ to, code: run.code }).toEqual({ to, code: 0 });
      expect(continueLine(run.stderr)).toBe(
        `the command in --json's "resume" (not printed here: it names a path holding a configured secret)`,
      );
      expect(run.stderr).not.toContain(key);
      expect(run.resume?.cwd).toBe(`/home/dev/${key}/app`);
    }
  });
});
