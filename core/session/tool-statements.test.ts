import { describe, expect, test } from "bun:test";
import { assistantLine, jsonl, toolResult, toolUse, userLine, uuid } from "../../fixtures/sessions/claude-code/builders.ts";
import { extractNotes } from "../handoff/offline/extract.ts";
import { analyzeBranch } from "./analyze.ts";
import { readClaudeCodeSession } from "./formats/claude-code/read.ts";
import { readCodexRollout } from "./formats/codex/read.ts";
import { normalizePath } from "./paths.ts";
import type { Session } from "./types.ts";

/**
 * Every statement of tool-statements.ts, as the agent writes it, through the agent's own reader,
 * into Session Facts and the offline engine: a call refused is not a command and changed no file; a
 * call cut short has no exit code (never 0) and changed no file; a call that could not run failed.
 */

type Run = [command: string, exitCode: number | null, failed: boolean];

interface Outcome {
  commands: Run[];
  modified: string[];
}

function outcomeOf(session: Session): Outcome {
  const { facts, context } = analyzeBranch(session);
  const commands = facts.commands.map((run): Run => [run.command, run.exitCode, run.failed]);
  // The offline engine judged the same runs the same way, and saw no other file changed.
  const notes = extractNotes(context);
  expect(notes.runs.map((run): Run => [run.command, run.exitCode, run.failed])).toEqual(commands);
  const changed = notes.edits.map((edit) => normalizePath(edit.text, facts.cwd));
  expect(changed.filter((path) => !facts.filesModified.includes(path))).toEqual([]);
  return { commands, modified: facts.filesModified };
}

// --- Codex 0.169 ---------------------------------------------------------------------------

const CODEX_CWD = "/home/dev/shop";
const record = (second: number, type: string, payload: object) =>
  JSON.stringify({ timestamp: new Date(Date.UTC(2026, 10, 30, 12, 0, second)).toISOString(), type, payload });

/** One call of a Codex tool and its output, as 0.169 writes them. */
function codexCall(kind: "exec_command" | "shell_command" | "shell" | "apply_patch", output: string): Session {
  const call =
    kind === "apply_patch"
      ? {
          type: "custom_tool_call",
          name: "apply_patch",
          call_id: "c1",
          input: "*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** End Patch\n",
        }
      : {
          type: "function_call",
          name: kind,
          call_id: "c1",
          arguments: JSON.stringify(
            kind === "exec_command"
              ? { cmd: "npm run build" }
              : kind === "shell_command"
                ? { command: "npm run build" }
                : { command: ["bash", "-lc", "npm run build"] },
          ),
        };
  const lines = [
    record(0, "session_meta", {
      id: "11111111-2222-4333-8444-555555555555",
      timestamp: "2026-11-30T12:00:00.000Z",
      cwd: CODEX_CWD,
      cli_version: "0.169.0",
    }),
    record(1, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "Build it." }] }),
    record(2, "response_item", call),
    record(3, "response_item", {
      type: kind === "apply_patch" ? "custom_tool_call_output" : "function_call_output",
      call_id: "c1",
      output,
    }),
  ];
  return readCodexRollout(`${lines.join("\n")}\n`, "rollout.jsonl");
}

const CODEX_TEXTS: { text: string; means: "refused" | "cut short" | "failed"; code?: number }[] = [
  { text: "exec command rejected by user", means: "refused" },
  { text: "patch rejected by user", means: "refused" },
  { text: "patch rejected: writing outside of the project; rejected by user approval settings", means: "refused" },
  { text: "This action was rejected due to unacceptable risk.\nReason: force push to the default branch\n", means: "refused" },
  { text: "`rm -rf /var/lib/app` rejected: policy forbids commands starting with `rm`", means: "refused" },
  { text: "`npm run build` rejected: blocked by policy", means: "refused" },
  { text: "Command denied by sandbox: network access is not allowed", means: "refused" },
  { text: "write_stdin rejected: session 4 is not interactive", means: "refused" },
  {
    text: "Automatic approval review rejected too many approval requests for this turn (3 consecutive, 5 in the last 10 reviews); interrupting the turn.",
    means: "refused",
  },
  { text: "aborted by user after 0.4s", means: "cut short" },
  { text: "Wall time: 2.1 seconds\naborted by user", means: "cut short" },
  { text: "aborted before dispatch", means: "cut short" },
  { text: 'execution error: Io(Os { code: 2, kind: NotFound, message: "No such file or directory" })', means: "failed" },
  {
    text: "execution error: sandbox denied exec error, exit code: 6, stdout: , stderr: curl: (6) Could not resolve host",
    means: "failed",
    code: 6,
  },
  { text: "sandbox denied exec error, exit code: 1, stdout: , stderr: Permission denied", means: "failed", code: 1 },
  { text: 'exec_command failed: CreateProcess { message: "No such file" }', means: "failed" },
  { text: "apply_patch verification failed: Failed to find expected lines in src/new.ts", means: "failed" },
  { text: "failed to parse function arguments: expected value", means: "failed" },
];

