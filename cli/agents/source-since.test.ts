import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lineSince } from "./source-since.ts";

const root = mkdtempSync(join(tmpdir(), "agent-source-since-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MARK = "MARKED";
const big = "x".repeat(300 * 1024);
const first = `one\n${big}\n`;

/** The file's text, the offset (the size the hook saw), and whether a line after it holds MARK. */
const CASES: [string, string, number, boolean][] = [
  ["a marked line before the offset is not since", `${MARK}\nb\n`, `${MARK}\n`.length, false],
  ["a marked line after the offset is", `a\n${MARK}\n`, 2, true],
  ["a marked line being written at the offset is read whole", `a\n${MARK}-and-more\n`, 5, true],
  ["an offset at 0 reads the whole file", `a\n${MARK}\n`, 0, true],
  ["an offset past the end (the file shrank) reads nothing new", `${MARK}\n`, 100, false],
  ["a last line with no line break counts", `a\n${MARK}`, 2, true],
  ["after a line longer than one read", `${first}${MARK}\n`, first.length, true],
  ["inside a line longer than one read (the look back is bounded): no false mark", `${MARK}${big}${big}\nz\n`, 2 * big.length, false],
  ["a line longer than one read, marked at its end, after the offset", `a\n${big}${big}${MARK}\n`, 2, true],
];

describe("lineSince: only what the agent appended after the offset", () => {
  for (const [name, text, offset, expected] of CASES)
    test(name, () => {
      const path = join(root, `${name.replace(/\W+/g, "-")}.jsonl`);
      writeFileSync(path, text);
      expect(lineSince(path, offset, (line) => line.includes(MARK))).toBe(expected);
    });

  test("a file that is not there: false, no throw", () => {
    expect(lineSince(join(root, "missing.jsonl"), 0, () => true)).toBe(false);
  });
});
