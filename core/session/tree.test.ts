import { describe, expect, test } from "bun:test";
import { entry, jsonl, user, V3_HEADER } from "../../fixtures/sessions/builders.ts";
import { loadFixture } from "../../fixtures/sessions/load.ts";
import { AgentError } from "../errors.ts";
import { analyzeBranch, describeSessionProblems } from "./analyze.ts";
import { parseSession } from "./formats/pi/parse.ts";
import { indexEntries, walkBranch } from "./tree.ts";

const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id);

/** A v3 session from `[id, parentId]` pairs in file order. */
function tree(pairs: [string, string | null][]) {
  return parseSession(
    jsonl([V3_HEADER, ...pairs.map(([id, parentId], i) => entry(i, id, parentId, user(i, `text of ${id}`)))]),
    "tree.jsonl",
  );
}

describe("walkBranch", () => {
  test("the leaf is the last entry in file order and the branch runs root first to it", () => {
    const { analysis } = loadFixture("v3-branches.jsonl");
    expect(analysis.branch.leafId).toBe("c000001d");
    expect(analysis.branch.entries[0]?.id).toBe("c0000001");
    expect(analysis.branch.entries.at(-1)?.id).toBe("c000001d");
    expect(analysis.branch.entries).toHaveLength(29);
    expect(analysis.branch.danglingParent).toBeUndefined();
    expect(analysis.branch.cycleAt).toBeUndefined();
  });

  test("entries of an abandoned branch are not on the current branch", () => {
    const { analysis } = loadFixture("v3-branches.jsonl");
    expect(ids(analysis.branch.entries)).not.toContain("a0000001");
    expect(ids(analysis.branch.entries).filter((id) => id.startsWith("a"))).toEqual([]);
  });

  test("an explicit leaf selects the abandoned branch instead", () => {
    const { analysis } = loadFixture("v3-branches.jsonl", { leafId: "a0000003" });
    expect(ids(analysis.branch.entries)).toEqual([
      "c0000001",
      "c0000002",
      "c0000003",
      "c0000004",
      "c0000005",
      "c0000006",
      "c0000007",
      "a0000001",
      "a0000002",
      "a0000003",
    ]);
  });

  test("an explicit leaf in the middle of a branch cuts the branch there", () => {
    const session = tree([
      ["r", null],
      ["a", "r"],
      ["b", "a"],
    ]);
    expect(ids(walkBranch(session.entries, indexEntries(session.entries), "a").entries)).toEqual(["r", "a"]);
  });

  test("an unknown leaf id is a user error, not a crash", () => {
    const session = tree([["r", null]]);
    expect(() => walkBranch(session.entries, indexEntries(session.entries), "nope")).toThrow(
      new AgentError("UNKNOWN_ENTRY", 'no entry with id "nope" in this session'),
    );
  });

  test("a session without entries has no leaf and an empty branch", () => {
    const session = tree([]);
    expect(walkBranch(session.entries, indexEntries(session.entries))).toEqual({ leafId: undefined, entries: [] });
  });

  test("a cycle in parentId ends the walk and is reported", () => {
    const { session, analysis } = loadFixture("bad/cycle.jsonl");
    // f0000001 → f0000003 → f0000002 → f0000001: the walk from f0000003 visits each once.
    expect(ids(analysis.branch.entries)).toEqual(["f0000001", "f0000002", "f0000003"]);
    expect(analysis.branch.cycleAt).toBe("f0000003");
    expect(describeSessionProblems(session, analysis)).toEqual(["the parent chain loops back to entry f0000003; the branch was cut there"]);
  });

  test("an entry that is its own parent is a cycle of one", () => {
    const session = tree([["self", "self"]]);
    const branch = walkBranch(session.entries, indexEntries(session.entries));
    expect(branch).toMatchObject({ leafId: "self", cycleAt: "self" });
    expect(ids(branch.entries)).toEqual(["self"]);
  });

  test("a dangling parentId starts the branch at the orphaned entry and is reported", () => {
    const { session, analysis } = loadFixture("bad/dangling-parent.jsonl");
    expect(ids(analysis.branch.entries)).toEqual(["f0000003", "f0000004"]);
    expect(analysis.branch.danglingParent).toEqual({ entryId: "f0000003", parentId: "f0000002" });
    expect(describeSessionProblems(session, analysis)).toEqual([
      "entry f0000003 names a parent f0000002 that is not in the file; the branch starts there",
    ]);
  });

  test("a repeated id is reported and the later entry wins", () => {
    const session = tree([
      ["r", null],
      ["x", "r"],
      ["x", "r"],
      ["leaf", "x"],
    ]);
    const analysis = analyzeBranch(session);
    expect(analysis.tree.duplicateIds).toEqual(["x"]);
    expect(analysis.branch.entries.map((e) => e.line)).toEqual([2, 4, 5]);
    expect(describeSessionProblems(session, analysis)).toEqual(["entry ids used more than once (the later entry wins): x"]);
  });

  test("a deep branch (100,000 entries) is walked without recursion", () => {
    const pairs: [string, string | null][] = [["n0", null]];
    for (let i = 1; i < 100_000; i++) pairs.push([`n${i}`, `n${i - 1}`]);
    const session = tree(pairs);
    const branch = walkBranch(session.entries, indexEntries(session.entries));
    expect(branch.entries).toHaveLength(100_000);
    expect(branch.entries[0]?.id).toBe("n0");
  });
});

describe("describeSessionProblems", () => {
  test("skipped lines are listed by number with the first reason", () => {
    const { session, analysis } = loadFixture("bad/malformed-middle.jsonl");
    expect(describeSessionProblems(session, analysis)).toEqual([
      "skipped 3 unusable lines: 3, 4, 5 (line 3: not valid JSON (a torn or hand-edited line?))",
    ]);
  });

  test("more than ten skipped lines are counted, not all listed", () => {
    const session = parseSession(`${jsonl([V3_HEADER])}${"nope\n".repeat(12)}`, "many.jsonl");
    expect(describeSessionProblems(session, analyzeBranch(session))).toEqual([
      "skipped 12 unusable lines: 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more (line 2: not valid JSON (a torn or hand-edited line?))",
    ]);
  });

  test("an unknown entry type is named once", () => {
    const { session, analysis } = loadFixture("bad/unknown-type.jsonl");
    expect(describeSessionProblems(session, analysis)).toEqual(['unknown entry type "hologram" kept and ignored']);
  });

  test("a clean session has nothing to say", () => {
    const { session, analysis } = loadFixture("v3-branches.jsonl");
    expect(describeSessionProblems(session, analysis)).toEqual([]);
  });
});