describe("Codex 0.169's statements, on each of its tools", () => {
  const tools = ["exec_command", "shell_command", "shell", "apply_patch"] as const;
  test.each(CODEX_TEXTS.flatMap((row) => tools.map((tool) => ({ ...row, tool }))))(
    "$tool: $means: $text",
    ({ tool, text, means, code }) => {
      const outcome = outcomeOf(codexCall(tool, text));
      // A patch is not a command; what it would have changed never counts.
      const run: Run[] = tool === "apply_patch" || means === "refused" ? [] : [["npm run build", code ?? null, means === "failed"]];
      expect(outcome).toEqual({ commands: run, modified: [] });
    },
  );

  test.each(tools)("%s: the same words after Codex's own header are the command's: exit 0", (tool) => {
    const header = "Chunk ID: 1a\nWall time: 0.5000 seconds\nProcess exited with code 0\nOriginal token count: 6\nOutput:\n";
    const outcome = outcomeOf(
      codexCall(tool, `${header}aborted by user after 0.4s\nSuccess. Updated the following files:\nA src/new.ts\n`),
    );
    expect(outcome).toEqual(
      tool === "apply_patch" ? { commands: [], modified: ["src/new.ts"] } : { commands: [["npm run build", 0, false]], modified: [] },
    );
  });

  test.each([
    ["a plain text", "done"],
    ["a header-like block without Wall time", "Process exited with code 0\nOutput:\n"],
    ["an abort text Codex never writes", "aborted by user"],
  ])("a Codex shell result with neither its header nor its JSON states no code (%s)", (_name, output) => {
    for (const tool of ["exec_command", "shell_command", "shell"] as const)
      expect(outcomeOf(codexCall(tool, output))).toEqual({ commands: [["npm run build", null, false]], modified: [] });
  });

  // Inside the envelope the command speaks from its first byte: what it printed is not a statement of Codex's.
  test.each(CODEX_TEXTS.flatMap((row) => [0, 1].map((exit) => ({ ...row, exit }))))(
    "the older JSON envelope, exit $exit, output starting with $means text $text: the envelope's code stands",
    ({ text, exit }) => {
      const envelope = JSON.stringify({ output: `${text}\nmore output\n`, metadata: { exit_code: exit, duration_seconds: 0.1 } });
      expect(outcomeOf(codexCall("shell", envelope)).commands).toEqual([["npm run build", exit, exit !== 0]]);
    },
  );

  test("the older JSON envelope still states its code, and a patch's plain success text changed its file", () => {
    expect(outcomeOf(codexCall("shell", '{"output":"ok\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}')).commands).toEqual([
      ["npm run build", 0, false],
    ]);
    expect(outcomeOf(codexCall("apply_patch", "Success. Updated the following files:\nA src/new.ts\n")).modified).toEqual(["src/new.ts"]);
  });
});

// --- Claude Code 2.1.328 -------------------------------------------------------------------

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000f2", cwd: "/home/dev/shop" };
const CLAUDE_INPUT = {
  Bash: { command: "git push --force origin main" },
  PowerShell: { command: "git push --force origin main" },
  Edit: { file_path: "/home/dev/shop/src/a.ts", old_string: "a", new_string: "b" },
};

/** One call of a Claude Code tool and its result, as 2.1.328 saves them. */
function claudeCall(tool: keyof typeof CLAUDE_INPUT, content: string, isError: boolean, toolUseResult?: unknown): Session {
  return readClaudeCodeSession(
    jsonl([
      userLine(place, uuid("8", 1), null, 1, "Push it."),
      assistantLine(place, uuid("8", 2), uuid("8", 1), 2, [toolUse("toolu_1", tool, CLAUDE_INPUT[tool])], {
        messageId: "msg_1",
        stop: "tool_use",
      }),
      userLine(place, uuid("8", 3), uuid("8", 2), 3, [toolResult("toolu_1", content, isError)], {
        toolUseResult: toolUseResult ?? `Error: ${content}`,
      }),
    ]),
    "cc.jsonl",
  );
}

