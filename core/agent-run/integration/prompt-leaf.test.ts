import { describe, expect, test } from "bun:test";
import type { Entry } from "../../session/types.ts";
import { leafBeforePrompt } from "./prompt-leaf.ts";

const entry = (id: string, parentId: string | null, role: string | undefined, content: unknown, type = "message"): Entry => ({
  type,
  id,
  parentId,
  line: 1,
  data: role === undefined ? {} : { message: { role, content } },
});

const BRANCH = [entry("a", null, "user", "fix it"), entry("b", "a", "assistant", [{ type: "text", text: "done" }])];

describe("the branch ends before the hook's own prompt when the agent recorded it first", () => {
  test.each<[string, Entry[], string, string | undefined]>([
    [
      "the prompt last, as blocks",
      [...BRANCH, entry("c", "b", "user", [{ type: "text", text: "$handoff  go on\n" }])],
      "$handoff  go on",
      "b",
    ],
    [
      "the prompt last, as a string, then a line that is not a message",
      [...BRANCH, entry("c", "b", "user", "$handoff"), entry("d", "c", undefined, null, "model_change")],
      " $handoff ",
      "b",
    ],
    ["the prompt not recorded (Claude Code)", BRANCH, "/handoff", undefined],
    ["another prompt last", [...BRANCH, entry("c", "b", "user", "$handoff later")], "$handoff", undefined],
    [
      "the prompt earlier, not last",
      [...BRANCH, entry("c", "b", "user", "$handoff"), entry("d", "c", "assistant", "ok")],
      "$handoff",
      undefined,
    ],
    ["an empty branch", [], "$handoff", undefined],
  ])("%s", (_, branch, prompt, leaf) => {
    expect(leafBeforePrompt(branch, prompt)).toBe(leaf);
  });
});
