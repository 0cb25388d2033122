import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { message, text, user } from "../../fixtures/sessions/builders.ts";
import { toolPairingProblems } from "../../fixtures/sessions/checks.ts";
import { answer, ask, compaction, contextOf, shape, shapeOf } from "../../fixtures/sessions/context.ts";
import { loadFixture, textOf } from "../../fixtures/sessions/load.ts";

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

  test.each([
    {
      name: "what the user typed before the kept range",
      entries: [ask(1), answer(2), ask(3), answer(4), compaction("e03"), ask(6)],
      replaced: ["e01"],
    },
    { name: "nothing when everything is kept", entries: [ask(1), answer(2), compaction("e01"), ask(4)], replaced: [] },
    { name: "all of it when nothing is kept", entries: [ask(1), answer(2), ask(3), compaction("elsewhere")], replaced: ["e01", "e03"] },
    {
      name: "not one the compaction kept a copy of (Codex's replacement history)",
      entries: [ask(1), answer(2), ask(3), compaction("elsewhere"), user(5, "question 1")],
      replaced: ["e03"],
    },
    {
      name: "only the newest compaction's, after an older one",
      entries: [ask(1), compaction("e01", "old"), ask(3), answer(4), compaction("e04", "new"), ask(6)],
      replaced: ["e01", "e03"],
    },
  ])("the summary carries the requests it replaced (never sent, for the goal): $name", ({ entries, replaced }) => {
    const summary = contextOf(entries).find((m) => m.role === "user" && m.kind === "compactionSummary");
    const ids = summary?.role === "user" ? (summary.replacedRequests ?? []).map((m) => `${m.entryId}:${m.kind}`) : undefined;
    expect(ids).toEqual(replaced.map((id) => `${id}:user`));
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
    {
      name: "a custom message (v3 role)",
      entry: message({ role: "custom", customType: "x", content: "c", display: true }),
      expected: ["e01:custom"],
    },
    {
      name: "a custom_message entry",
      entry: { type: "custom_message", customType: "x", content: "c", display: true },
      expected: ["e01:custom"],
    },
    {
      name: "a custom_message with display false (hidden in the UI, still sent)",
      entry: { type: "custom_message", customType: "x", content: [text("c")], display: false },
      expected: ["e01:custom"],
    },
    {
      name: "a branch summary",
      entry: { type: "branch_summary", fromId: "x", summary: "went elsewhere" },
      expected: ["e01:branchSummary"],
    },
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
    const [custom] = contextOf([
      {
        type: "custom_message",
        customType: "x",
        content: [text("see"), { type: "image", data: "AAAA", mimeType: "image/jpeg" }],
        display: true,
      },
    ]);
    expect(custom?.content).toEqual([text("see"), { type: "image", data: "AAAA", mimeType: "image/jpeg" }]);
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
