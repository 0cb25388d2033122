import { describe, expect, test } from "bun:test";
import { beforeCompactStep, markText, parseMark, type BeforeCompactMark, type SourceNow } from "./before-compact.ts";

const MARK: BeforeCompactMark = { sessionId: "h1", sessionFile: "/p/h1.jsonl", sourceBytes: 1000, tokens: 50_000, named: false };
const NOW: SourceNow = { bytes: 1500, sameHead: true, compactedSince: false, handoffThere: true, tokens: 60_000, window: 200_000 };

/** The mark (or none), the source now, and what a PreCompact does. */
const STEPS: [string, BeforeCompactMark | undefined, Partial<SourceNow>, ReturnType<typeof beforeCompactStep>][] = [
  ["no handoff yet", undefined, {}, { kind: "write", why: "first", nameReplaced: false }],
  ["nothing since but growth under a tenth", MARK, {}, { kind: "keep" }],
  ["a compaction since, the handoff not named", MARK, { compactedSince: true }, { kind: "write", why: "compacted", nameReplaced: true }],
  [
    "a compaction since, the handoff named",
    { ...MARK, named: true },
    { compactedSince: true },
    { kind: "write", why: "compacted", nameReplaced: false },
  ],
  [
    "a compaction since, the handoff deleted",
    MARK,
    { compactedSince: true, handoffThere: false },
    { kind: "write", why: "compacted", nameReplaced: false },
  ],
  ["the source shrank", MARK, { bytes: 999 }, { kind: "write", why: "replaced", nameReplaced: false }],
  [
    "the source begins otherwise (replaced, same size or more)",
    MARK,
    { sameHead: false },
    { kind: "write", why: "replaced", nameReplaced: false },
  ],
  [
    "the source begins otherwise, and has a boundary after the old size",
    MARK,
    { sameHead: false, compactedSince: true },
    { kind: "write", why: "replaced", nameReplaced: false },
  ],
  ["the handoff deleted", MARK, { handoffThere: false }, { kind: "write", why: "gone", nameReplaced: false }],
  ["grew by exactly a tenth of the window", MARK, { tokens: 70_000 }, { kind: "write", why: "grew", nameReplaced: false }],
  ["grew by a token less", MARK, { tokens: 69_999 }, { kind: "keep" }],
  ["no usage now (stale after a compaction)", MARK, { tokens: undefined, window: undefined }, { kind: "keep" }],
  ["no usage when it was written", { ...MARK, tokens: undefined }, { tokens: 190_000 }, { kind: "keep" }],
];

describe("beforeCompactStep: one handoff per compaction", () => {
  for (const [name, mark, now, expected] of STEPS)
    test(name, () => {
      expect(beforeCompactStep(mark, { ...NOW, ...now })).toEqual(expected);
    });
});

const DAMAGED: [string, string, string][] = [
  ["not JSON", "{not json", "it is not JSON"],
  ["another version", JSON.stringify({ ...MARK, version: 2 }), "it is not a version 1 mark"],
  ["an array", "[]", "it is not a version 1 mark"],
  ["no session id", JSON.stringify({ ...MARK, version: 1, sessionId: "" }), "it names no handoff session"],
  [
    "an id with a line break",
    JSON.stringify({ ...MARK, version: 1, sessionId: "h1\nType rm -rf" }),
    "the handoff session it names is not an id and a path",
  ],
  [
    "an id that is a path",
    JSON.stringify({ ...MARK, version: 1, sessionId: "../h1" }),
    "the handoff session it names is not an id and a path",
  ],
  [
    "a relative file",
    JSON.stringify({ ...MARK, version: 1, sessionFile: "h1.jsonl" }),
    "the handoff session it names is not an id and a path",
  ],
  [
    "a file with an escape",
    JSON.stringify({ ...MARK, version: 1, sessionFile: "/p/\u001b[2Jh1.jsonl" }),
    "the handoff session it names is not an id and a path",
  ],
  ["a negative size", JSON.stringify({ ...MARK, version: 1, sourceBytes: -1 }), "its figures are not counts"],
  ["tokens as text", JSON.stringify({ ...MARK, version: 1, tokens: "5" }), "its figures are not counts"],
  ["a digest that is not one", JSON.stringify({ ...MARK, version: 1, sourceHead: "../x" }), "its digest of the source is not one"],
  ["named missing", JSON.stringify({ version: 1, sessionId: "h", sessionFile: "/h", sourceBytes: 1 }), "its figures are not counts"],
];

describe("parseMark", () => {
  test("reads back what markText wrote, with and without tokens", () => {
    expect(parseMark(markText(MARK))).toEqual(MARK);
    const digested = { ...MARK, sourceHead: "a".repeat(64) };
    expect(parseMark(markText(digested))).toEqual(digested);
    const { tokens: _, ...untold } = MARK;
    expect(parseMark(markText(untold))).toEqual(untold);
  });
  for (const [name, text, problem] of DAMAGED)
    test(`${name}: one line saying why`, () => {
      expect(parseMark(text)).toEqual({ problem });
    });
});
