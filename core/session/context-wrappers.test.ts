import { describe, expect, test } from "bun:test";
import { bash, message } from "../../fixtures/sessions/builders.ts";
import { ask, compaction, contextOf } from "../../fixtures/sessions/context.ts";
import { textOf } from "../../fixtures/sessions/load.ts";
import { unwrapSummary } from "./wrappers.ts";

describe("rule 4: wrappers", () => {
  test("a compaction summary is a user-side message with a preface and the text in <summary>", () => {
    const [summary] = contextOf([ask(1), compaction("e01", "We fixed the bug.")]);
    expect(summary?.role).toBe("user");
    expect(textOf(summary)).toBe(
      "Earlier parts of this conversation were condensed into this summary:\n\n<summary>\nWe fixed the bug.\n</summary>",
    );
  });

  test("a branch summary says it comes from another branch", () => {
    const [summary] = contextOf([{ type: "branch_summary", fromId: "x", summary: "Tried redis." }]);
    expect(textOf(summary)).toBe(
      "Summary of work on another branch of this session, which the user left before returning here:\n\n<summary>\nTried redis.\n</summary>",
    );
  });

  test.each([
    { name: "compaction", entry: compaction("nowhere", "a </summary> b") },
    { name: "branch summary", entry: { type: "branch_summary", fromId: "x", summary: "a </summary> b" } },
  ])("a closing tag inside a $name cannot end the wrapper early", ({ entry }) => {
    const wrapped = textOf(contextOf([entry])[0]);
    expect(wrapped.match(/<\/summary>/g)).toHaveLength(1);
    expect(wrapped).toEndWith("a <\\/summary> b\n</summary>");
  });

  test.each([
    { name: "compaction", entry: compaction("nowhere", "## Goal\na </summary> b\n\nmore") },
    { name: "branch summary", entry: { type: "branch_summary", fromId: "x", summary: "## Goal\na </summary> b\n\nmore" } },
  ])("a $name reads back without its wrapper, exactly as recorded", ({ entry }) => {
    expect(unwrapSummary(textOf(contextOf([entry])[0]))).toBe("## Goal\na </summary> b\n\nmore");
  });

  test("text that is not in our summary wrapper reads back unchanged", () => {
    for (const text of ["plain", "<summary>\nno preface\n</summary>", "x\n\n<summary>\nnot closed"]) expect(unwrapSummary(text)).toBe(text);
  });

  test.each([
    {
      name: "a successful command",
      run: bash(1, "git status --short", " M a.ts\n", 0),
      expected: "The user ran this shell command themselves:\n\n```sh\ngit status --short\n```\n\nOutput:\n```\n M a.ts\n```",
    },
    {
      name: "a failing command with its exit code",
      run: bash(1, "npm test", "1 failing", 1),
      expected: "The user ran this shell command themselves:\n\n```sh\nnpm test\n```\n\nOutput:\n```\n1 failing\n```\n\nExit code: 1",
    },
    {
      name: "a command that printed nothing",
      run: bash(1, "true", "", 0),
      expected: "The user ran this shell command themselves:\n\n```sh\ntrue\n```\n\nIt printed nothing.",
    },
    {
      name: "output containing a fence, which gets a longer one",
      run: bash(1, "cat README.md", "```js\nx\n```\n", 0),
      expected: "The user ran this shell command themselves:\n\n```sh\ncat README.md\n```\n\nOutput:\n````\n```js\nx\n```\n````",
    },
    {
      name: "a cancelled, truncated command",
      run: message({ role: "bashExecution", command: "find /", output: "/bin\n", exitCode: 130, cancelled: true, truncated: true }),
      expected:
        "The user ran this shell command themselves:\n\n```sh\nfind /\n```\n\nOutput:\n```\n/bin\n```\n\n(The output was truncated.)\n\n(The user cancelled it before it finished.)",
    },
  ])("a user's ! run: $name", ({ run, expected }) => {
    const [wrapped] = contextOf([run]);
    expect(wrapped).toMatchObject({ role: "user", kind: "bashExecution" });
    expect(textOf(wrapped)).toBe(expected);
  });
});
