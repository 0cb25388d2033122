import { describe, expect, test } from "bun:test";
import { assistant, bash, call, message, text, user, type Fields } from "../../fixtures/sessions/builders.ts";
import { loadFixture } from "../../fixtures/sessions/load.ts";
import { looksLikeHandoffInstruction } from "./facts.ts";
import { factsOf, toolTurn } from "../../fixtures/sessions/facts-of.ts";
import { readExitCode } from "./runs.ts";
import { pathArgument, replacementArgument } from "./tools.ts";

describe("facts from the richest fixture", () => {
  test("files, commands, models and the last request, read off the live branch", () => {
    const { analysis } = loadFixture("v3-branches.jsonl");
    expect(analysis.facts).toEqual({
      cwd: "/home/dev/shop",
      // package.json comes from the branch summary's details, docs/limits.md from the compaction's
      filesRead: ["src/server.ts", "package.json", "docs/limits.md", "src/config.ts"],
      filesModified: ["src/server.ts", "src/config.ts"],
      filesDeleted: [],
      commands: [
        { command: "npm test", exitCode: 1, by: "tool", failed: true },
        { command: "git status --short", exitCode: 0, by: "user", failed: false },
        { command: "ls src", exitCode: null, by: "tool", failed: false }, // called, never answered
      ],
      models: ["anthropic/claude-sonnet-4-5", "openai/gpt-5"],
      lastUserRequest: "Make the limit configurable via RATE_LIMIT. Like this:",
    });
  });

  test("nothing from the abandoned branch, and never the private !! command", () => {
    const { facts } = loadFixture("v3-branches.jsonl").analysis;
    expect(facts.commands.map((c) => c.command)).not.toContain("npm install ioredis");
    expect(facts.commands.map((c) => c.command)).not.toContain("cat .env");
  });

  test("the omp fixture: omp model changes and tool calls before the reset boundary still count", () => {
    const { facts } = loadFixture("omp.jsonl").analysis;
    expect(facts).toMatchObject({
      filesRead: ["test/upload.test.ts"],
      filesModified: [],
      commands: [{ command: "bun test test/upload.test.ts", exitCode: 0, by: "tool", failed: false }],
      models: ["anthropic/claude-opus-4-5", "openai/gpt-5.1"],
      lastUserRequest: "Here is the failure:",
    });
  });
});

describe("commands and their exit codes", () => {
  test.each([
    { name: "a passing tool run: 0", result: "12 passing", isError: false, exitCode: 0, failed: false },
    { name: "pi's failure note: its code", result: "1 failing\n\nCommand exited with code 2", isError: true, exitCode: 2, failed: true },
    { name: "an exit code mentioned in a result: that code", result: "done (exit code: 0)", isError: false, exitCode: 0, failed: false },
    {
      name: "an error without a code: none, and not counted as failed",
      result: "Command timed out",
      isError: true,
      exitCode: null,
      failed: false,
    },
  ])("$name", ({ result, isError, exitCode, failed }) => {
    expect(factsOf(toolTurn("bash", { command: "npm test" }, result, isError)).commands).toEqual([
      { command: "npm test", exitCode, by: "tool", failed },
    ]);
  });

  test("a tool call that never got a result has no exit code", () => {
    expect(factsOf([assistant(1, [call("c1", "bash", { command: "sleep 99" })], "toolUse")]).commands).toEqual([
      { command: "sleep 99", exitCode: null, by: "tool", failed: false },
    ]);
  });

  test.each([
    { name: "a ! run", run: bash(1, "make", "ok", 0), expected: [{ command: "make", exitCode: 0, by: "user", failed: false }] },
    { name: "a failing ! run", run: bash(1, "make", "err", 3), expected: [{ command: "make", exitCode: 3, by: "user", failed: true }] },
    {
      name: "a ! pipeline whose output shows the build failed",
      run: bash(1, "make 2>&1 | tail -3", "main.c:3:1: error: expected ';'", 0),
      expected: [{ command: "make 2>&1 | tail -3", exitCode: 0, by: "user", failed: true }],
    },
    {
      name: "a cancelled ! run",
      run: message({ role: "bashExecution", command: "make", output: "", exitCode: 130, cancelled: true }),
      expected: [{ command: "make", exitCode: null, by: "user", failed: false }],
    },
    { name: "a private !! run", run: bash(1, "cat .env", "SECRET=1", 0, true), expected: [] },
  ])("$name", ({ run, expected }) => {
    expect(factsOf([run]).commands).toEqual([...expected]);
  });

  test("commands keep their order and repeats", () => {
    const facts = factsOf([
      ...toolTurn("bash", { command: "npm test" }),
      bash(3, "git diff", "", 0),
      ...toolTurn("bash", { command: "npm test" }),
    ]);
    expect(facts.commands.map((c) => c.command)).toEqual(["npm test", "git diff", "npm test"]);
  });
});

