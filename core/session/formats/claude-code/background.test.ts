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
import { readTaskNotification } from "./background.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000b9", cwd: "/home/dev/shop" };

/** A notification as Claude Code 2.1.328 delivers it to the model. */
function notification(taskId: string, status: string, summary: string): string {
  return `<task-notification>\n<task-id>${taskId}</task-id>\n<status>${status}</status>\n<summary>${summary}</summary>\n</task-notification>`;
}

describe("a background task's report", () => {
  test.each([
    ["completed, with its code", notification("b1", "completed", 'Background command "npm run build" completed (exit code 0)'), 0],
    ["completed, a non-zero code", notification("b1", "completed", 'Background command "make" completed (exit code 2)'), 2],
    ["failed, with its code", notification("b1", "failed", 'Background command "npm test" failed with exit code 1'), 1],
    ["completed, no code said", notification("b1", "completed", 'Background command "sleep 1" completed'), 0],
    ["killed: stopped, no code", notification("b1", "killed", 'Background command "npm run dev" was stopped'), null],
    ["failed, no code said: unknown", notification("b1", "failed", "Background command failed"), undefined],
  ])("%s", (_why, report, exitCode) => {
    expect(readTaskNotification(report)).toEqual({ taskId: "b1", exitCode });
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
        userLine(place, uuid("b", 4), parent, 4, [text(report('Background command "npm run build" failed (exit code 2)', "failed"))], {
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
      (parent: string) => [userLine(place, uuid("b", 4), parent, 4, report("(exit code 3)", "completed", "bash_8"))],
      { exitCode: null, failed: false },
    ],
    [
      "the first report settles it; a second one for the same id changes nothing",
      (parent: string) => [
        userLine(place, uuid("b", 4), parent, 4, report("(exit code 0)")),
        userLine(place, uuid("b", 5), uuid("b", 4), 5, report("(exit code 9)")),
      ],
      { exitCode: 0, failed: false },
    ],
  ])("%s", (_why, later, expected) => {
    const { commands, lastUserRequest } = commandsAfter(later);
    expect(commands).toEqual([{ command: "npm run build", by: "tool", ...expected }]);
    // A report is delivered in the user's role, but the user never said it.
    expect(lastUserRequest).toBe("Build it in the background, then tell me.");
  });
});
