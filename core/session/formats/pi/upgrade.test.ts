import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readObjectMembers } from "./json-members.ts";
import { splitLines } from "../../lines.ts";
import { parseSession } from "./parse.ts";
import type { Entry } from "../../types.ts";
import { upgradeToVersion3Text } from "./upgrade.testing.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "..", "..", "fixtures");
const SHARED = join(import.meta.dir, "..", "..", "..", "..", "..", "shared", "sessions");
const V1_HEADER = '{"type":"session","id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
const V2_HEADER = '{"type":"session","version":2,"id":"s2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';

function upgraded(text: string): string {
  const result = upgradeToVersion3Text(parseSession(text), splitLines(text));
  if (!("text" in result)) throw new Error(`line ${result.mismatchedLine} did not match`);
  return result.text;
}

/** The first entry line of a one-entry v1 file, upgraded. */
function upgradeV1Line(line: string): string {
  return upgraded(`${V1_HEADER}\n${line}\n`).split("\n")[1] ?? "";
}

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("a version 1 entry line: ids added after `type`, every other byte kept", () => {
  const ids = '"id":"00000001","parentId":null';
  test.each([
    [
      "an integer past 2^53",
      '{"type":"custom","data":{"n":12345678901234567890,"m":-9007199254740993}}',
      `{"type":"custom",${ids},"data":{"n":12345678901234567890,"m":-9007199254740993}}`,
    ],
    [
      "1.0, 1e5, 1E+5, -0, 0.1e-7",
      '{"type":"custom","data":[1.0,1e5,1E+5,-0,0.1e-7]}',
      `{"type":"custom",${ids},"data":[1.0,1e5,1E+5,-0,0.1e-7]}`,
    ],
    [
      "unicode and other escapes",
      '{"type":"custom","data":"caf\\u00e9 \\ud83d\\ude00 \\/ \\" \\\\"}',
      `{"type":"custom",${ids},"data":"caf\\u00e9 \\ud83d\\ude00 \\/ \\" \\\\"}`,
    ],
    ["`type` not first", '{"timestamp":"t","type":"custom","data":{}}', `{"timestamp":"t","type":"custom",${ids},"data":{}}`],
    ["spaces around everything", '{ "type" : "custom" , "data" : { "a" : 1 } }', `{ "type" : "custom",${ids} , "data" : { "a" : 1 } }`],
    ["an escaped key spelling `type`", '{"t\\u0079pe":"custom","x":1}', `{"t\\u0079pe":"custom",${ids},"x":1}`],
    [
      "an id already there (replaced where it stands)",
      '{"type":"custom","id":"old","x":1}',
      '{"type":"custom","parentId":null,"id":"00000001","x":1}',
    ],
    [
      "a role string inside text is not a role",
      '{"type":"message","message":{"role":"user","content":"\\"role\\":\\"hookMessage\\""}}',
      `{"type":"message",${ids},"message":{"role":"user","content":"\\"role\\":\\"hookMessage\\""}}`,
    ],
    [
      "hookMessage becomes custom",
      '{"type":"message","message":{"content":"x","role":"hookMessage"}}',
      `{"type":"message",${ids},"message":{"content":"x","role":"custom"}}`,
    ],
    ["a value nested 100,000 deep", `{"type":"custom","data":${deep(100_000)}}`, `{"type":"custom",${ids},"data":${deep(100_000)}}`],
  ])("%s", (_, line, expected) => {
    expect(upgradeV1Line(line)).toBe(expected);
  });

  test("a compaction gets firstKeptEntryId beside its firstKeptEntryIndex", () => {
    const lines = [
      '{"type":"message","message":{"role":"user","content":"a"}}',
      '{"type":"compaction","summary":"s","firstKeptEntryIndex":1,"tokensBefore":12345678901234567890}',
    ];
    const out = upgraded(`${V1_HEADER}\n${lines.join("\n")}\n`).split("\n");
    expect(out[2]).toBe(
      '{"type":"compaction","id":"00000002","parentId":"00000001","summary":"s","firstKeptEntryIndex":1,"firstKeptEntryId":"00000001","tokensBefore":12345678901234567890}',
    );
  });
});