describe("models", () => {
  test.each([
    { name: "a pi model change", entries: [{ type: "model_change", provider: "openai", modelId: "gpt-5" }], models: ["openai/gpt-5"] },
    { name: "an omp model change", entries: [{ type: "model_change", model: "openai/gpt-5", role: "default" }], models: ["openai/gpt-5"] },
    { name: "an assistant turn", entries: [assistant(1, [text("x")], "stop", "google/gemini-3")], models: ["google/gemini-3"] },
    {
      name: "a model id that already names its provider",
      entries: [message({ role: "assistant", content: [text("x")], provider: "openrouter", model: "openrouter/auto", stopReason: "stop" })],
      models: ["openrouter/auto"],
    },
    {
      name: "the same model twice, and a second one",
      entries: [
        { type: "model_change", provider: "a", modelId: "m" },
        assistant(1, [text("x")], "stop", "a/m"),
        assistant(2, [text("y")], "stop", "b/n"),
      ],
      models: ["a/m", "b/n"],
    },
  ])("$name", ({ entries, models }) => {
    expect(factsOf(entries).models).toEqual([...models]);
  });
});

describe("the last real user request", () => {
  const handoff = "Write a handoff document.\n\n## Goal\n…\n\n## Next Steps\n…";

  test.each([
    { name: "the newest user message", entries: [user(1, "first"), user(2, "second")], expected: "second" },
    {
      name: "text blocks joined",
      entries: [user(1, [text("a"), { type: "image", data: "x", mimeType: "image/png" }, text("b")])],
      expected: "a\nb",
    },
    { name: "a recorded handoff instruction is skipped", entries: [user(1, "do the thing"), user(2, handoff)], expected: "do the thing" },
    { name: "a blank message is skipped", entries: [user(1, "do the thing"), user(2, "  ")], expected: "do the thing" },
    {
      name: "a developer message is not the user's",
      entries: [user(1, "mine"), message({ role: "developer", content: "harness" })],
      expected: "mine",
    },
    { name: "no user message at all", entries: [assistant(1, [text("hello")])], expected: undefined },
  ])("$name", ({ entries, expected }) => {
    expect(factsOf(entries).lastUserRequest).toBe(expected);
  });

  test.each([
    { text: "Write a handoff.\n## Goal\n## Next Steps", expected: true },
    { text: "Hand-off please.\n## Goal\n## Next Steps", expected: true },
    { text: "What is our goal here? Next steps?", expected: false },
    { text: "## Goal\n## Next Steps\n(the template for our README)", expected: false },
  ])("looksLikeHandoffInstruction($text) is $expected", ({ text, expected }) => {
    expect(looksLikeHandoffInstruction(text)).toBe(expected);
  });
});

describe("reading tool calls and results (shared with the offline engine)", () => {
  test.each([
    [{ path: "a.ts" }, "a.ts"],
    [{ file_path: "b.ts" }, "b.ts"],
    [{ filePath: "c.ts" }, "c.ts"],
    [{ command: "ls" }, undefined],
    ["a.ts", undefined],
  ])("pathArgument(%j) is %p", (args, expected) => {
    expect(pathArgument(args)).toBe(expected);
  });

  test.each([
    [
      { path: "a.ts", oldText: "config.srv.port", newText: "config.server.port" },
      { from: "config.srv.port", to: "config.server.port" },
    ],
    [
      { file_path: "a.ts", old_string: " a ", new_string: "b" },
      { from: "a", to: "b" },
    ],
    [{ path: "a.ts", oldText: "one\ntwo", newText: "x" }, undefined],
    [{ path: "a.ts", oldText: "x".repeat(81), newText: "y" }, undefined],
    [{ path: "a.ts", oldText: "", newText: "y" }, undefined],
    [{ path: "a.ts", content: "whole file" }, undefined],
    [{ path: ".env", oldText: "OPENAI_API_KEY=old", newText: "OPENAI_API_KEY=new" }, undefined],
    [{ path: "a.ts", oldText: "const k = 1", newText: "const k = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123'" }, undefined],
    [{ path: "a.ts", oldText: "const t = ''", newText: "const t = getToken()" }, undefined],
  ])("replacementArgument(%j) is %j", (args, expected) => {
    expect(replacementArgument(args)).toEqual(expected);
  });

  test.each([
    ["Command exited with code 2", true, 2],
    ["done\nexit code: -1", true, -1],
    ["done\nexit code: -1", false, 0],
    ["Exit code 0", true, 0],
    ["all good", false, 0],
    ["boom", true, null],
    // Codex: unified exec states it before the output; older versions answered with JSON.
    [
      "Chunk ID: 1a\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nexit code 0 in a log\n",
      false,
      1,
    ],
    ['{"output":"1 failed\\n","metadata":{"exit_code":2,"duration_seconds":1.5}}', false, 2],
    ['{"output":"says exit code 7","metadata":{"exit_code":0}}', false, 0],
    ['{"output":"no metadata"}', false, 0],
  ] as const)("readExitCode(%p, isError %p) is %p", (output, isError, expected) => {
    expect(readExitCode(output, isError)).toBe(expected);
  });
});

