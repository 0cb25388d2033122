import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistant, bash, call, chain, message, text, toolResult, user, type Fields } from "../../fixtures/sessions/builders.ts";
import { toolPairingProblems } from "../../fixtures/sessions/checks.ts";
import { loadFixture, textOf } from "../../fixtures/sessions/load.ts";
import { analyzeBranch } from "./analyze.ts";
import type { ResolveBlob } from "./convert.ts";
import type { ContextMessage } from "./messages.ts";
import { parseSession } from "./parse.ts";

/** The context of a one-line session e01 → e02 → …, as `entryId:kind` pairs. */
function contextOf(entries: readonly Fields[], resolveBlob?: ResolveBlob): ContextMessage[] {
  return analyzeBranch(parseSession(chain(entries), "c.jsonl"), { resolveBlob }).context;
}
const shape = (context: readonly ContextMessage[]) => context.map((m) => `${m.entryId}:${m.role === "user" ? m.kind : m.role}`);
const shapeOf = (entries: readonly Fields[]) => shape(contextOf(entries));

const ask = (n: number) => user(n, `question ${n}`);
const answer = (n: number) => assistant(n, [text(`answer ${n}`)]);
const compaction = (firstKeptEntryId: string, summary = "S") => ({ type: "compaction", summary, firstKeptEntryId, tokensBefore: 1000 });

describe("rule 1: the newest compaction on the branch", () => {
  test.each([
    {
      name: "summary first, then the kept entries, then everything after it",
      entries: [ask(1), answer(2), ask(3), answer(4), compaction("e03"), ask(6), answer(7)],
      expected: ["e05:compactionSummary", "e03:user", "e04:assistant", "e06:user", "e07:assistant"],
    },
    {
      name: "firstKeptEntryId not on the branch keeps nothing from before the compaction",
      entries: [ask(1), answer(2), compaction("elsewhere"), ask(4)],
      expected: ["e03:compactionSummary", "e04:user"],
    },
    {
      name: "firstKeptEntryId pointing at the compaction itself keeps nothing from before it",
      entries: [ask(1), compaction("e02"), ask(3)],
      expected: ["e02:compactionSummary", "e03:user"],
    },
    {
      name: "only the newest compaction counts",
      entries: [ask(1), compaction("e01", "old"), ask(3), answer(4), compaction("e04", "new"), ask(6)],
      expected: ["e05:compactionSummary", "e04:assistant", "e06:user"],
    },
    {
      name: "an older compaction inside the kept range adds nothing",
      entries: [ask(1), answer(2), compaction("e02", "old"), ask(4), compaction("e02", "new"), ask(6)],
      expected: ["e05:compactionSummary", "e02:assistant", "e04:user", "e06:user"],
    },
    {
      name: "a compaction as the last entry is only its summary and the kept entries",
      entries: [ask(1), answer(2), compaction("e02")],
      expected: ["e03:compactionSummary", "e02:assistant"],
    },
  ])("$name", ({ entries, expected }) => {
    expect(shapeOf(entries)).toEqual([...expected]);
  });

  test("the summary text comes from the newest compaction", () => {
    const context = contextOf([ask(1), compaction("e01", "old summary"), ask(3), compaction("e03", "new summary")]);
    const summaries = context.filter((m) => m.role === "user" && m.kind === "compactionSummary").map(textOf);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain("new summary");
  });

  test("a compaction on an abandoned branch does not apply", () => {
    const { analysis } = loadFixture("v3-branches.jsonl", { leafId: "a0000003" });
    expect(shape(analysis.context).filter((s) => s.endsWith("Summary"))).toEqual([]);
    expect(analysis.context).toHaveLength(8);
  });
});

