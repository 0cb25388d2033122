import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import type { ArgsDef } from "citty";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { findFlagProblem } from "./args.ts";
import { handoffCommand } from "../commands/handoff/handoff.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { inspectCommand } from "../commands/inspect.ts";

async function argsOf(command: typeof handoffCommand | typeof inspectCommand): Promise<ArgsDef> {
  const args = command.args;
  return (typeof args === "function" ? await args() : await args) ?? {};
}

/**
 * Every flag of every command, classified by hand: a new flag fails the completeness check
 * below until someone decides which rule it falls under.
 */
const SWITCHES: Record<string, string[]> = {
  handoff: ["record", "json", "dry-run", "strict", "facts", "last-exchanges", "redact", "quiet", "verbose", "exec", "pick"],
  inspect: ["json", "strict", "quiet", "verbose"],
};
/** Value flags whose value names a file, an entry or an endpoint, or is a number: empty is never "the default". */
const NAMING: Record<string, { flag: string; short?: string }[]> = {
  handoff: [
    { flag: "out", short: "o" },
    { flag: "leaf" },
    { flag: "system-prompt-file" },
    { flag: "base-url" },
    { flag: "session" },
    { flag: "timeout" },
    { flag: "retries" },
    { flag: "context-window" },
    { flag: "max-output-tokens" },
    { flag: "max-input-tokens" },
  ],
  inspect: [{ flag: "leaf" }, { flag: "session" }],
};
/** Value flags where an empty value means the default (a script's unset `$FOCUS`, `$MODEL`…). */
const DEFAULTING: Record<string, string[]> = {
  handoff: ["focus", "model", "provider", "engine", "to", "agent"],
  inspect: ["agent"],
};
const COMMANDS = { handoff: handoffCommand, inspect: inspectCommand };

describe("the flag tables cover every flag", () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    test(name, async () => {
      const defined = Object.entries(await argsOf(command))
        .filter(([, def]) => def.type !== "positional")
        .map(([flag]) => flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))
        .sort();
      const classified = [...(SWITCHES[name] ?? []), ...(NAMING[name] ?? []).map((f) => f.flag), ...(DEFAULTING[name] ?? [])].sort();
      expect(classified).toEqual(defined);
    });
  }
});

describe("a switch takes no value", () => {
  for (const [name, switches] of Object.entries(SWITCHES)) {
    for (const flag of switches) {
      test.each(["true", "false", "", "no", "1"])(`${name} --${flag}=… and --no-${flag}=… are refused (value %p)`, async (value) => {
        const def = await argsOf(COMMANDS[name as keyof typeof COMMANDS]);
        expect(findFlagProblem(["s.jsonl", `--${flag}=${value}`], def)).toBe(`option --${flag} takes no value (found --${flag}=${value})`);
        expect(findFlagProblem(["s.jsonl", `--no-${flag}=${value}`], def)).toBe(
          `option --no-${flag} takes no value (found --no-${flag}=${value})`,
        );
      });
    }
  }
});

describe("a flag that names something refuses an empty value", () => {
  for (const [name, flags] of Object.entries(NAMING)) {
    for (const { flag, short } of flags) {
      const forms = [
        [`--${flag}`, ""],
        [`--${flag}=`],
        ...(short
          ? [
              [`-${short}`, ""],
              [`-q${short}`, ""],
            ]
          : []),
      ];
      test.each(forms)(`${name} %s %p`, async (...argv) => {
        const problem = findFlagProblem(["s.jsonl", ...argv], await argsOf(COMMANDS[name as keyof typeof COMMANDS]));
        expect(problem).toMatch(
          new RegExp(
            `^option (--${flag}|-${short}) needs (a path|an id|a URL|a number|a number of seconds|a number of tokens), not an empty string$`,
          ),
        );
      });
      test(`${name} --${flag} with a value is fine`, async () => {
        expect(
          findFlagProblem(["s.jsonl", `--${flag}`, "x", `--${flag}=y`], await argsOf(COMMANDS[name as keyof typeof COMMANDS])),
        ).toBeUndefined();
      });
    }
  }
});

describe("a short flag's value never starts with =", () => {
  test.each([
    [["-o=new.jsonl"], "option -o takes its value after a space (-o new.jsonl) or as --out=new.jsonl, not -o=new.jsonl"],
    [["-o="], "option -o takes its value after a space (-o VALUE) or as --out=VALUE, not -o="],
    [["-qf=text"], "option -f takes its value after a space (-f text) or as --focus=text, not -qf=text"],
    [["-m=gpt-5"], "option -m takes its value after a space (-m gpt-5) or as --model=gpt-5, not -m=gpt-5"],
  ])("%p", async (argv, message) => {
    expect(findFlagProblem(["s.jsonl", ...argv], await argsOf(handoffCommand))).toBe(message);
  });
});

describe("an empty value for other value flags still means the default", () => {
  for (const [name, flags] of Object.entries(DEFAULTING)) {
    test.each(flags)(`${name} --%s ""`, async (flag) => {
      expect(
        findFlagProblem(["s.jsonl", `--${flag}`, "", `--${flag}=`], await argsOf(COMMANDS[name as keyof typeof COMMANDS])),
      ).toBeUndefined();
    });
  }
});

describe("through the CLI: exit 2, nothing written, the source untouched", () => {
  const sandbox = useHandoffSandbox();
  test.each([
    [["--no-record=true"], "option --no-record takes no value (found --no-record=true)"],
    [["--no-record=false"], "option --no-record takes no value (found --no-record=false)"],
    [["--json=no"], "option --json takes no value (found --json=no)"],
    [["-o", ""], "option -o needs a path, not an empty string"],
    [["--out="], "option --out needs a path, not an empty string"],
    [["--leaf", ""], "option --leaf needs an id, not an empty string"],
    [["--system-prompt-file", ""], "option --system-prompt-file needs a path, not an empty string"],
    [["--base-url="], "option --base-url needs a URL, not an empty string"],
    [["-o=new.jsonl"], "option -o takes its value after a space (-o new.jsonl) or as --out=new.jsonl, not -o=new.jsonl"],
  ])("handoff %p", async (flags, message) => {
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--engine", "offline", ...flags], cleanEnv(sandbox.home));
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toBe(`error: ${message} (see agent handoff --help)\n`);
    sandbox.expectNothingWritten(src, original);
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });

  // An empty positional (`"$SESSION"` unset) is no "not given": handoff would pick the newest session.
  test.each([
    [["handoff", ""], "handoff", "<path>"],
    [["handoff", "", "--engine", "offline"], "handoff", "<path>"],
    [["handoff", "--engine", "offline", "--", ""], "handoff", "<path>"],
    [["handoff", "", "--session", "x"], "handoff", "<path>"],
    [["inspect", ""], "inspect", "<path>"],
    [["inspect", "--json", ""], "inspect", "<path>"],
    [["completion", ""], "completion", "<shell>"],
  ])("%p: exit 2, one line", async (args, command, name) => {
    const run = await runAgent(args, cleanEnv(sandbox.home), sandbox.dir);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      "",
      `error: argument ${name} needs a value, not an empty string (an unset variable?) (see agent ${command} --help)\n`,
    ]);
    expect(readdirSync(sandbox.dir)).toEqual([]);
  });

  test("inspect --leaf ''", async () => {
    const run = await runAgent(["inspect", sandbox.source(), "--leaf", ""], cleanEnv(sandbox.home));
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      "",
      "error: option --leaf needs an id, not an empty string (see agent inspect --help)\n",
    ]);
  });
});
