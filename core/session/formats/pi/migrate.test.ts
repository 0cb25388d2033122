import { describe, expect, test } from "bun:test";
import { assistant, chain, jsonl, message, record, text, user } from "../../../../fixtures/sessions/builders.ts";
import { loadFixture, readFixture, textOf } from "../../../../fixtures/sessions/load.ts";
import { analyzeBranch } from "../../analyze.ts";
import { v1EntryId } from "./migrate.ts";
import { parseSession } from "./parse.ts";

const V1_HEADER = { type: "session", id: "11111111-2222-4333-8444-555555555555", timestamp: "2026-11-29T09:00:00.000Z", cwd: "/w" };

describe("version 1 → 3", () => {
  test("every entry gets an id, chained to the entry before it in file order", () => {
    const { session } = loadFixture("v1.jsonl");
    expect(session.entries.map((e) => [e.id, e.parentId])).toEqual(
      session.entries.map((_, i) => [v1EntryId(i + 1), i === 0 ? null : v1EntryId(i)]),
    );
    expect(session.entries[0]?.id).toBe("00000001");
    // The ids are written into the data too, so a rewrite of the entry is a valid v3 entry.
    expect(session.entries[13]?.data).toMatchObject({ id: "0000000e", parentId: "0000000d" });
  });

  test("ids are the same on every read, so a --leaf id from one run works in the next", () => {
    const text = readFixture("v1.jsonl");
    expect(parseSession(text).entries.map((e) => e.id)).toEqual(parseSession(text).entries.map((e) => e.id));
  });

  test("a compaction's firstKeptEntryIndex (header = 0) becomes the id of that record", () => {
    const { session } = loadFixture("v1.jsonl");
    const compaction = session.entries.find((e) => e.type === "compaction");
    expect(compaction?.data.firstKeptEntryIndex).toBe(7);
    const kept = session.entries.find((e) => e.id === compaction?.data.firstKeptEntryId);
    expect(kept?.line).toBe(8); // record 7 counting the header as 0 is line 8
    expect(kept?.data.message).toMatchObject({ role: "user", content: [text("Also update docs/api.md.")] });
  });

  test("the context of a v1 compaction: summary, the kept records, then what followed", () => {
    const { analysis } = loadFixture("v1.jsonl");
    expect(analysis.context.map((m) => m.entryId)).toEqual([
      "0000000a",
      "00000007",
      "00000008",
      "00000009",
      "0000000b",
      "0000000c",
      "0000000d",
      "0000000e",
    ]);
    expect(analysis.context[0]).toMatchObject({ role: "user", kind: "compactionSummary" });
    expect(textOf(analysis.context[0])).toContain("<summary>\nRenamed getUser to fetchUser in src/users.ts.\n</summary>");
  });

  test.each([
    { index: 0, why: "the header" },
    { index: 99, why: "past the end" },
    { index: "2", why: "a string" },
    { index: 1.5, why: "a fraction" },
  ])("a firstKeptEntryIndex pointing at $why is reported and nothing before the compaction is kept", ({ index }) => {
    const session = parseSession(
      jsonl([
        V1_HEADER,
        record(1, user(1, "old")),
        record(2, { type: "compaction", summary: "S", firstKeptEntryIndex: index, tokensBefore: 1 }),
        record(3, user(3, "new")),
      ]),
      "v1.jsonl",
    );
    expect(session.problems).toEqual([{ line: 3, reason: `compaction's firstKeptEntryIndex ${String(index)} points at no entry` }]);
    // The compaction itself was used, so its line is not a skipped one.
    expect(session.malformedLines).toEqual([]);
    expect(session.entries).toHaveLength(3);
    const { context } = analyzeBranch(session);
    expect(context.map((m) => [m.entryId, m.role === "user" && m.kind])).toEqual([
      ["00000002", "compactionSummary"],
      ["00000003", "user"],
    ]);
  });

  test("a malformed v1 line gets no id, and the ids of the records after it stay in order", () => {
    const session = parseSession(`${jsonl([V1_HEADER, record(1, user(1, "a"))])}{"type":\n${jsonl([record(3, user(3, "b"))])}`, "v1.jsonl");
    expect(session.malformedLines).toEqual([3]);
    expect(session.entries.map((e) => [e.id, e.parentId, e.line])).toEqual([
      ["00000001", null, 2],
      ["00000002", "00000001", 4],
    ]);
  });
});

