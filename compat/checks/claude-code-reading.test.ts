/**
 * The comparator of the Claude Code reading check: what Claude Code 2.1.328 sent, as items. A
 * message the user typed while it worked reaches the model inside a reminder, in place (seen in
 * `bun run compat`); our handoff wrapper is the user's text, not one of Claude Code's tags.
 */
import { expect, test } from "bun:test";
import { theirItems } from "./claude-code-reading.ts";

const reminder = (words: string) =>
  `<system-reminder>\nThe user sent a new message while you were working:\n${words}\n\nThis is how Claude Code surfaces messages the user sends mid-turn — within the running turn, often alongside the next tool result, rather than as a separate conversation turn. Address the message above as you continue this turn.\n</system-reminder>`;

test.each([
  [
    "beside a tool result (a string)",
    [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: `1\tvar cart = [];\n\n${reminder("Use pnpm.")}\n` }] }],
    ["result: t1", "user: Use pnpm."],
  ],
  [
    "beside a tool result (blocks)",
    [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: reminder("Use pnpm.") }] }] }],
    ["result: t1", "user: Use pnpm."],
  ],
  ["on its own", [{ role: "user", content: [{ type: "text", text: reminder("Rename it.") }] }], ["user: Rename it."]],
  [
    "another reminder: Claude Code's own",
    [{ role: "user", content: [{ type: "text", text: "<system-reminder>\nToday's date is 2026-11-30.\n</system-reminder>" }] }],
    [],
  ],
  [
    "our wrapper: the user's text",
    [{ role: "user", content: "<handoff-context>\n## Goal\nx\n</handoff-context>\n\nThe above…" }],
    ["user: <handoff-context>\n## Goal\nx\n</handoff-context>\n\nThe above…"],
  ],
])("a message typed while Claude Code worked, %s", (_, messages, expected) => {
  expect(theirItems({ model: "m", messages })).toEqual(expected);
});
