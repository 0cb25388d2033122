import { describe, expect, test } from "bun:test";
import {
  assistantLine,
  attachmentLine,
  type Fields,
  jsonl,
  text,
  toolResult,
  toolUse,
  userLine,
  uuid,
} from "../../../../fixtures/sessions/claude-code/builders.ts";
import { analyzeBranch } from "../../analyze.ts";
import { readTaskNotification } from "./background-tasks.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000b9", cwd: "/home/dev/shop" };

/** A notification as Claude Code 2.1.328 delivers it to the model. */
function notification(taskId: string, status: string, summary: string): string {
  return `<task-notification>\n<task-id>${taskId}</task-id>\n<status>${status}</status>\n<summary>${summary}</summary>\n</task-notification>`;
}

describe("a background task's report", () => {
  // Summaries as Claude Code 2.1.328 builds them: `Background command "<description>" <ending>`,
  // the description written by the model. Only the ending states the code.
  const summary = (description: string, ending: string) => `Background command "${description}" ${ending}`;
  test.each([
    ["completed, with its code", "completed", summary("npm run build", "completed (exit code 0)"), { exitCode: 0, failed: false }],
    ["completed, a non-zero code", "completed", summary("make", "completed (exit code 2)"), { exitCode: 2, failed: false }],
    [
      "completed, a check's answer in Claude Code's words",
      "completed",
      summary("grep TODO", "completed (exit code 1: No matches found)"),
      { exitCode: 1, failed: false },
    ],
    ["completed, no code said", "completed", summary("sleep 1", "completed"), { exitCode: 0, failed: false }],
    ["failed, with its code", "failed", summary("npm test", "failed with exit code 1"), { exitCode: 1, failed: true }],
    ["failed, its code in parentheses", "failed", summary("make", "failed (exit code 3)"), { exitCode: 3, failed: true }],
    ["failed, no code said: failed all the same", "failed", summary("npm test", "failed"), { exitCode: null, failed: true }],
    [
      "failed, code 0 beside it: failed, no code kept",
      "failed",
      summary("npm test", "failed with exit code 0"),
      { exitCode: null, failed: true },
    ],
    ["killed: stopped, no code", "killed", summary("npm run dev", "was stopped"), { exitCode: null, failed: false }],
    [
      "killed at its time limit: stopped, no code",
      "killed",
      summary("npm run e2e", "was stopped after reaching its background time limit"),
      { exitCode: null, failed: false },
    ],
    [
      "a description saying 'exit code 0', the run failed",
      "failed",
      summary("npm test should end with exit code 0", "failed with exit code 1"),
      { exitCode: 1, failed: true },
    ],
    [
      "a description ending '(exit code 0)', the run completed with 1",
      "completed",
      summary("make check (exit code 0)", "completed (exit code 1)"),
      { exitCode: 1, failed: false },
    ],
    [
      "a description saying 'fails with exit code 1', the run completed with 0",
      "completed",
      summary("npm test, fails with exit code 1 if any test fails", "completed (exit code 0)"),
      { exitCode: 0, failed: false },
    ],
    [
      "a description holding quotes and Claude Code's own ending",
      "completed",
      summary('run "a" completed (exit code 0: b', "completed (exit code 3)"),
      { exitCode: 3, failed: false },
    ],
    [
      "a description that is a whole summary of another ending",
      "failed",
      summary('x" completed (exit code 0)', "failed"),
      { exitCode: null, failed: true },
    ],
    [
      "a code in the description only, completed",
      "completed",
      summary("exit code 7 expected", "completed"),
      { exitCode: 0, failed: false },
    ],
    ["a code in the description only, killed", "killed", summary("(exit code 1)", "was stopped"), { exitCode: null, failed: false }],
    ["a code in the description only, failed", "failed", summary("with exit code 0", "failed"), { exitCode: null, failed: true }],
    [
      "a long description Claude Code cut in the middle: the ending is kept",
      "failed",
      summary(`${"exit code 0 ".repeat(40)}…${"x".repeat(200)}`, "failed with exit code 4"),
      { exitCode: 4, failed: true },
    ],
    ["no status (an older report): the closing code", "", summary("npm test", "completed (exit code 5)"), { exitCode: 5, failed: false }],
    ["no status, a code in the description only: nothing said", "", summary("(exit code 0)", "is still running"), undefined],
    [
      "a 'still running' notice: nothing said yet",
      "",
      summary("npm run dev", "is still running after 10m, with no new output for 5m"),
      undefined,
    ],
    ["an unknown status, no closing code: nothing said", "paused", summary("npm test (exit code 0)", "paused"), undefined],
  ])("%s", (_why, status, words, outcome) => {
    const text =
      status === ""
        ? `<task-notification>\n<task-id>b1</task-id>\n<summary>${words}</summary>\n</task-notification>`
        : notification("b1", status, words);
    expect(readTaskNotification(text)).toEqual({ taskId: "b1", outcome });
  });

  test.each([
    ["plain words", "The build finished, exit code 0."],
    ["no task id", "<task-notification><status>completed</status></task-notification>"],
    ["an empty task id", "<task-notification><task-id> </task-id><status>completed</status></task-notification>"],
    ["a notification quoted inside the user's words", `Look at this: ${notification("b1", "completed", "(exit code 0)")}`],
  ])("not a report: %s", (_why, words) => {
    expect(readTaskNotification(words)).toBeUndefined();
  });
});

