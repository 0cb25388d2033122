import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../fixtures/run-agent.ts";

const env = cleanEnv(mkdtempSync(join(tmpdir(), "agent-help-")));

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
    for (const text of ["--focus", "--engine", "--no-record", "OPENAI_API_KEY", "EXIT CODES", "130", "EXAMPLES"]) expect(run.stdout).toContain(text);
    expect(run.stdout).not.toContain("\x1b[");
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