describe("one path form: relative to the session's cwd when inside it, else absolute", () => {
  test("the same file under three spellings is one file, in its relative form", () => {
    const facts = factsOf(
      [
        ...toolTurn("read", { path: "src/lexer.ts" }),
        ...toolTurn("edit", { path: "./src/lexer.ts", oldText: "a", newText: "b" }),
        ...toolTurn("edit", { path: "/home/dev/tok/src/lexer.ts", oldText: "b", newText: "c" }),
        ...toolTurn("read", { path: "/home/dev/other/x.ts" }),
        ...toolTurn("read", { path: "../tok/src/../README.md" }),
      ],
      "/home/dev/tok",
    );
    expect(facts.filesModified).toEqual(["src/lexer.ts"]);
    expect(facts.filesRead).toEqual(["src/lexer.ts", "/home/dev/other/x.ts", "README.md"]);
  });
});

describe("which tools run commands, read and write files: one table for every format", () => {
  test.each([
    { agent: "pi", name: "bash", args: { command: "npm test" }, commands: ["npm test"], read: [], modified: [] },
    { agent: "Claude Code", name: "Bash", args: { command: "npm test" }, commands: ["npm test"], read: [], modified: [] },
    { agent: "Claude Code", name: "Read", args: { file_path: "/w/app/a.ts" }, commands: [], read: ["a.ts"], modified: [] },
    { agent: "Claude Code", name: "NotebookEdit", args: { notebook_path: "n.ipynb" }, commands: [], read: [], modified: ["n.ipynb"] },
    { agent: "Codex", name: "exec_command", args: { cmd: "cargo test" }, commands: ["cargo test"], read: [], modified: [] },
    { agent: "Codex", name: "exec_command", args: '{"cmd":"cargo build"}', commands: ["cargo build"], read: [], modified: [] },
    {
      agent: "Codex (older)",
      name: "shell",
      args: { command: ["bash", "-lc", "npm run lint"] },
      commands: ["npm run lint"],
      read: [],
      modified: [],
    },
    {
      agent: "Codex (older)",
      name: "shell",
      args: { command: ["ls", "-la", "my dir"] },
      commands: ["ls -la 'my dir'"],
      read: [],
      modified: [],
    },
    {
      agent: "Codex",
      name: "local_shell_call",
      args: { action: { command: ["git", "status"] } },
      commands: ["git status"],
      read: [],
      modified: [],
    },
    {
      agent: "Codex (its reader)",
      name: "local_shell_call",
      args: { type: "exec", command: ["git", "diff"] },
      commands: ["git diff"],
      read: [],
      modified: [],
    },
    {
      agent: "Codex",
      name: "shell_command",
      args: { command: "pnpm test", workdir: "/w/app" },
      commands: ["pnpm test"],
      read: [],
      modified: [],
    },
    { agent: "Codex (older)", name: "container.exec", args: { command: ["make"] }, commands: ["make"], read: [], modified: [] },
    { agent: "Codex", name: "write_stdin", args: { session_id: 42, chars: "" }, commands: [], read: [], modified: [] }, // a poll: no command of its own
    {
      agent: "Codex",
      name: "shell",
      args: { command: ["apply_patch", "*** Begin Patch\n*** Add File: n.ts\n+x\n*** End Patch"] },
      commands: [],
      read: [],
      modified: ["n.ts"],
    },
    { agent: "Codex", name: "view_image", args: { path: "/w/app/shot.png" }, commands: [], read: ["shot.png"], modified: [] },
    {
      agent: "Codex",
      name: "apply_patch (delete, move)",
      args: { input: "*** Begin Patch\n*** Delete File: old.ts\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** End Patch" },
      commands: [],
      read: [],
      // The deleted file and the moved file's old name are in filesDeleted (see file-changes.test.ts), not among the modified.
      modified: ["b.ts"],
    },
    {
      agent: "Codex",
      name: "apply_patch",
      args: { input: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: /w/app/src/b.ts\n+z\n*** End Patch" },
      commands: [],
      read: [],
      modified: ["src/a.ts", "src/b.ts"],
    },
    { agent: "any", name: "search", args: { command: "not a shell" }, commands: [], read: [], modified: [] },
  ])("$agent $name", ({ name, args, commands, read, modified }) => {
    const facts = factsOf(toolTurn(name.split(" ")[0] ?? name, args as Fields), "/w/app");
    expect({ commands: facts.commands.map((c) => c.command), read: facts.filesRead, modified: facts.filesModified }).toEqual({
      commands: [...commands],
      read: [...read],
      modified: [...modified],
    });
  });
});