const started = { stdout: "", stderr: "", interrupted: false, isImage: false, backgroundTaskId: "bash_7" };
const startedText = "Command running in background with ID: bash_7. Output is being written to: /tmp/claude/tasks/bash_7.output";

/** A Bash call sent to the background, then whatever lines follow it; Session Facts of the result. */
function commandsAfter(later: (parent: string) => Fields[]) {
  const lines = [
    userLine(place, uuid("b", 1), null, 1, "Build it in the background, then tell me."),
    assistantLine(
      place,
      uuid("b", 2),
      uuid("b", 1),
      2,
      [toolUse("toolu_b", "Bash", { command: "npm run build", run_in_background: true })],
      {
        messageId: "msg_b1",
        stop: "tool_use",
      },
    ),
    userLine(place, uuid("b", 3), uuid("b", 2), 3, [toolResult("toolu_b", startedText)], { toolUseResult: started }),
    ...later(uuid("b", 3)),
  ];
  const branch = analyzeBranch(readClaudeCodeSession(jsonl(lines), "background.jsonl"));
  return { commands: branch.facts.commands, lastUserRequest: branch.facts.lastUserRequest };
}

const report = (summary: string, status = "completed", taskId = "bash_7") => notification(taskId, status, summary);

describe("a Bash command Claude Code ran in the background", () => {
  test.each([
    ["no report in the session: no code, not exit 0", () => [], { exitCode: null, failed: false }],
    [
      "reported as a user line: its code",
      (parent: string) => [userLine(place, uuid("b", 4), parent, 4, report('Background command "npm run build" completed (exit code 0)'))],
      { exitCode: 0, failed: false },
    ],
    [
      "reported as a user line Claude Code marks its own (isMeta): its code",
      (parent: string) => [
        userLine(place, uuid("b", 4), parent, 4, [text(report('Background command "npm run build" failed with exit code 2', "failed"))], {
          isMeta: true,
        }),
      ],
      { exitCode: 2, failed: true },
    ],
    [
      "reported in a queued attachment: its code",
      (parent: string) => [
        attachmentLine(place, uuid("b", 4), parent, 4, {
          type: "queued_command",
          prompt: report('Background command "npm run build" completed (exit code 1)'),
          commandMode: "task-notification",
        }),
      ],
      { exitCode: 1, failed: true },
    ],
    [
      "stopped (killed): no code, not a failure",
      (parent: string) => [userLine(place, uuid("b", 4), parent, 4, report('Background command "npm run build" was stopped', "killed"))],
      { exitCode: null, failed: false },
    ],
    [
      "a report about another task changes nothing",
      (parent: string) => [
        userLine(
          place,
          uuid("b", 4),
          parent,
          4,
          report('Background command "npm run build" completed (exit code 3)', "completed", "bash_8"),
        ),
      ],
      { exitCode: null, failed: false },
    ],
    [
      "the first report settles it; a second one for the same id changes nothing",
      (parent: string) => [
        userLine(place, uuid("b", 4), parent, 4, report('Background command "npm run build" completed (exit code 0)')),
        userLine(place, uuid("b", 5), uuid("b", 4), 5, report('Background command "npm run build" completed (exit code 9)')),
      ],
      { exitCode: 0, failed: false },
    ],
    [
      "a description saying 'exit code 0', reported failed with 1: exit 1, failed",
      (parent: string) => [
        userLine(
          place,
          uuid("b", 4),
          parent,
          4,
          report('Background command "build should end with exit code 0" failed with exit code 1', "failed"),
        ),
      ],
      { exitCode: 1, failed: true },
    ],
    [
      "reported failed without a code: failed, no code",
      (parent: string) => [userLine(place, uuid("b", 4), parent, 4, report('Background command "npm run build" failed', "failed"))],
      { exitCode: null, failed: true },
    ],
    [
      "reported failed without a code, in a queued attachment: failed, no code",
      (parent: string) => [
        attachmentLine(place, uuid("b", 4), parent, 4, {
          type: "queued_command",
          prompt: report('Background command "npm run build (exit code 0)" failed', "failed"),
          commandMode: "task-notification",
        }),
      ],
      { exitCode: null, failed: true },
    ],
  ])("%s", (_why, later, expected) => {
    const { commands, lastUserRequest } = commandsAfter(later);
    expect(commands).toEqual([{ command: "npm run build", by: "tool", ...expected }]);
    // A report is delivered in the user's role, but the user never said it.
    expect(lastUserRequest).toBe("Build it in the background, then tell me.");
  });
});
