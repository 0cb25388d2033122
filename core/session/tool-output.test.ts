import { describe, expect, test } from "bun:test";
import { readToolResult, type ToolOfResult } from "./tool-output.ts";
import { CODEX_FRAMING } from "./tool-statements.ts";

/** A Codex shell tool's result (exec_command, shell_command, shell) and a Codex patch's. */
const CODEX_SHELL: ToolOfResult = { framing: CODEX_FRAMING, shell: true };
const CODEX_PATCH: ToolOfResult = { framing: CODEX_FRAMING, shell: false };

/** Codex 0.169's unified exec header (codex-rs `format_response`), around an output. */
const unified = (lines: string, output = "") =>
  `Chunk ID: 9f8e7d\nWall time: 10.0021 seconds\n${lines}Original token count: 12\nOutput:\n${output}`;

describe("what a result's own framing states: exit code, still running, never ran, failed", () => {
  test.each([
    // Codex unified exec: "Process exited with code N" is the only code; no such line, no code.
    {
      name: "Codex: exited 1",
      output: unified("Process exited with code 1\n", "3 failed\n"),
      isError: false,
      exitCode: 1,
      running: undefined,
      body: "3 failed\n",
    },
    {
      name: "Codex: still running: no code (not 0), and the session to poll",
      output: unified("Process running with session ID 42\n", "running…"),
      isError: false,
      exitCode: null,
      running: "42",
      body: "running…",
    },
    {
      name: "Codex: a header with neither line: no code",
      output: "Wall time: 0.2500 seconds\nOutput:\n",
      isError: false,
      exitCode: null,
      running: undefined,
      body: "",
    },
    {
      name: "Codex: no Chunk ID, no token count",
      output: "Wall time: 1.0 seconds\nProcess exited with code 0\nOutput:\nok",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "ok",
    },
    {
      name: "Codex: a shortened output, 'Total output lines' first",
      output: `Total output lines: 250\n\n${unified("Process exited with code 2\n", "✖ 250 problems")}`,
      isError: false,
      exitCode: 2,
      running: undefined,
      body: "✖ 250 problems",
    },
    {
      name: "Codex: the truncation warning and the line count first",
      output: `Warning: truncated output (original token count: 9000)\nTotal output lines: 900\n\n${unified("Process exited with code 1\n", "FAIL")}`,
      isError: false,
      exitCode: 1,
      running: undefined,
      body: "FAIL",
    },
    {
      name: "Codex: a shortened output still running",
      output: `Total output lines: 900\n\n${unified("Process running with session ID 7\n", "…")}`,
      isError: false,
      exitCode: null,
      running: "7",
      body: "…",
    },
    {
      name: "Codex's older shell tool: 'Exit code: N' opens its header",
      output: "Exit code: 3\nWall time: 0.4 seconds\nOutput:\nboom",
      isError: false,
      exitCode: 3,
      running: undefined,
      body: "boom",
    },
    {
      name: "Codex's older shell tool, its line count in the header",
      output: "Exit code: 0\nWall time: 0.4 seconds\nTotal output lines: 400\nOutput:\nok",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "ok",
    },
    {
      name: "a header statement inside the output is the output's",
      output: unified("Process exited with code 0\n", "Process exited with code 1\nProcess running with session ID 9\n"),
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "Process exited with code 1\nProcess running with session ID 9\n",
    },
    {
      name: "header-like lines with an unknown line among them: no header",
      output: "Wall time: 1 seconds\nExit status: 4\nOutput:\nx",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "Wall time: 1 seconds\nExit status: 4\nOutput:\nx",
    },
    // Each way a header may start (its first letter is looked at before its words).
    {
      name: "Codex: a header opening with 'Process exited'",
      output: "Process exited with code 2\nWall time: 0.1 seconds\nOutput:\nx",
      isError: false,
      exitCode: 2,
      running: undefined,
      body: "x",
    },
    {
      name: "a header's words in lower case: no header",
      output: "wall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nx",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "wall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nx",
    },
    {
      name: "an empty output: no header",
      output: "",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "",
    },
    {
      name: "header-like lines without Wall time: no header",
      output: "Process exited with code 4\nOutput:\nx",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "Process exited with code 4\nOutput:\nx",
    },
    {
      name: "older Codex JSON: its metadata",
      output: '{"output":"1 failed\\n","metadata":{"exit_code":1}}',
      isError: false,
      exitCode: 1,
      running: undefined,
      body: "1 failed\n",
    },
    // pi/omp and Claude Code: their lines count only on the error results they write them on.
    {
      name: "pi: the closing line of a failed run",
      output: "1 failing\n\nCommand exited with code 2",
      isError: true,
      exitCode: 2,
      running: undefined,
      body: "1 failing",
    },
    {
      name: "pi: the same line printed by a successful run",
      output: "1 failing\n\nCommand exited with code 2",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "1 failing\n\nCommand exited with code 2",
    },
    {
      name: "Claude Code: the opening line of a failed run",
      output: "Exit code 1\n 2 fail",
      isError: true,
      exitCode: 1,
      running: undefined,
      body: " 2 fail",
    },
    {
      name: "Claude Code: echo 'Exit code 5', a success",
      output: "Exit code 5",
      isError: false,
      exitCode: 0,
      running: undefined,
      body: "Exit code 5",
    },
    {
      name: "an error that states no code",
      output: "Command timed out after 2m 0.0s",
      isError: true,
      exitCode: null,
      running: undefined,
      body: "Command timed out after 2m 0.0s",
    },
    { name: "a plain success", output: "all good", isError: false, exitCode: 0, running: undefined, body: "all good" },
  ])("$name", ({ output, isError, exitCode, running, body }) => {
    const reading = readToolResult(output, isError);
    expect({ exitCode: reading.exitCode, running: reading.runningSession, body: reading.body, refused: reading.refused }).toEqual({
      exitCode,
      running,
      body,
      refused: false,
    });
  });

  test.each([
    // Claude Code, on an error result: refused before running, a permission rule, the user's "no".
    {
      name: "Claude Code: its input refused",
      output: "<tool_use_error>String to replace not found in file.</tool_use_error>",
      isError: true,
      refused: true,
    },
    {
      name: "Claude Code: a permission rule",
      output: "Permission to use Bash with command rm -rf / has been denied.",
      isError: true,
      refused: true,
    },
    { name: "Claude Code: an edit's permission", output: "Permission to edit /etc/hosts has been denied.", isError: true, refused: true },
    {
      name: "Claude Code: the user said no",
      output: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
      isError: true,
      refused: true,
    },
    { name: "the same words printed by a successful run", output: "<tool_use_error>x</tool_use_error>", isError: false, refused: false },
    {
      name: "Codex: the user declined the command",
      output: "exec command rejected by user",
      isError: false,
      refused: true,
      tool: CODEX_SHELL,
    },
    { name: "Codex: the user declined the patch", output: "patch rejected by user", isError: false, refused: true, tool: CODEX_PATCH },
    { name: "Codex's words in another agent's result", output: "exec command rejected by user", isError: false, refused: false },
    { name: "a failed run is not a refusal", output: "Exit code 1\nboom", isError: true, refused: false },
  ])(
    "$name: refused $refused",
    ({ output, isError, refused, tool }: { output: string; isError: boolean; refused: boolean; tool?: ToolOfResult }) => {
      const reading = readToolResult(output, isError, undefined, tool);
      expect({ refused: reading.refused, failed: reading.failed }).toEqual({ refused, failed: refused || isError });
      if (refused) expect(reading.exitCode).toBeNull();
    },
  );

  test.each([
    {
      name: "Codex: a patch that did not apply (no error flag, no code)",
      output: "apply_patch verification failed: Failed to find expected lines in a.ts",
      isError: false,
      failed: true,
      exitCode: null,
      tool: CODEX_PATCH,
    },
    {
      name: "Codex: the same in older JSON",
      output: '{"output":"apply_patch verification failed: x","metadata":{"exit_code":1}}',
      isError: false,
      failed: true,
      exitCode: 1,
      tool: CODEX_PATCH,
    },
    {
      name: "Codex: a call it could not make",
      output: 'exec_command failed: CreateProcess { message: "No such file" }',
      isError: false,
      failed: true,
      exitCode: null,
      tool: CODEX_SHELL,
    },
    {
      name: "Codex: a poll of a session that is gone",
      output: "write_stdin failed: UnknownProcessId",
      isError: false,
      failed: true,
      exitCode: null,
      tool: CODEX_PATCH,
    },
    {
      name: "a non-zero code Codex stated",
      output: "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n",
      isError: false,
      failed: true,
      exitCode: 1,
    },
    { name: "an error result", output: "boom", isError: true, failed: true, exitCode: null },
    { name: "a success", output: "Success. Updated the following files:\nM a.ts", isError: false, failed: false, exitCode: 0 },
  ])(
    "$name: failed $failed",
    ({
      output,
      isError,
      failed,
      exitCode,
      tool,
    }: {
      output: string;
      isError: boolean;
      failed: boolean;
      exitCode: number | null;
      tool?: ToolOfResult;
    }) => {
      expect(readToolResult(output, isError, undefined, tool)).toMatchObject({ failed, exitCode });
    },
  );

  test("a code a reader found beside the text wins (Claude Code's toolUseResult), and null stays null", () => {
    expect(readToolResult("(Bash completed with no output)", false, 1).exitCode).toBe(1);
    expect(readToolResult("partial output", false, null).exitCode).toBeNull();
  });

  test("a long output: only its first and last lines are read, and only on an error", () => {
    const output = `${"x".repeat(5_000_000)}\nCommand exited with code 3`;
    expect(readToolResult(output, false).exitCode).toBe(0);
    expect(readToolResult(output, true).exitCode).toBe(3);
  });
});
