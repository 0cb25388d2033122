import { describe, expect, test } from "bun:test";
import {
  assistantLine,
  jsonl,
  toolResult,
  toolUse,
  userLine,
  uuid,
  type Fields,
} from "../../../../fixtures/sessions/claude-code/builders.ts";
import { analyzeBranch } from "../../analyze.ts";
import { classifyToolCall } from "../../tools.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000f1", cwd: "/home/dev/shop" };

/** One tool call and its result, as Claude Code 2.1.328 saves them, read into Session Facts. */
function factsOf(name: string, input: Fields, result: unknown, isError: boolean | undefined, toolUseResult?: unknown) {
  const text = jsonl([
    userLine(place, uuid("7", 1), null, 1, "Go."),
    assistantLine(place, uuid("7", 2), uuid("7", 1), 2, [toolUse("toolu_1", name, input)], { messageId: "msg_1", stop: "tool_use" }),
    userLine(
      place,
      uuid("7", 3),
      uuid("7", 2),
      3,
      [toolResult("toolu_1", result, isError)],
      toolUseResult === undefined ? {} : { toolUseResult },
    ),
  ]);
  return analyzeBranch(readClaudeCodeSession(text, "facts.jsonl")).facts;
}

describe("Claude Code's tools in the one classifier (core/session/tools.ts)", () => {
  test.each([
    ["Bash", { command: "npm test", description: "Run tests" }, { kind: "shell", command: "npm test" }],
    ["Read", { file_path: "/home/dev/shop/src/a.ts", offset: 10 }, { kind: "read", paths: ["/home/dev/shop/src/a.ts"] }],
    [
      "Edit",
      { file_path: "/home/dev/shop/src/a.ts", old_string: "a", new_string: "b" },
      { kind: "write", paths: ["/home/dev/shop/src/a.ts"] },
    ],
    ["MultiEdit", { file_path: "/home/dev/shop/src/a.ts", edits: [] }, { kind: "write", paths: ["/home/dev/shop/src/a.ts"] }],
    ["Write", { file_path: "/home/dev/shop/src/new.ts", content: "x" }, { kind: "write", paths: ["/home/dev/shop/src/new.ts"] }],
    ["NotebookEdit", { notebook_path: "/home/dev/shop/nb.ipynb", new_source: "x" }, { kind: "write", paths: ["/home/dev/shop/nb.ipynb"] }],
    ["Grep", { pattern: "TODO", path: "src" }, { kind: "other" }],
    ["Glob", { pattern: "**/*.ts" }, { kind: "other" }],
    ["Task", { prompt: "Find it", subagent_type: "Explore" }, { kind: "other" }],
  ])("%s", (name, input, expected) => {
    expect(classifyToolCall(name, input)).toMatchObject(expected);
  });
});

describe("a Bash run's exit code, as Claude Code records it", () => {
  test.each([
    ["a success", "ok", false, { stdout: "ok", stderr: "", interrupted: false }, { exitCode: 0, failed: false }],
    [
      "a failure: is_error, and the text starts with the code",
      "Exit code 2\nboom",
      true,
      "Error: Exit code 2\nboom",
      { exitCode: 2, failed: true },
    ],
    [
      "grep finding nothing: no error, exit 1 said only by returnCodeInterpretation",
      "(Bash completed with no output)",
      false,
      { stdout: "", stderr: "", interrupted: false, returnCodeInterpretation: "No matches found" },
      { exitCode: 1, failed: false },
    ],
    [
      "an interrupted run: no code",
      "Command was interrupted",
      true,
      { stdout: "", stderr: "", interrupted: true },
      { exitCode: null, failed: false },
    ],
    [
      "an interrupted run that is not an error: still no code",
      "partial output",
      false,
      { stdout: "partial output", stderr: "", interrupted: true },
      { exitCode: null, failed: false },
    ],
    ["an older file without toolUseResult", "ok", undefined, undefined, { exitCode: 0, failed: false }],
  ])("%s", (_why, result, isError, toolUseResult, expected) => {
    const command = _why.startsWith("grep") ? "grep -rn TODO src" : "make build";
    expect(factsOf("Bash", { command }, result, isError, toolUseResult).commands).toEqual([{ command, by: "tool", ...expected }]);
  });
});
