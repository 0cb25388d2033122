/**
 * Every problem with the words typed is one line in one style: `error: <what is wrong>[; <what
 * to do>] (see agent <command> --help)`, lower case, naming what was typed as typed, exit 2,
 * nothing on stdout. One row per way the command line is checked: our checker (findFlagProblem),
 * the commands' own flags, values and variables, combinations, the words before a command, and
 * citty's (a required argument left out, which citty words its own way).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeFormatNames } from "../../core/index.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { ENGINE_CHOICES } from "./setting-values.ts";

const home = mkdtempSync(join(tmpdir(), "agent-usage-"));
/** Where the commands run: a usage error writes nothing, here or anywhere. */
const here = mkdtempSync(join(tmpdir(), "agent-usage-here-"));
const SESSION = join(import.meta.dir, "../..", "fixtures", "example.jsonl");

afterAll(() => {
  for (const folder of [home, here]) rmSync(folder, { recursive: true, force: true });
});

/** The one style: a lower-case start (or a flag, an argument, a quote, a variable's name), one line, the help of the command the words were for. */
const STYLE = /^error: (?:[a-z<"-]|[A-Z][A-Z0-9_]+ )[^\n]* \(see agent (?:[a-z]+ )?--help\)\n$/;

const ROWS: [string, string[], Record<string, string>, string][] = [
  ["no command", [], {}, "a command is needed: handoff, ls, inspect, config, integrate, hook or completion (see agent --help)"],
  ["an unknown command", ["handof"], {}, 'unknown command "handof"; did you mean "handoff"? (see agent --help)'],
  ["a word after help's command", ["help", "ls", "x"], {}, 'unexpected argument "x": agent help takes one command (see agent --help)'],
  ["a word after --version", ["--version", "x"], {}, 'unexpected argument "x" after --version (see agent --help)'],
  ["a required argument left out (citty's check)", ["completion"], {}, "argument <shell> is missing (see agent completion --help)"],
  ["an argument's value", ["completion", "tcsh"], {}, 'argument <shell> takes bash, zsh or fish, not "tcsh" (see agent completion --help)'],
  [
    "an empty argument",
    ["completion", ""],
    {},
    "argument <shell> needs a value, not an empty string (an unset variable?) (see agent completion --help)",
  ],
  ["a misspelt flag", ["handoff", "--foucs", "x"], {}, "unknown option --foucs; did you mean --focus? (see agent handoff --help)"],
  ["a flag with no value", ["handoff", "--out"], {}, "option --out needs a value (see agent handoff --help)"],
  ["a switch with a value", ["ls", "--json=1"], {}, "option --json takes no value (found --json=1) (see agent ls --help)"],
  ["a word too many", ["config", "show"], {}, 'unexpected argument "show": this command takes no arguments (see agent config --help)'],
  [
    "an unquoted --focus",
    ["handoff", SESSION, "--focus", "finish", "the", "parser"],
    {},
    `unexpected argument "the": this command takes <path> only; if "the parser" is part of --focus, quote it all: --focus 'finish the parser' (see agent handoff --help)`,
  ],
  [
    "a flag's value from a list",
    ["handoff", SESSION, "--to", "aider"],
    {},
    `--to takes ${describeFormatNames()}, not "aider" (see agent handoff --help)`,
  ],
  [
    "the same value from a variable",
    ["config"],
    { AGENT_TO: "aider" },
    `AGENT_TO takes ${describeFormatNames()}, not "aider" (see agent config --help)`,
  ],
  ["--engine", ["handoff", SESSION, "--engine", "gpt"], {}, `--engine takes ${ENGINE_CHOICES}, not "gpt" (see agent handoff --help)`],
  [
    "a number",
    ["handoff", SESSION, "--timeout", "-5"],
    {},
    '--timeout takes a positive number up to 2147483, not "-5" (see agent handoff --help)',
  ],
  [
    "a count",
    ["handoff", SESSION, "--retries", "many"],
    {},
    '--retries takes a whole number from 0 to 10, not "many" (see agent handoff --help)',
  ],
  [
    "a token count",
    ["handoff", SESSION, "--context-window", "0"],
    {},
    '--context-window takes a whole number of tokens, not "0" (see agent handoff --help)',
  ],
  [
    "two counts that do not fit",
    ["handoff", SESSION, "--max-output-tokens", "200000", "--engine", "offline"],
    {},
    "--max-output-tokens 200000 must be smaller than the default context window 128000 (see agent handoff --help)",
  ],
  [
    "a URL",
    ["handoff", SESSION, "--base-url", "localhost:11434"],
    {},
    '--base-url "localhost:11434" is not an http:// or https:// URL (did you mean "http://localhost:11434"?) (see agent handoff --help)',
  ],
  [
    "a provider",
    ["handoff", SESSION, "--provider", "acme", "--engine", "offline"],
    {},
    '--provider takes auto or one of openai, openrouter, anthropic, google, deepseek, groq, mistral, ollama, vllm, llamacpp, lmstudio, generic, not "acme" (see agent handoff --help)',
  ],
  [
    "two flags that do not go together",
    ["handoff", SESSION, "-o", "-", "--json"],
    {},
    "-o - puts the new session on stdout, where --json would put its object; use one of them (see agent handoff --help)",
  ],
  [
    "--exec with --dry-run",
    ["handoff", SESSION, "--exec", "--dry-run"],
    {},
    "--dry-run writes no session for --exec to continue; use one of them (see agent handoff --help)",
  ],
];

describe("every usage error is one line in one style", () => {
  test.each(ROWS)("%s", async (_, args, env, message) => {
    const run = await runAgent(args, cleanEnv(home, env), here);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `error: ${message}\n` });
    expect(run.stderr).toMatch(STYLE);
    // Bun keeps a cache of its own in HOME.
    expect([...readdirSync(here), ...readdirSync(home).filter((name) => name !== ".bun")]).toEqual([]);
  });
});

