/**
 * A message the user typed while Claude was working is saved as a `queued_command` attachment,
 * and Claude Code sends it to the model as the user's message, where it sits. Only the user's
 * own: a meta one, a queued `!` command, a task's report or another session's message is not.
 */
import { describe, expect, test } from "bun:test";
import {
  assistantLine,
  attachmentLine,
  jsonl,
  text,
  toolResult,
  toolUse,
  userLine,
  uuid,
  type Fields,
} from "../../../../fixtures/sessions/claude-code/builders.ts";
import { analyzeBranch } from "../../analyze.ts";
import { messageText } from "../../messages.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000f1", cwd: "/home/dev/shop" };
const u = (n: number) => uuid("6", n);
const RULE = "Also: never change the public API of cart.ts, and use pnpm not npm.";

function read(attachment: Fields, answered: boolean) {
  const lines = [
    userLine(place, u(1), null, 1, "Refactor src/cart.ts."),
    assistantLine(place, u(2), u(1), 2, [toolUse("t1", "Read", { file_path: "/home/dev/shop/src/cart.ts" })], {
      messageId: "m1",
      stop: "tool_use",
    }),
    userLine(place, u(3), u(2), 3, [toolResult("t1", "export const cart = [];")], { sourceToolAssistantUUID: u(2) }),
    attachmentLine(place, u(4), u(3), 4, attachment),
    ...(answered ? [assistantLine(place, u(5), u(4), 5, [text("Understood, keeping the API.")], { messageId: "m2" })] : []),
  ];
  return analyzeBranch(readClaudeCodeSession(jsonl(lines), `${place.sessionId}.jsonl`));
}

const queued = (fields: Fields): Fields => ({ type: "queued_command", prompt: RULE, ...fields });

describe("a prompt queued while Claude worked", () => {
  test.each([
    ["typed in prompt mode", queued({ commandMode: "prompt" }), true],
    ["no mode (older lines)", queued({}), true],
    ["from the human at the keyboard", queued({ commandMode: "prompt", origin: { kind: "human" } }), true],
    ["its words as blocks", queued({ prompt: [text(RULE)], commandMode: "prompt" }), true],
    ["marked meta: Claude Code's", queued({ commandMode: "prompt", isMeta: true }), false],
    ["a queued ! command", queued({ commandMode: "bash", prompt: "git status" }), false],
    [
      "a background task's report",
      queued({ commandMode: "task-notification", prompt: "<task-notification>done</task-notification>" }),
      false,
    ],
    ["another session's message", queued({ commandMode: "prompt", origin: { kind: "peer" } }), false],
    ["an origin nobody classified", queued({ commandMode: "prompt", origin: { kind: "unclassified" } }), false],
    ["empty", queued({ prompt: "" }), false],
    ["another attachment kind", { type: "todo_reminder", content: [] }, false],
  ])("%s", (_, attachment, isUsers) => {
    for (const answered of [true, false]) {
      const analysis = read(attachment, answered);
      const roles: string[] = analysis.context.map((m) => (m.role === "user" ? m.kind : m.role));
      const expected = ["user", "assistant", "toolResult", ...(isUsers ? ["user"] : []), ...(answered ? ["assistant"] : [])];
      expect(roles).toEqual(expected);
      // Unanswered, it is the last request; answered, still the user's latest words.
      expect(analysis.facts.lastUserRequest).toBe(isUsers ? RULE : "Refactor src/cart.ts.");
      if (isUsers) expect(analysis.context.some((m) => m.role === "user" && messageText(m) === RULE)).toBe(true);
    }
  });
});