describe("version 2 → 3", () => {
  test("the hookMessage role becomes custom and reaches the context as a custom message", () => {
    const { session, analysis } = loadFixture("v2.jsonl");
    expect(session.entries[2]?.data.message).toMatchObject({ role: "custom", customType: "reminder" });
    expect(analysis.context[1]).toEqual({ role: "user", kind: "custom", content: [text("Answer in one paragraph.")], entryId: "b0000003" });
  });

  test("v2 ids and parents are kept as written", () => {
    const { session } = loadFixture("v2.jsonl");
    expect(session.entries.map((e) => `${e.parentId}→${e.id}`)).toEqual([
      "null→b0000001",
      "b0000001→b0000002",
      "b0000002→b0000003",
      "b0000003→b0000004",
      "b0000004→b0000005",
      "b0000005→b0000006",
    ]);
  });
});

describe("version 3 entries without tree fields", () => {
  test.each([
    { name: "no id", fields: { parentId: null }, reason: 'entry has no string "id"' },
    { name: "an empty id", fields: { id: "", parentId: null }, reason: 'entry has no string "id"' },
    { name: "no parentId", fields: { id: "x1" }, reason: 'entry has no "parentId" (string or null)' },
    { name: "a numeric parentId", fields: { id: "x1", parentId: 3 }, reason: 'entry has no "parentId" (string or null)' },
  ])("an entry with $name is skipped and its line reported", ({ fields, reason }) => {
    const bad = { type: "message", ...fields, timestamp: "t", message: { role: "user", content: "lost" } };
    const session = parseSession(`${chain([user(1, "kept")])}${JSON.stringify(bad)}\n`, "v3.jsonl");
    expect(session.problems).toEqual([{ line: 3, reason }]);
    expect(session.malformedLines).toEqual([3]);
    expect(session.entries.map((e) => e.id)).toEqual(["e01"]);
  });

  test("a v3 file keeps its ids; hookMessage is only a v2 name but is read as custom anywhere", () => {
    const session = parseSession(
      chain([message({ role: "hookMessage", customType: "x", content: "c", display: false }), assistant(2, [text("ok")])]),
    );
    expect(session.entries[0]?.data.message).toMatchObject({ role: "custom" });
    expect(session.entries.map((e) => e.id)).toEqual(["e01", "e02"]);
  });
});

describe("the hookMessage role, in a file of each version", () => {
  const header = (version: number | undefined) => ({ ...V1_HEADER, ...(version === undefined ? {} : { version }) });
  const tree = (version: number | undefined, n: number) =>
    version === undefined ? {} : { id: `h${n}`, parentId: n === 1 ? null : `h${n - 1}` };
  // [case, the entry's fields, its `message` after the read]
  const CASES: [string, Record<string, unknown>, unknown][] = [
    ["a message", { type: "message", message: { role: "hookMessage", content: "c" } }, { role: "custom", content: "c" }],
    ["a message whose message is an array", { type: "message", message: ["hookMessage"] }, ["hookMessage"]],
    ["a message whose message is null", { type: "message", message: null }, null],
    ["a message whose message is a string", { type: "message", message: "hookMessage" }, "hookMessage"],
    ["another entry type", { type: "custom_message", message: { role: "hookMessage" } }, { role: "hookMessage" }],
  ];
  for (const version of [undefined, 2, 3])
    test.each(CASES)(`v${version ?? 1}: %s`, (_name, fields, expected) => {
      const text = jsonl([header(version), { ...fields, ...tree(version, 1) }, { ...user(2, "after"), ...tree(version, 2) }]);
      const session = parseSession(text, "h.jsonl");
      expect(session.problems).toEqual([]);
      expect(session.entries[0]?.data.message).toEqual(expected);
      expect(session.entries[1]?.data.message).toMatchObject({ role: "user" });
    });
});