const CLAUDE_TEXTS: { text: string; means: "refused" | "cut short" }[] = [
  { text: "<tool_use_error>String to replace not found in file.</tool_use_error>", means: "refused" },
  { text: "Permission to use Bash with command git push --force origin main has been denied.", means: "refused" },
  {
    text: "Permission for this action was denied by the Claude Code auto mode classifier. Reason: force push to the default branch",
    means: "refused",
  },
  { text: "Permission for this action has been denied. Reason: the organization's policy", means: "refused" },
  { text: "Permission for this tool use was denied. It requires approval, and this session has no approval surface", means: "refused" },
  { text: "Permission for this tool use was denied: it requires interactive approval", means: "refused" },
  {
    text: "Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user said:\nnot now",
    means: "refused",
  },
  { text: "Permission for this command was denied by a built-in Claude Code safety check, not by the user.", means: "refused" },
  {
    text: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
    means: "refused",
  },
  {
    text: "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
    means: "refused",
  },
  {
    text: "[Tool call not run: a message from the user arrived first, so the user was not asked about this call. The call had no effects.]",
    means: "refused",
  },
  {
    text: "[Tool call skipped: the turn paused before this call ran. Nothing refused it and it had no effects; re-run it if still needed.]",
    means: "refused",
  },
  {
    text: "[Tool call not completed: an approval request expired with no answer, so the action awaiting approval did not run. Nobody refused it, so this is not the user's decision; ask again if it is still needed.]",
    means: "refused",
  },
  { text: "[Request interrupted by user for tool use]", means: "cut short" },
  { text: "Exit code 130\n[Request interrupted by user for tool use]\nTo github.com:x/y.git", means: "cut short" },
  { text: "[Request interrupted by user]", means: "cut short" },
  { text: "[Request interrupted: the session ended before this agent finished. Nobody asked it to stop.]", means: "cut short" },
  {
    text: "[Tool call did not complete: the turn was ended to deliver the message that follows. Nothing refused it; re-run it if still needed.]",
    means: "cut short",
  },
  {
    text: "[Tool call interrupted: the session ended before this call's result was recorded, so its outcome is unknown. Check whether it took effect before relying on it or running it again.]",
    means: "cut short",
  },
];

describe("Claude Code 2.1.328's statements, on each of its tools", () => {
  const tools = ["Bash", "PowerShell", "Edit"] as const;
  test.each(CLAUDE_TEXTS.flatMap((row) => tools.map((tool) => ({ ...row, tool }))))("$tool: $means: $text", ({ tool, text, means }) => {
    const outcome = outcomeOf(claudeCall(tool, text, true));
    const run: Run[] = tool === "Edit" || means === "refused" ? [] : [["git push --force origin main", null, false]];
    expect(outcome).toEqual({ commands: run, modified: [] });
  });

  test.each(tools)("%s: the same words in a successful result are the command's", (tool) => {
    const text = "Permission for this action was denied by the Claude Code auto mode classifier. Reason: quoted in a log";
    const outcome = outcomeOf(claudeCall(tool, text, false, tool === "Edit" ? {} : { stdout: text, stderr: "", interrupted: false }));
    expect(outcome).toEqual(
      tool === "Edit" ? { commands: [], modified: ["src/a.ts"] } : { commands: [["git push --force origin main", 0, false]], modified: [] },
    );
  });

  test("PowerShell's commands are listed with the code its result states, like Bash's", () => {
    const failed = claudeCall("PowerShell", "Exit code 1\nnpm ERR! build failed", true, "Error: Exit code 1\nnpm ERR! build failed");
    expect(outcomeOf(failed).commands).toEqual([["git push --force origin main", 1, true]]);
    const passed = claudeCall("PowerShell", "Everything up-to-date", false, {
      stdout: "Everything up-to-date",
      stderr: "",
      interrupted: false,
    });
    expect(outcomeOf(passed).commands).toEqual([["git push --force origin main", 0, false]]);
  });
});