describe("rule 2: what each entry type contributes", () => {
  test.each([
    { name: "a user message", entry: ask(1), expected: ["e01:user"] },
    { name: "an assistant message", entry: answer(1), expected: ["e01:assistant"] },
    { name: "a custom message (v3 role)", entry: message({ role: "custom", customType: "x", content: "c", display: true }), expected: ["e01:custom"] },
    { name: "a custom_message entry", entry: { type: "custom_message", customType: "x", content: "c", display: true }, expected: ["e01:custom"] },
    { name: "a custom_message with display false (hidden in the UI, still sent)", entry: { type: "custom_message", customType: "x", content: [text("c")], display: false }, expected: ["e01:custom"] },
    { name: "a branch summary", entry: { type: "branch_summary", fromId: "x", summary: "went elsewhere" }, expected: ["e01:branchSummary"] },
    { name: "an empty branch summary", entry: { type: "branch_summary", fromId: "x", summary: "" }, expected: [] },
    { name: "a custom entry (extension state)", entry: { type: "custom", customType: "x", data: { secret: 1 } }, expected: [] },
    { name: "a pi model change", entry: { type: "model_change", provider: "openai", modelId: "gpt-5" }, expected: [] },
    { name: "an omp model change", entry: { type: "model_change", model: "openai/gpt-5" }, expected: [] },
    { name: "a thinking level change", entry: { type: "thinking_level_change", thinkingLevel: "high" }, expected: [] },
    { name: "a label", entry: { type: "label", targetId: "e01", label: "x" }, expected: [] },
    { name: "session info", entry: { type: "session_info", name: "x" }, expected: [] },
    { name: "an omp title change", entry: { type: "title_change", title: "x" }, expected: [] },
    { name: "an unknown entry type", entry: { type: "hologram", content: "c" }, expected: [] },
    { name: "a message of an unknown role", entry: message({ role: "narrator", content: "c" }), expected: [] },
    { name: "a message entry without a message", entry: { type: "message" }, expected: [] },
    { name: "a user message with no usable content", entry: user(1, [{ type: "audio", data: "x" }]), expected: [] },
  ])("$name", ({ entry, expected }) => {
    expect(shapeOf([entry])).toEqual([...expected]);
  });

  test("a custom message keeps its text and images", () => {
    const [custom] = contextOf([{ type: "custom_message", customType: "x", content: [text("see"), { type: "image", data: "AAAA", mimeType: "image/jpeg" }], display: true }]);
    expect(custom?.content).toEqual([text("see"), { type: "image", data: "AAAA", mimeType: "image/jpeg" }]);
  });
});

