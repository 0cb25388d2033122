import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chain, jsonl, text, user, V3_HEADER } from "../../../../fixtures/sessions/builders.ts";
import { readFixture, SESSION_FIXTURES } from "../../../../fixtures/sessions/load.ts";
import { AgentError } from "../../../errors.ts";
import { parseSession } from "./parse.ts";
import { unknownLayoutNotice } from "../version.ts";

/** The error parseSession throws for `text`, or a failure when it throws none. */
function refusal(text: string, file: string): AgentError {
  try {
    parseSession(text, file);
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error(`${file} was accepted as a session`);
}

describe("parseSession reads every format version", () => {
  test.each([
    { file: "v1.jsonl", format: "pi", versionFound: undefined, version: 1, entries: 14, cwd: "/home/dev/users", firstEntryLine: 2 },
    { file: "v2.jsonl", format: "pi", versionFound: 2, version: 2, entries: 6, cwd: "/home/dev/notes", firstEntryLine: 2 },
    { file: "v3-branches.jsonl", format: "pi", versionFound: 3, version: 3, entries: 32, cwd: "/home/dev/shop", firstEntryLine: 2 },
    { file: "omp.jsonl", format: "omp", versionFound: 3, version: 3, entries: 19, cwd: "/home/dev/uploader", firstEntryLine: 3 },
  ])("$file: $format, version $version, $entries entries", ({ file, entries, firstEntryLine, cwd, ...expected }) => {
    const session = parseSession(readFixture(file), file);
    expect(session).toMatchObject({ ...expected, malformedLines: [], problems: [], unknownTypes: [], missingFinalNewline: false });
    expect(session.header.cwd).toBe(cwd);
    expect(session.entries).toHaveLength(entries);
    expect(session.entries[0]?.line).toBe(firstEntryLine);
  });

  test("omp's title slot is read and skipped before the header", () => {
    const text = readFixture("omp.jsonl");
    expect(Buffer.byteLength(text.slice(0, text.indexOf("\n") + 1))).toBe(256);
    const session = parseSession(text, "omp.jsonl");
    expect(session.titleSlot).toEqual({ title: "Fix the flaky upload test", updatedAt: "2026-11-29T09:30:00.000Z", source: "auto" });
    expect(session.header).toMatchObject({ id: "019ad0c4-5e00-7a1b-8c2d-3e4f5a6b7c8d", line: 2 });
  });

  test.each([
    { name: "no pad", slot: { type: "title", v: 1, title: "t", updatedAt: "x" } },
    { name: "another slot version", slot: { type: "title", v: 2, title: "t", updatedAt: "x", pad: " " } },
    { name: "a title that is not a string", slot: { type: "title", v: 1, title: 7, updatedAt: "x", pad: " " } },
  ])("a title line with $name is not a slot, so the file has no header", ({ slot }) => {
    const error = refusal(jsonl([slot, V3_HEADER]), "t.jsonl");
    expect(error.message).toBe('t.jsonl:1: not a session: the first record is not a session header (expected {"type":"session","id":…})');
  });

  test("a title-like line after the header is an entry of an unknown type, not a slot", () => {
    const session = parseSession(chain([{ type: "title", v: 1, title: "t", updatedAt: "x", pad: " " }]), "t.jsonl");
    expect(session.titleSlot).toBeUndefined();
    expect(session.unknownTypes).toEqual(["title"]);
  });

  test("CRLF line ends read the same as LF", () => {
    const lf = readFixture("v3-branches.jsonl");
    const crlf = parseSession(lf.replaceAll("\n", "\r\n"), "crlf.jsonl");
    expect(crlf.entries.map((e) => e.data)).toEqual(parseSession(lf).entries.map((e) => e.data));
    expect(crlf.malformedLines).toEqual([]);
  });

  test("blank lines are skipped but still counted in line numbers", () => {
    const session = parseSession(`\n${chain([user(1, "a"), user(2, "b")]).replace("\n", "\n\n  \n")}`, "blank.jsonl");
    expect(session.header.line).toBe(2);
    expect(session.entries.map((e) => e.line)).toEqual([5, 6]);
    expect(session.malformedLines).toEqual([]);
  });

  test.each([
    { version: 4, readAs: 3 },
    { version: 0, readAs: 1 },
  ])("an unknown version $version is read as $readAs, noticed once on the header line, not an unusable line", ({ version, readAs }) => {
    const session = parseSession(chain([user(1, "hi")], { version }), "v.jsonl");
    expect(session.version).toBe(readAs);
    expect(session.versionFound).toBe(version);
    expect(session.problems).toEqual([]);
    expect(session.malformedLines).toEqual([]);
    const beside = version > 3 ? "newer than the 3 we know" : "older than the 1 we know";
    expect(unknownLayoutNotice(session)).toBe(`line 1: unknown session version ${version}, ${beside}; read as version ${readAs}`);
  });

  test.each([
    {
      name: "a title slot",
      header: {},
      before: [{ type: "title", v: 1, title: "t", updatedAt: "x", pad: " " }],
      entries: [],
      format: "omp",
    },
    // pi 0.73.1 names its sessions with UUID v7 too (fixtures/real/pi/session.jsonl): an id says nothing.
    { name: "a UUID v7 session id alone", header: { id: "019ad0c4-5e00-7a1b-8c2d-3e4f5a6b7c8d" }, before: [], entries: [], format: "pi" },
    { name: "an omp-only entry type", header: {}, before: [], entries: [{ type: "reset_boundary" }], format: "omp" },
    { name: "an omp model_change", header: {}, before: [], entries: [{ type: "model_change", model: "openai/gpt-5" }], format: "omp" },
    {
      name: "a model_change naming the model both ways, as we write it for both agents",
      header: {},
      before: [],
      entries: [{ type: "model_change", provider: "openai", modelId: "gpt-5", model: "openai/gpt-5" }],
      format: "pi",
    },
    {
      name: "a pi model_change and a v4 id",
      header: {},
      before: [],
      entries: [{ type: "model_change", provider: "openai", modelId: "gpt-5" }],
      format: "pi",
    },
  ])("$name means format $format", ({ header, before, entries, format }) => {
    const session = parseSession(jsonl(before) + chain(entries, header), "f.jsonl");
    expect(session.format).toBe(format);
  });
});

describe("parseSession refuses what is not a session, naming the file and line", () => {
  test.each([
    { file: "empty.jsonl", message: "not a session: the file is empty", line: undefined },
    { file: "blank-lines.jsonl", message: "not a session: the file is empty", line: undefined },
    { file: "binary.jsonl", message: "not a session: it looks like binary data", line: 1 },
    { file: "not-json.jsonl", message: "not a session: the line is not JSON", line: 1 },
    { file: "not-a-session.jsonl", message: "not a session: the first record is not a session header", line: 1 },
    { file: "message-first.jsonl", message: "not a session: the first record is not a session header", line: 1 },
    { file: "header-without-id.jsonl", message: 'not a session: the header has no string "id"', line: 1 },
    { file: "header-with-number-id.jsonl", message: 'not a session: the header has no string "id"', line: 1 },
  ])("$file: $message", ({ file, message, line }) => {
    const text = readFileSync(join(SESSION_FIXTURES, "bad", file)).toString("utf8");
    const error = refusal(text, `bad/${file}`);
    expect(error.code).toBe("NOT_A_SESSION");
    expect(error.message).toStartWith(`bad/${file}${line ? `:${line}` : ""}: ${message}`);
    expect(error.location).toEqual({ file: `bad/${file}`, line });
  });

  test("a title slot with nothing after it", () => {
    const error = refusal(jsonl([{ type: "title", v: 1, title: "t", updatedAt: "x", pad: " " }]), "t.jsonl");
    expect(error.message).toBe("t.jsonl: not a session: it has a title line but no session header");
  });

  test("binary data is recognised even when its first line looks like text", () => {
    const error = refusal("GIF89a\n\u0000\u0001\u0000\n{}", "image.jsonl");
    expect(error.message).toBe("image.jsonl:1: not a session: it looks like binary data");
  });
});

describe("parseSession skips unusable lines and reports them", () => {
  test("malformed lines in the middle are skipped, the rest loads", () => {
    const session = parseSession(readFixture("bad/malformed-middle.jsonl"), "m.jsonl");
    expect(session.malformedLines).toEqual([3, 4, 5]);
    expect(session.problems).toEqual([
      { line: 3, reason: "not valid JSON (a torn or hand-edited line?)" },
      { line: 4, reason: "not a JSON object" },
      { line: 5, reason: 'no string "type"' },
    ]);
    expect(session.entries.map((e) => [e.id, e.line])).toEqual([
      ["f0000001", 2],
      ["f0000002", 6],
      ["f0000003", 7],
      ["f0000004", 8],
    ]);
  });

  test("a half-written last line is skipped and the missing newline noticed", () => {
    const session = parseSession(readFixture("bad/torn-last-line.jsonl"), "t.jsonl");
    expect(session.malformedLines).toEqual([5]);
    expect(session.missingFinalNewline).toBe(true);
    expect(session.entries.map((e) => e.id)).toEqual(["f0000001", "f0000002", "f0000003"]);
  });

  test("a second session header is a malformed line", () => {
    const session = parseSession(chain([user(1, "a"), V3_HEADER, user(3, "b")]), "two.jsonl");
    expect(session.problems).toEqual([{ line: 3, reason: "a second session header" }]);
    expect(session.entries.map((e) => e.id)).toEqual(["e01", "e03"]);
  });

  test("unknown entry types are kept, and each type is named once", () => {
    const session = parseSession(readFixture("bad/unknown-type.jsonl"), "u.jsonl");
    expect(session.unknownTypes).toEqual(["hologram"]);
    expect(session.entries.map((e) => e.type)).toEqual(["message", "hologram", "hologram", "message"]);
    expect(session.entries[1]?.data.payload).toEqual({ x: 1 });
    expect(session.malformedLines).toEqual([]);
  });

  test("a header alone is a session with no entries", () => {
    const session = parseSession(jsonl([V3_HEADER]), "h.jsonl");
    expect(session.entries).toEqual([]);
    expect(session.header.id).toBe(V3_HEADER.id);
  });

  test("unknown fields survive on the entry's data", () => {
    const session = parseSession(chain([{ ...user(1, [text("a")]), futureField: { kept: true } }]), "f.jsonl");
    expect(session.entries[0]?.data.futureField).toEqual({ kept: true });
  });
});
