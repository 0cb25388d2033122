import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { CONFIG_HELP } from "./config.ts";
import { HANDOFF_HELP } from "./handoff/handoff-args.ts";
import { helpWidth, wrapCommand, wrapWords, type CommandHelp } from "./help.ts";
import { INSPECT_HELP } from "./inspect.ts";
import { LS_HELP } from "./ls/ls.ts";
import { COMPLETION_HELP } from "./completion/completion.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const env = cleanEnv(mkdtempSync(join(tmpdir(), "agent-help-")));

const HELP: Record<string, CommandHelp> = {
  handoff: HANDOFF_HELP,
  inspect: INSPECT_HELP,
  config: CONFIG_HELP,
  ls: LS_HELP,
  completion: COMPLETION_HELP,
};

/** The texts a command's help must show whole, each in one piece once line breaks are undone. */
function shownTexts(help: CommandHelp): string[] {
  return Object.values(help.args).flatMap((def) => {
    const text = "negativeDescription" in def && def.default === true ? def.negativeDescription : def.description;
    return text ? [text] : [];
  });
}

/** Every rule a help page must keep at this width; returns the broken ones, so a failure says which. */
function layoutProblems(text: string, width: number, help: CommandHelp = HANDOFF_HELP): string[] {
  const problems: string[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.length > width) problems.push(`line ${i + 1} is ${line.length} columns: ${line}`);
    if (/\s$/.test(line)) problems.push(`line ${i + 1} ends in white space: ${JSON.stringify(line)}`);
  }
  const flowed = text.replace(/\s+/g, " ");
  for (const description of shownTexts(help)) if (!flowed.includes(description)) problems.push(`not shown whole: ${description}`);
  return problems;
}

