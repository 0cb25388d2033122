import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, linkSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFormat } from "../../core/index.ts";
import { readSessionFile } from "./session-file.ts";
import { TempFiles } from "../io/temp-file.ts";
import { describeNotRecorded, notRecordable, recordIntoSource, type NotRecorded } from "./record.ts";

const PREFIX = "s.jsonl: not recorded in the source: ";

describe("one message for a handoff not recorded in the source", () => {
  // [the reason, how loud, the words after the prefix]
  const CASES: [NotRecorded, "info" | "warn", string][] = [
    [{ kind: "format", label: "Claude Code" }, "info", "a Claude Code session is never written to; it was left untouched"],
    [{ kind: "stream", stream: "stdin" }, "warn", "stdin, not a file it could be written back to"],
    [{ kind: "refused", reason: "its session version 9 is newer" }, "warn", "its session version 9 is newer"],
    [
      { kind: "foreign-lock", lockPath: "s.jsonl.lock", what: "a folder" },
      "warn",
      "s.jsonl.lock is a folder, not a lock this tool made; it was left alone",
    ],
    [
      { kind: "lock-held", lockPath: "s.jsonl.lock", heldBy: 42 },
      "warn",
      "process 42 holds s.jsonl.lock (another handoff recording into it?)",
    ],
    [
      { kind: "lock-held", lockPath: "s.jsonl.lock", heldBy: undefined },
      "warn",
      "another process holds s.jsonl.lock (another handoff recording into it?)",
    ],
    [{ kind: "cannot-lock", reason: "x: permission denied" }, "warn", "cannot lock it (x: permission denied)"],
    [{ kind: "hard-links", links: 2 }, "warn", "it has 2 hard links, and rewriting it to record the handoff would split them"],
    [{ kind: "write-failed", reason: "s.jsonl: no space left on the device" }, "warn", "s.jsonl: no space left on the device"],
    [{ kind: "changed" }, "warn", "it changed while we worked (is an agent still writing it?)"],
  ];
  test.each(CASES)("%o", (why, level, words) => {
    expect(describeNotRecorded("s.jsonl", why)).toEqual({ level, text: `${PREFIX}${words}` });
  });

  test("a path with a control character is shown escaped, as every printed path", () => {
    expect(describeNotRecorded("a\x1bb.jsonl", { kind: "changed" }).text).not.toContain("\x1b");
  });
});

describe("what is known before the model is asked", () => {
  const pi = findFormat("pi");
  const claude = findFormat("claude-code");
  const CASES: [string, typeof pi, string | undefined, NotRecorded | undefined][] = [
    ["a pi file", pi, undefined, undefined],
    ["a pi stream", pi, "stdin", { kind: "stream", stream: "stdin" }],
    ["a Claude Code file", claude, undefined, { kind: "format", label: "Claude Code" }],
    // The first reason that applies: the format's.
    ["a Claude Code stream", claude, "stdin", { kind: "format", label: "Claude Code" }],
  ];
  test.each(CASES)("%s", (_, format, stream, expected) => {
    if (format === undefined) throw new Error("format table changed");
    expect(notRecordable(format, stream)).toEqual(expected);
  });
});

describe("recording into the source: the outcome, and the bytes on disk", () => {
  const dir = mkdtempSync(join(tmpdir(), "record-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  function source(text = '{"a":1}\n'): string {
    const path = join(dir, `s${n++}.jsonl`);
    writeFileSync(path, text);
    return path;
  }

  test("appended when unchanged: recorded, the lines after the old ones", () => {
    const path = source();
    const { file } = readSessionFile(path);
    expect(recordIntoSource(new TempFiles(process.pid), { mode: "append", text: '{"b":2}\n' }, file)).toEqual({
      recorded: true,
      notice: undefined,
    });
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"b":2}\n');
  });

  test("changed since it was read: not recorded, nothing of ours in it", () => {
    const path = source();
    const { file } = readSessionFile(path);
    appendFileSync(path, '{"agent":"still writing"}\n');
    expect(recordIntoSource(new TempFiles(process.pid), { mode: "append", text: '{"b":2}\n' }, file)).toEqual({
      recorded: false,
      why: { kind: "changed" },
    });
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"agent":"still writing"}\n');
  });

  test("a rewrite of a file with two hard links: not recorded, untouched", () => {
    const path = source();
    linkSync(path, `${path}.other`);
    const { file } = readSessionFile(path);
    const rewrite = { mode: "rewrite" as const, rewrite: () => undefined, turn: "x\n", notice: "upgraded" };
    expect(recordIntoSource(new TempFiles(process.pid), rewrite, file)).toEqual({ recorded: false, why: { kind: "hard-links", links: 2 } });
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n');
  });

  test("a rewrite done: recorded, with the notice to say", () => {
    const path = source();
    const { file } = readSessionFile(path);
    const rewrite = {
      mode: "rewrite" as const,
      rewrite: (lines: Iterable<unknown>, write: (text: string) => void) => {
        for (const _ of lines) write('{"v":3}\n');
        return undefined;
      },
      turn: '{"b":2}\n',
      notice: "upgraded to version 3",
    };
    expect(recordIntoSource(new TempFiles(process.pid), rewrite, file)).toEqual({ recorded: true, notice: "upgraded to version 3" });
    expect(readFileSync(path, "utf8")).toBe('{"v":3}\n{"b":2}\n');
  });
});
