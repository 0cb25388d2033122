/**
 * `agent completion bash|zsh|fish`: each script is valid for its shell and completes commands,
 * flags, the agents' names and this machine's session ids. bash is driven directly; fish answers
 * `complete -C`; zsh is only parsed (its completion needs a terminal). A shell that is not
 * installed is skipped, with a message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { completionSpec } from "./completion-spec.ts";
import { createFakeHome, IDS, type FakeHome } from "../../sessions/discover.testing.ts";
import { HANDOFF_HELP } from "../handoff/handoff-args.ts";
import { LS_HELP } from "../ls/ls.ts";
import { CLI_ARGV } from "../../../fixtures/built-cli.ts";

let fake: FakeHome;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  fake = createFakeHome();
  for (const shell of ["bash", "zsh", "fish"]) {
    const run = await runAgent(["completion", shell], fake.env());
    expect(run).toMatchObject({ code: 0, stderr: "" });
    scripts[shell] = join(fake.home, `completion.${shell}`);
    writeFileSync(scripts[shell] ?? "", run.stdout);
  }
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

const has = (shell: string) => Bun.which(shell) !== null;
/** In scripts, `agent` is this checkout's CLI. */
const AGENT = CLI_ARGV.join(" ");

function shellRun(argv: string[]): { code: number; out: string } {
  const proc = Bun.spawnSync(argv, { env: fake.env(), cwd: fake.app, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString() + proc.stderr.toString() };
}

describe("bash", () => {
  test("the script parses", () => {
    expect(shellRun(["bash", "-n", scripts.bash ?? ""])).toEqual({ code: 0, out: "" });
  });

  /** What bash offers for the words typed so far (the last one being completed). */
  function complete(...words: string[]): string[] {
    const script = `source '${scripts.bash}'; agent() { ${AGENT} "$@"; }; COMP_WORDS=(agent ${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length}; _agent; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return shellRun(["bash", "-c", script]).out.split("\n").filter(Boolean);
  }

  test.each<[string[], string[]]>([
    [[""], ["handoff", "ls", "inspect", "config", "integrate", "hook", "completion", "help", "--help", "--version"]],
    [["ha"], ["handoff"]],
    [["handoff", "--ag"], ["--agent"]],
    [
      ["handoff", "--no-r"],
      ["--no-record", "--no-redact"],
    ],
    [
      ["handoff", "--agent", "c"],
      ["claude-code", "claude", "codex"],
    ],
    [
      ["handoff", "--to", "o"],
      ["omp", "opencode", "opencode-ai"],
    ],
    [
      ["handoff", "--engine", ""],
      ["auto", "llm", "offline", "pi", "omp", "claude-code", "claude", "codex"],
    ],
    [["handoff", "--session", "b4"], [IDS.other.codex]],
    [["ls", "--agent", "p"], ["pi"]],
    [
      ["ls", "-"],
      ["--all", "-a", "--agent", "--limit", "--since", "--long", "-l", "--json", "--quiet", "-q", "--verbose", "-v", "--help", "-h"],
    ],
    [
      ["completion", ""],
      ["bash", "zsh", "fish"],
    ],
    [
      ["help", "i"],
      ["inspect", "integrate"],
    ],
  ])("agent %p offers %p", (words, offered) => {
    expect(complete(...words)).toEqual(offered);
  });

  test("--session offers every session id on this machine", () => {
    const ids = complete("handoff", "--session", "");
    expect(ids.sort()).toEqual([...Object.values(IDS.app), ...Object.values(IDS.other), "a1000000-0000-4000-8000-0000000000ff"].sort());
  });
});

describe.skipIf(!has("fish"))("fish (skipped: fish is not installed)", () => {
  function complete(line: string): string[] {
    return shellRun(["fish", "--no-config", "-c", `function agent; ${AGENT} $argv; end; source '${scripts.fish}'; complete -C '${line}'`])
      .out.split("\n")
      .filter(Boolean)
      .map((entry) => entry.split("\t")[0] ?? "");
  }

  test("the script parses", () => {
    expect(shellRun(["fish", "--no-execute", scripts.fish ?? ""])).toEqual({ code: 0, out: "" });
  });

  test.each<[string, string[]]>([
    ["agent ", ["completion", "config", "handoff", "help", "hook", "inspect", "integrate", "ls"]],
    ["agent handoff --agent c", ["claude", "claude-code", "codex"]],
    ["agent handoff --session a4", [IDS.app.codex]],
    ["agent ls --a", ["--agent", "--all"]],
  ])("%p offers %p", (line, offered) => {
    expect(complete(line).sort()).toEqual(offered);
  });
});

describe.skipIf(!has("zsh"))("zsh (skipped: zsh is not installed)", () => {
  test("the script parses", () => {
    expect(shellRun(["zsh", "-n", scripts.zsh ?? ""])).toEqual({ code: 0, out: "" });
  });
});

describe("what the scripts are made of", () => {
  test("every flag help shows is completed, and the hidden --ids is not", () => {
    const [handoff, ls] = completionSpec([HANDOFF_HELP, LS_HELP]);
    expect(handoff?.flags.map((f) => f.long)).toContain("--exec");
    expect(handoff?.flags.map((f) => f.long)).toContain("--no-record");
    expect(handoff?.flags.find((f) => f.long === "--session")?.value).toBe("sessions");
    expect(ls?.flags.map((f) => f.long)).not.toContain("--ids");
  });

  test("agent ls --ids prints the ids alone, one a line, newest first", async () => {
    const run = await runAgent(["ls", "--ids", "--agent", "pi"], fake.env(), fake.app);
    expect(run).toEqual({ code: 0, stdout: `${IDS.app.pi}\na1000000-0000-4000-8000-0000000000ff\n`, stderr: "" });
  });

  test("a shell we have no script for is a usage error", async () => {
    expect(await runAgent(["completion", "tcsh"], fake.env())).toEqual({
      code: 2,
      stdout: "",
      stderr: 'error: argument <shell> takes bash, zsh or fish, not "tcsh" (see agent completion --help)\n',
    });
  });
});