describe("--help", () => {
  test("agent --help lists the commands on stdout, exit 0", async () => {
    const run = await runAgent(["--help"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("handoff");
    expect(run.stdout).toContain("inspect");
    expect(run.stderr).toBe("");
  });

  test("agent handoff --help explains the flags, the environment, the exit codes, plain text off a terminal", async () => {
    const run = await runAgent(["handoff", "--help"], env);
    expect(run.code).toBe(0);
    for (const text of ["--focus", "--engine", "--no-record", "OPENAI_API_KEY", "EXIT CODES", "130", "EXAMPLES"])
      expect(run.stdout).toContain(text);
    expect(run.stdout).not.toContain("\x1b[");
  });

  test("a switch that is on by default is shown once, as the --no- form a user types", async () => {
    const { stdout } = await runAgent(["handoff", "--help"], env);
    for (const name of ["record", "facts", "redact"]) {
      expect(stdout.match(new RegExp(`--no-${name}\\b`, "g"))).toHaveLength(1);
      expect(stdout).not.toMatch(new RegExp(`(?<!no-)--${name}\\b`));
    }
  });

  test.each([
    ["handoff", "agent handoff [options] [path]"],
    ["inspect", "agent inspect [options] [path]"],
    ["ls", "agent ls [options] [folder]"],
    ["completion", "agent completion <shell>"],
  ])("agent help %s prints what agent %s --help prints", async (name, usage) => {
    const [viaHelp, viaFlag] = await Promise.all([runAgent(["help", name], env), runAgent([name, "--help"], env)]);
    expect(viaHelp).toEqual({ code: 0, stdout: viaFlag.stdout, stderr: "" });
    expect(viaHelp.stdout).toContain(`\n  ${usage}\n`);
  });

  test.each([
    [["help", "--help"], ["--help"]],
    [
      ["--help", "handoff"],
      ["help", "handoff"],
    ],
    [
      ["-h", "config"],
      ["config", "--help"],
    ],
  ])("agent %p prints what agent %p prints", async (args, same) => {
    const [a, b] = await Promise.all([runAgent(args, env), runAgent(same, env)]);
    expect(a).toEqual({ code: 0, stdout: b.stdout, stderr: "" });
  });

  test.each<[string[], string]>([
    [["help", "handof"], 'error: unknown command "handof"; did you mean "handoff"? (see agent --help)\n'],
    [["help", "handoff", "inspect"], 'error: unexpected argument "inspect": agent help takes one command (see agent --help)\n'],
    [["--version", "x"], 'error: unexpected argument "x" after --version (see agent --help)\n'],
  ])("agent %p is a usage error", async (args, stderr) => {
    expect(await runAgent(args, env)).toEqual({ code: 2, stdout: "", stderr });
  });

  const WIDTHS = [80, 120, 50];
  test.each(Object.keys(HELP).flatMap((name) => WIDTHS.map((columns) => [name, columns] as const)))(
    "agent help %s at COLUMNS=%p: every line fits, none ends in spaces, no text is split mid-word",
    async (name, columns) => {
      const { stdout, code } = await runAgent(["help", name], { ...env, COLUMNS: String(columns) });
      expect(code).toBe(0);
      expect(layoutProblems(stdout, columns, HELP[name])).toEqual([]);
    },
  );

  test.each(WIDTHS)("agent --help at COLUMNS=%p fits too", async (columns) => {
    const { stdout } = await runAgent(["--help"], { ...env, COLUMNS: String(columns) });
    expect(layoutProblems(stdout, columns, { ...HANDOFF_HELP, args: {} })).toEqual([]);
    for (const name of Object.keys(HELP)) expect(stdout).toContain(`  ${name} `);
  });

  test("the text is laid out for the width: wider terminals get fewer lines", async () => {
    const [narrow, wide] = await Promise.all([
      runAgent(["handoff", "--help"], { ...env, COLUMNS: "80" }),
      runAgent(["handoff", "--help"], { ...env, COLUMNS: "120" }),
    ]);
    expect(wide.stdout.split("\n").length).toBeLessThan(narrow.stdout.split("\n").length);
  });

  test.skipIf(!Bun.which("script"))("on a terminal, the terminal's own width is used (a 60-column pty, COLUMNS unset)", async () => {
    const command = `stty cols 60; ${CLI_ARGV.join(" ")} handoff --help`;
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], { env, cwd: REPO, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const text = stdout.replace(/\r\n/g, "\n");
    expect(text).toContain("EXAMPLES");
    expect(layoutProblems(text, 60)).toEqual([]);
    expect(text.split("\n").some((line) => line.length > 55)).toBe(true);
  });

  test("agent with no command is a usage error: the usage on stderr, exit 2", async () => {
    const run = await runAgent([], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error: a command is needed");
    expect(run.stderr).toContain("handoff");
  });

  test("an unknown command is named, with a suggestion", async () => {
    const run = await runAgent(["handof"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "handof"; did you mean "handoff"?');
  });
});

describe("extra words are a usage error, not ignored", () => {
  test.each<[string[], string]>([
    [
      ["handoff", "fixtures/example.jsonl", "fixtures/example.jsonl"],
      'unexpected argument "fixtures/example.jsonl": this command takes <path> only (see agent handoff --help)',
    ],
    [
      ["handoff", "fixtures/example.jsonl", "--focus", "finish", "the", "parser"],
      `unexpected argument "the": this command takes <path> only; if "the parser" is part of --focus, quote it all: --focus 'finish the parser' (see agent handoff --help)`,
    ],
    [
      ["inspect", "fixtures/example.jsonl", "extra"],
      'unexpected argument "extra": this command takes <path> only (see agent inspect --help)',
    ],
  ])("agent %p: exit 2, one line, nothing written", async (args, message) => {
    const home = mkdtempSync(join(tmpdir(), "agent-extra-"));
    const out = join(home, "new.jsonl");
    const run = await runAgent(args[0] === "handoff" ? [...args, "-o", out] : args, cleanEnv(home));
    expect(run).toEqual({ code: 2, stdout: "", stderr: `error: ${message}\n` });
    expect(await Bun.file(out).exists()).toBe(false);
  });
});

describe("layout functions", () => {
  test.each<[number | undefined, Record<string, string>, number]>([
    [undefined, {}, 80],
    [undefined, { COLUMNS: "120" }, 100],
    [undefined, { COLUMNS: "60" }, 60],
    [undefined, { COLUMNS: "10" }, 40],
    [undefined, { COLUMNS: "wide" }, 80],
    [72, { COLUMNS: "120" }, 72],
    [0, { COLUMNS: "90" }, 90],
  ])("helpWidth(terminal %p, env %p) = %p", (columns, env, width) => {
    expect(helpWidth(columns, env)).toBe(width);
  });

  test.each<[string, number, string[]]>([
    ["a b c", 3, ["a b", "c"]],
    ["  spaced   out\ttext ", 20, ["spaced out text"]],
    ["a https://very.long/url/that/does/not/fit z", 10, ["a", "https://very.long/url/that/does/not/fit", "z"]],
    ["", 10, []],
  ])("wrapWords(%p, %p)", (text, width, lines) => {
    expect(wrapWords(text, width)).toEqual(lines);
  });

  test("wrapCommand breaks between words with a continuation, never inside quotes", () => {
    expect(wrapCommand('agent handoff s.jsonl --focus "finish the migration"', 36)).toEqual([
      "agent handoff s.jsonl --focus \\",
      '  "finish the migration"',
    ]);
    expect(wrapCommand("agent inspect s.jsonl", 30)).toEqual(["agent inspect s.jsonl"]);
  });
});
