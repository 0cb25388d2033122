import { describe, expect, test } from "bun:test";
import { isHarnessText, parseUserShellCommand, withoutSummaryPreamble } from "./harness.ts";

describe("which user-message texts Codex wrote itself", () => {
  test.each([
    ["AGENTS.md", "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>"],
    ["older user instructions", "<user_instructions>be brief</user_instructions>"],
    ["the environment, any case, padded", "  <ENVIRONMENT_CONTEXT>\n<cwd>/x</cwd>\n</environment_context>\n"],
    ["a skill", "<skill>\n<name>demo</name>\nbody\n</skill>"],
    ["the user's own command", "<user_shell_command>\n<command>\nls\n</command>\n</user_shell_command>"],
    ["an interrupted turn", "<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>"],
    ["a subagent's news", '<subagent_notification>\n{"agent_path":"a"}\n</subagent_notification>'],
    ["internal context", '<codex_internal_context source="goals">\nkeep going\n</codex_internal_context>'],
    ["an older goal", "<goal_context>ship it</goal_context>"],
    ["a hook's prompt", '<hook_prompt hook_run_id="r1">Retry with tests.</hook_prompt>'],
    ["an integration's context", "<external_linear>ISSUE-1</external_linear>"],
    ["a prompt suggestion request", "<next_prompt_suggestion>\n…\n</next_prompt_suggestion>"],
    ["an old process-limit warning", "Warning: The maximum number of unified exec processes you can keep open is 64."],
    [
      "an old apply_patch warning",
      "Warning: apply_patch was requested via exec_command. Use the apply_patch tool instead of exec_command.",
    ],
    ["an old account warning", "Warning: Your account was flagged for potentially high-risk cyber activity …"],
  ])("%s: Codex's", (_, text) => {
    expect(isHarnessText(text)).toBe(true);
  });

  test.each([
    ["a prompt", "Fix the login bug."],
    ["a prompt that mentions a tag", "Why does <environment_context> show the wrong cwd?"],
    ["a prompt that starts with a tag but goes on", "<skill> is a tag I want to add, see below"],
    ["a handoff document", "<handoff-context>\n## Goal\n…\n</handoff-context>\n\nThe above is a handoff document."],
    ["a warning the user pasted", "Warning: the build is slow"],
    ["an empty text", ""],
  ])("%s: the user's", (_, text) => {
    expect(isHarnessText(text)).toBe(false);
  });
});

describe("the user's own command, as Codex records it", () => {
  test.each([
    [
      "with output and an exit code",
      "<user_shell_command>\n<command>\ngit status --short\n</command>\n<result>\nExit code: 0\nDuration: 0.0100 seconds\nOutput:\n M src/app.ts\n</result>\n</user_shell_command>",
      { command: "git status --short", exitCode: 0, output: " M src/app.ts" },
    ],
    [
      "a failure with a truncation warning",
      "<user_shell_command>\n<command>\nmake\n</command>\n<result>\nExit code: 2\nDuration: 1.0000 seconds\nWarning: truncated\nOutput:\nerror\n</result>\n</user_shell_command>",
      { command: "make", exitCode: 2, output: "error" },
    ],
    ["another shape", "<user_shell_command>ls</user_shell_command>", undefined],
  ])("%s", (_, text, expected) => {
    expect(parseUserShellCommand(text)).toEqual(expected);
  });
});

test.each([
  [
    "Codex's preamble is dropped, the summary kept",
    "Another language model started to solve this problem and produced …:\nDONE: the parser.",
    "DONE: the parser.",
  ],
  ["a summary without it stays whole", "DONE: the parser.", "DONE: the parser."],
  [
    "the preamble's words alone, on one line, stay",
    "Another language model started to solve this problem",
    "Another language model started to solve this problem",
  ],
])("compaction summary: %s", (_, text, summary) => {
  expect(withoutSummaryPreamble(text)).toBe(summary);
});