describe("an unquoted --focus whose stray word is taken for the session", () => {
  test.each<[string, string[], string]>([
    ["--focus", ["--focus", "finish", "parser"], `--focus 'finish parser'`],
    ["-f", ["-f", "finish", "parser"], `--focus 'finish parser'`],
    ["--focus=", ["--focus=finish", "parser"], `--focus 'finish parser'`],
  ])("%s: the error about the word says to quote the text", async (_, args, quoted) => {
    const run = await runAgent(["handoff", ...args, "--engine", "offline"], cleanEnv(home), here);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`; if "parser" is part of --focus, quote it all: ${quoted}`);
  });

  // The session typed beside the unquoted words is the argument it was meant as: never folded into the suggested focus.
  test.each<[string, (session: string) => string[]]>([
    ["the session after the words", (session) => ["--focus", "finish", "the", "parser", session]],
    ["the session among the words", (session) => ["--focus", "finish", session, "the", "parser"]],
    ["a session path that is not there", () => ["-f", "finish", "the", "parser", "./missing.jsonl"]],
    ["a compressed rollout's name", () => ["--focus", "finish", "the", "parser", "rollout.jsonl.zst"]],
  ])("%s: the hint quotes the words only", async (_, argsFor) => {
    const run = await runAgent(["handoff", ...argsFor(SESSION), "--engine", "offline"], cleanEnv(home), here);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `if "the parser" is part of --focus, quote it all: --focus 'finish the parser' (see agent handoff --help)`,
    );
  });

  // The words to type are a command to paste: never a rewritten one (a placeholder in it would be sent as the focus).
  test("a stray word that looks like a secret: the hint describes the quoting instead of showing it", async () => {
    const token = "ghp_Zx9Kq2Lm4Np6Rs8Tv0Wy1Ab3Cd5Ef7Gh9Ij1K";
    const run = await runAgent(["handoff", "--focus", "use", token, "--engine", "offline"], cleanEnv(home), here);
    expect(run.code).toBe(2);
    expect(run.stderr).toEndWith(
      '; if "[REDACTED:github-token:1]" is part of --focus, quote it all: --focus and the whole text in quotes\n',
    );
    expect(run.stderr).not.toContain("Zx9Kq2Lm4Np6");
  });

  test("a quoted --focus and a session that is there: no hint", async () => {
    const run = await runAgent(
      ["handoff", "--focus", "finish the parser", SESSION, "--engine", "offline", "--dry-run"],
      cleanEnv(home),
      home,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("quote it all");
  });
});