describe("rule 3: what is removed so a request is never rejected", () => {
  test.each([
    {
      name: "an aborted turn and the results of its calls",
      entries: [ask(1), assistant(2, [text("t"), call("c1", "bash", { command: "x" })], "aborted"), toolResult(3, "c1", "bash", "aborted"), ask(4)],
      expected: ["e01:user", "e04:user"],
    },
    {
      name: "a turn that ended in an error",
      entries: [ask(1), assistant(2, [], "error", undefined, { errorMessage: "529" }), ask(3)],
      expected: ["e01:user", "e03:user"],
    },
    {
      name: "a tool call without a result (the text around it stays)",
      entries: [ask(1), assistant(2, [text("t"), call("c1", "read", { path: "a" }), call("c2", "read", { path: "b" })], "toolUse"), toolResult(3, "c1", "read", "A")],
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
      entries: [ask(1), toolResult(2, "c1", "read", "early"), assistant(3, [text("t"), call("c1", "read", { path: "a" })], "toolUse"), toolResult(4, "c1", "read", "A")],
      expected: ["e01:user", "e03:assistant", "e04:toolResult"],
    },
    {
      name: "a second result for the same call",
      entries: [ask(1), assistant(2, [call("c1", "read", { path: "a" })], "toolUse"), toolResult(3, "c1", "read", "A"), toolResult(4, "c1", "read", "again")],
      expected: ["e01:user", "e02:assistant", "e03:toolResult"],
    },
    {
      name: "a result without a toolCallId",
      entries: [ask(1), message({ role: "toolResult", toolName: "bash", content: [text("x")], isError: false })],
      expected: ["e01:user"],
    },
    {
      name: "calls whose results were summarised away by a compaction",
      entries: [ask(1), assistant(2, [text("t"), call("c1", "read", { path: "a" })], "toolUse"), toolResult(3, "c1", "read", "A"), compaction("e03"), ask(5)],
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
    const context = contextOf([ask(1), assistant(2, [text("t"), call("c1", "read", { path: "a" }), call("c2", "read", { path: "b" })], "toolUse"), toolResult(3, "c1", "read", "A")]);
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

describe("rule 4: wrappers", () => {
  test("a compaction summary is a user-side message with a preface and the text in <summary>", () => {
    const [summary] = contextOf([ask(1), compaction("e01", "We fixed the bug.")]);
    expect(summary?.role).toBe("user");
    expect(textOf(summary)).toBe("Earlier parts of this conversation were condensed into this summary:\n\n<summary>\nWe fixed the bug.\n</summary>");
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
      expected: "The user ran this shell command themselves:\n\n```sh\nfind /\n```\n\nOutput:\n```\n/bin\n```\n\n(The output was truncated.)\n\n(The user cancelled it before it finished.)",
    },
  ])("a user's ! run: $name", ({ run, expected }) => {
    const [wrapped] = contextOf([run]);
    expect(wrapped).toMatchObject({ role: "user", kind: "bashExecution" });
    expect(textOf(wrapped)).toBe(expected);
  });
});

describe("omp entries", () => {
  const blobHash = "ab".repeat(32);
  const blobImage = { type: "image", data: `blob:sha256:${blobHash}`, mimeType: "image/png" };

  test("the context restarts after the newest reset boundary, even past a compaction", () => {
    const entries = [ask(1), compaction("e01"), answer(3), { type: "reset_boundary" }, ask(5), { type: "reset_boundary" }, ask(7), answer(8)];
    expect(shapeOf(entries)).toEqual(["e07:user", "e08:assistant"]);
  });

  test("a compaction after the boundary cannot keep entries from before it", () => {
    const entries = [ask(1), { type: "reset_boundary" }, ask(3), compaction("e01"), ask(5)];
    expect(shapeOf(entries)).toEqual(["e04:compactionSummary", "e05:user"]);
  });

  test("developer messages are user-side messages of their own kind", () => {
    const [developer] = contextOf([message({ role: "developer", content: "harness note" })]);
    expect(developer).toEqual({ role: "user", kind: "developer", content: [text("harness note")], entryId: "e01" });
  });

  test("a python run is wrapped like a shell run", () => {
    const [python] = contextOf([message({ role: "pythonExecution", code: "print(2)", output: "2\n", exitCode: 1, cancelled: false, truncated: false })]);
    expect(python).toMatchObject({ role: "user", kind: "pythonExecution" });
    expect(textOf(python)).toBe("The user ran this Python code themselves:\n\n```python\nprint(2)\n```\n\nOutput:\n```\n2\n```\n\nExit code: 1");
  });

  test("a file mention lists each file with its content, or says it was not recorded", () => {
    const [mention] = contextOf([message({ role: "fileMention", files: [{ path: "a.ts", content: "let a = 1;" }, { path: "b.bin" }] })]);
    expect(textOf(mention)).toBe("The user attached these files:\n\na.ts\n```\nlet a = 1;\n```\n\nb.bin (content not recorded)");
  });

  test("a file mention without files adds nothing", () => {
    expect(shapeOf([message({ role: "fileMention", files: [] })])).toEqual([]);
  });

  test("a blob reference is restored from the blob store when it is there", () => {
    const asked: string[] = [];
    const resolve: ResolveBlob = (hash) => {
      asked.push(hash);
      return "UE5H";
    };
    const [withImage] = contextOf([user(1, [text("look"), blobImage])], resolve);
    expect(withImage?.content).toEqual([text("look"), { type: "image", data: "UE5H", mimeType: "image/png" }]);
    expect(asked).toEqual([blobHash]);
  });

  test.each([
    { name: "the blob is not on this machine", resolve: () => undefined },
    { name: "no blob store was given", resolve: undefined },
  ])("a blob reference becomes a short placeholder when $name, never the reference", ({ resolve }) => {
    const context = contextOf([user(1, [blobImage]), toolResult(2, "c", "read", [blobImage])], resolve);
    expect(context[0]?.content).toEqual([text(`[image not available: image/png blob ${blobHash.slice(0, 12)} is not on this machine]`)]);
    expect(JSON.stringify(context)).not.toContain("blob:sha256:");
  });

  test("a malformed blob reference is never passed to the blob store", () => {
    let asked = false;
    const context = contextOf([user(1, [{ type: "image", data: "blob:sha256:../../etc/passwd", mimeType: "image/png" }])], () => {
      asked = true;
      return "x";
    });
    expect(asked).toBe(false);
    expect(context[0]?.content[0]).toMatchObject({ type: "text" });
  });

  test("the omp fixture: only what follows the reset boundary, private python left out", () => {
    const { analysis } = loadFixture("omp.jsonl");
    expect(shape(analysis.context)).toEqual([
      "d0000008:developer",
      "d0000009:user",
      "d000000a:fileMention",
      "d000000b:pythonExecution",
      "d000000f:assistant",
      "d0000010:toolResult",
      "d0000012:custom",
      "d0000013:assistant",
    ]);
    expect(JSON.stringify(analysis.context)).not.toContain(".netrc");
    // omp's redactedThinking is not something another model can read.
    expect(analysis.context[4]?.content).toEqual([call("call_2", "bash", { command: "bun test test/upload.test.ts" })]);
  });
});

describe("the richest fixture", () => {
  const golden = join(import.meta.dir, "..", "..", "fixtures", "golden", "v3-branches.context.json");

  test("its context matches the golden file byte for byte (UPDATE_GOLDEN=1 rewrites it)", () => {
    const { analysis } = loadFixture("v3-branches.jsonl");
    const actual = `${JSON.stringify(analysis.context, null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, actual);
    expect(actual).toBe(readFileSync(golden, "utf8"));
  });

  test("its context is a sendable sequence: every call answered once, every result called", () => {
    for (const name of ["v1.jsonl", "v2.jsonl", "v3-branches.jsonl", "omp.jsonl"]) {
      expect({ name, problems: toolPairingProblems(loadFixture(name).analysis.context) }).toEqual({ name, problems: [] });
    }
  });
});