describe("the header", () => {
  test.each([
    ["no version (v1)", V1_HEADER, '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}'],
    ["version 2", V2_HEADER, V2_HEADER.replace('"version":2', '"version":3')],
    [
      "version 1 written out, extras kept",
      '{"id":"s1","version":1,"type":"session","provider":"p","n":1.50}',
      '{"id":"s1","version":3,"type":"session","provider":"p","n":1.50}',
    ],
  ])("%s", (_, header, expected) => {
    expect(upgraded(`${header}\n`).split("\n")[0]).toBe(expected);
  });
});

describe("a version 2 file changes only its header and hookMessage roles", () => {
  test("fixtures/sessions/v2.jsonl", () => {
    const original = readFileSync(join(FIXTURES, "sessions", "v2.jsonl"), "utf8")
      .trimEnd()
      .split("\n");
    const out = upgraded(`${original.join("\n")}\n`)
      .trimEnd()
      .split("\n");
    expect(out).toHaveLength(original.length);
    out.forEach((line, i) => {
      const before = original[i] ?? "";
      const expected = i === 0 ? before.replace('"version":2', '"version":3') : before.replace('"role":"hookMessage"', '"role":"custom"');
      expect(line).toBe(expected);
    });
  });
});

/** What an entry is once read: the same whether migrated in memory or read from the upgraded file. */
const essence = (entry: Entry) => ({ type: entry.type, id: entry.id, parentId: entry.parentId, data: entry.data });

describe("the upgraded file reads back as the session migrated in memory", () => {
  const sources = [
    ["fixtures/sessions/v1.jsonl", join(FIXTURES, "sessions", "v1.jsonl")],
    ["fixtures/sessions/v2.jsonl", join(FIXTURES, "sessions", "v2.jsonl")],
    ["../shared/sessions/before-compaction.jsonl", join(SHARED, "before-compaction.jsonl")],
    ["../shared/sessions/large-session.jsonl", join(SHARED, "large-session.jsonl")],
  ];
  for (const [name, path] of sources) {
    test.skipIf(!existsSync(path ?? ""))(`${name}${existsSync(path ?? "") ? "" : " (absent: skipped)"}`, () => {
      const before = parseSession(readFileSync(path ?? ""));
      expect(before.version).not.toBe(3);
      const after = parseSession(upgraded(readFileSync(path ?? "", "utf8")));
      expect([after.version, after.versionFound, after.problems]).toEqual([3, 3, []]);
      expect(after.entries.map(essence)).toEqual(before.entries.map(essence));
      expect(after.header.raw).toEqual({ ...before.header.raw, version: 3 });
    });
  }
});

describe("lines that are not what was parsed (the file changed since) are refused, not upgraded", () => {
  const v1 = readFileSync(join(FIXTURES, "sessions", "v1.jsonl"), "utf8");
  const lines = v1.trimEnd().split("\n");
  test.each([
    ["a line added at the end", `${v1}{"type":"label","label":"x"}\n`, lines.length + 1],
    ["a line gone", `${lines.slice(0, -1).join("\n")}\n`, lines.length],
    [
      "an entry of another type in its place",
      `${[...lines.slice(0, 2), '{"type":"label","label":"x"}', ...lines.slice(3)].join("\n")}\n`,
      3,
    ],
    ["another session's header", `${[lines[0]?.replace('"id":"', '"id":"x'), ...lines.slice(1)].join("\n")}\n`, 1],
    ["a line that is not JSON", `${[...lines.slice(0, 2), "{oops", ...lines.slice(3)].join("\n")}\n`, 3],
  ])("%s", (_, now, line) => {
    expect(upgradeToVersion3Text(parseSession(v1), splitLines(now))).toEqual({ mismatchedLine: line });
  });
});

describe("readObjectMembers", () => {
  test("finds each member's key and value spans", () => {
    const text = ' { "a" : [1, {"b": "}"}] , "c":"x\\"y", "d":null}';
    const object = readObjectMembers(text);
    expect(object?.members.map((m) => [m.key, text.slice(m.valueStart, m.valueEnd)])).toEqual([
      ["a", '[1, {"b": "}"}]'],
      ["c", '"x\\"y"'],
      ["d", "null"],
    ]);
    expect(text[object?.close ?? 0]).toBe("}");
  });

  test.each([["[1]"], ['"s"'], ["{"], ['{"a":}'], ['{"a" 1}'], ['{"a":1,}']])("%p is not an object it can read", (text) => {
    expect(readObjectMembers(text)).toBeUndefined();
  });

  test("an empty object", () => {
    expect(readObjectMembers("{ }")).toEqual({ members: [], open: 0, close: 2 });
  });
});
