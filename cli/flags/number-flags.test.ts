/**
 * Every number a handoff takes is plain decimal digits: `Number()` would take `0x10`, `0b11`,
 * `1e-0`, ` 5` and the empty text, and a limit typed as one of them would be another limit, or
 * none. A table of forms over every numeric flag, in-process, and through the CLI for the limit.
 */
import { describe, expect, test } from "bun:test";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { resolveHandoffOptions } from "./options.ts";
import { CommandLineError } from "./usage.ts";

const NOT_DECIMAL = ["0x10", "0b11", "0o7", "1e-0", "1e3", " 5", "5 ", "+5", "5_000", "Infinity", "-1", "many"];

/** Each numeric flag, and what it says a value must be. */
const FLAGS: [string, string][] = [
  ["max-input-tokens", "--max-input-tokens takes a whole number of tokens"],
  ["context-window", "--context-window takes a whole number of tokens"],
  ["max-output-tokens", "--max-output-tokens takes a whole number of tokens"],
  ["retries", "--retries takes a whole number from 0 to 10"],
  ["timeout", "--timeout takes a positive number up to"],
];

describe("a numeric flag not in plain decimal digits is a usage error", () => {
  for (const [flag, says] of FLAGS)
    test.each(NOT_DECIMAL)(`--${flag} %p`, (value) => {
      let thrown: unknown;
      try {
        resolveHandoffOptions({ path: "s.jsonl", [flag]: value }, {});
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(CommandLineError);
      expect((thrown as Error).message).toStartWith(says);
    });
});

describe("plain decimal digits are taken as they read", () => {
  test.each([
    ["max-input-tokens", "500000", (o: ReturnType<typeof resolveHandoffOptions>) => o.inputLimit?.tokens, 500000],
    ["context-window", "32000", (o: ReturnType<typeof resolveHandoffOptions>) => o.contextWindow, 32000],
    ["retries", "0", (o: ReturnType<typeof resolveHandoffOptions>) => o.retries, 0],
    ["timeout", "1.5", (o: ReturnType<typeof resolveHandoffOptions>) => o.timeoutMs, 1500],
    ["timeout", "007", (o: ReturnType<typeof resolveHandoffOptions>) => o.timeoutMs, 7000],
  ] as const)("--%s %s", (flag, value, read, expected) => {
    expect(read(resolveHandoffOptions({ path: "s.jsonl", [flag]: value }, {}))).toBe(expected);
  });

  test("the environment's limit is read by the same rule", () => {
    expect(() => resolveHandoffOptions({ path: "s.jsonl" }, { AGENT_MAX_INPUT_TOKENS: "0x10" })).toThrow(
      'AGENT_MAX_INPUT_TOKENS takes a whole number of tokens, not "0x10"',
    );
  });
});

describe("through the CLI: exit 2, one line, nothing sent", () => {
  const sandbox = useHandoffSandbox();
  test.each([
    [["--max-input-tokens", "0x10"], 'error: --max-input-tokens takes a whole number of tokens, not "0x10" (see agent handoff --help)'],
    [["--max-input-tokens=1e-0"], 'error: --max-input-tokens takes a whole number of tokens, not "1e-0" (see agent handoff --help)'],
    [
      ["--max-input-tokens", ""],
      "error: option --max-input-tokens needs a number of tokens, not an empty string (see agent handoff --help)",
    ],
    [["--max-input-tokens="], "error: option --max-input-tokens needs a number of tokens, not an empty string (see agent handoff --help)"],
    [["--retries="], "error: option --retries needs a number, not an empty string (see agent handoff --help)"],
    [["--timeout", ""], "error: option --timeout needs a number of seconds, not an empty string (see agent handoff --help)"],
  ])("%p", async (flags, line) => {
    const s = sandbox.serve(() => ({ text: "never" }));
    const run = await runAgent(["handoff", sandbox.source(), ...flags], sandbox.env(s.url));
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `${line}\n`]);
    expect(s.requests).toHaveLength(0);
  });

  test("ls --limit '' is refused too", async () => {
    const run = await runAgent(["ls", "--limit", ""], cleanEnv(sandbox.home), sandbox.dir);
    expect([run.code, run.stderr]).toEqual([2, "error: option --limit needs a number, not an empty string (see agent ls --help)\n"]);
  });
});
