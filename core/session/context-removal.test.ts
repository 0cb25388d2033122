import { describe, expect, test } from "bun:test";
import { assistant, bash, call, message, text, toolResult } from "../../fixtures/sessions/builders.ts";
import { toolPairingProblems } from "../../fixtures/sessions/checks.ts";
import { answer, ask, compaction, contextOf, shape } from "../../fixtures/sessions/context.ts";
import { loadFixture } from "../../fixtures/sessions/load.ts";

describe("rule 3: what is removed so a request is never rejected", () => {
  test.each([
    {
      name: "an aborted turn and the results of its calls",
      entries: [
        ask(1),
        assistant(2, [text("t"), call("c1", "bash", { command: "x" })], "aborted"),
        toolResult(3, "c1", "bash", "aborted"),
        ask(4),
      ],
      expected: ["e01:user", "e04:user"],
    },
    {
      name: "a turn that ended in an error",
      entries: [ask(1), assistant(2, [], "error", undefined, { errorMessage: "529" }), ask(3)],
      expected: ["e01:user", "e03:user"],
    },
    {
      name: "a tool call without a result (the text around it stays)",
      entries: [
        ask(1),
        assistant(2, [text("t"), call("c1", "read", { path: "a" }), call("c2", "read", { path: "b" })], "toolUse"),
        toolResult(3, "c1", "read", "A"),
      ],
      expected: ["e01:user", "e02:assistant", "e03:toolResult"],
    },
    {
      name: "an assistant turn left with nothing but thinking once its unanswered calls go",
      entries: [ask(1), assistant(2, [{ type: "thinking", thinking: "hmm" }, call("c1", "read", { path: "a" })], "toolUse"), ask(3)],
      expected: ["e01:user", "e03:user"],
    },
    {
      name: "a result whose call is not on the branch",
      entries: [ask(1), toolResult(2, "gone", "bash", "x"), answer(3)],
      expected: ["e01:user", "e03:assistant"],
    },
    {
      name: "a result before its call",
      entries: [
        ask(1),
        toolResult(2, "c1", "read", "early"),
        assistant(3, [text("t"), call("c1", "read", { path: "a" })], "toolUse"),
        toolResult(4, "c1", "read", "A"),
      ],
      expected: ["e01:user", "e03:assistant", "e04:toolResult"],
    },
    {
      name: "a second result for the same call",
      entries: [
        ask(1),
        assistant(2, [call("c1", "read", { path: "a" })], "toolUse"),
        toolResult(3, "c1", "read", "A"),
        toolResult(4, "c1", "read", "again"),
      ],
      expected: ["e01:user", "e02:assistant", "e03:toolResult"],
    },
    {
      name: "a result without a toolCallId",
      entries: [ask(1), message({ role: "toolResult", toolName: "bash", content: [text("x")], isError: false })],
      expected: ["e01:user"],
    },
    {
      name: "calls whose results were summarised away by a compaction",
      entries: [
        ask(1),
        assistant(2, [text("t"), call("c1", "read", { path: "a" })], "toolUse"),
        toolResult(3, "c1", "read", "A"),
        compaction("e03"),
        ask(5),
      ],
      expected: ["e04:compactionSummary", "e05:user"],
    },
    {
      name: "a private !! shell run",
      entries: [ask(1), bash(2, "cat .env", "SECRET=1", 0, true), ask(3)],
      expected: ["e01:user", "e03:user"],
    },
    {
      name: "a private !! python run (omp)",
      entries: [ask(1), message({ role: "pythonExecution", code: "print(1)", output: "1", exitCode: 0, excludeFromContext: true }), ask(3)],
      expected: ["e01:user", "e03:user"],
    },
  ])("drops $name", ({ entries, expected }) => {
    const context = contextOf(entries);
    expect(shape(context)).toEqual([...expected]);
    expect(toolPairingProblems(context)).toEqual([]);
  });

  test("the unanswered call is removed from the assistant turn, the answered one stays", () => {
    const context = contextOf([
      ask(1),
      assistant(2, [text("t"), call("c1", "read", { path: "a" }), call("c2", "read", { path: "b" })], "toolUse"),
      toolResult(3, "c1", "read", "A"),
    ]);
    expect(context[1]?.content).toEqual([text("t"), call("c1", "read", { path: "a" })]);
  });

  test("a call id reused by a later turn pairs each call with its own result", () => {
    // Some local models number their calls from zero in every turn.
    const entries = [
      ask(1),
      assistant(2, [call("call_0", "read", { path: "a" })], "toolUse"),
      toolResult(3, "call_0", "read", "A"),
      assistant(4, [call("call_0", "read", { path: "b" })], "toolUse"),
      toolResult(5, "call_0", "read", "B"),
      answer(6),
    ];
    const context = contextOf(entries);
    expect(shape(context)).toEqual(["e01:user", "e02:assistant", "e03:toolResult", "e04:assistant", "e05:toolResult", "e06:assistant"]);
    expect(toolPairingProblems(context)).toEqual([]);
  });

  test("a reused call id whose second result is missing drops only the second call", () => {
    const entries = [
      ask(1),
      assistant(2, [call("call_0", "read", { path: "a" })], "toolUse"),
      toolResult(3, "call_0", "read", "A"),
      assistant(4, [text("again"), call("call_0", "read", { path: "b" })], "toolUse"),
      ask(5),
    ];
    const context = contextOf(entries);
    expect(shape(context)).toEqual(["e01:user", "e02:assistant", "e03:toolResult", "e04:assistant", "e05:user"]);
    expect(context[3]?.content).toEqual([text("again")]);
    expect(toolPairingProblems(context)).toEqual([]);
  });

  test("the private command and its output never appear anywhere in the context", () => {
    const { analysis } = loadFixture("v3-branches.jsonl");
    const sent = JSON.stringify(analysis.context);
    expect(sent).not.toContain("cat .env");
    expect(sent).not.toContain("hunter2");
  });
});
