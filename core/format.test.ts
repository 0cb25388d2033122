import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countOf, formatCount, withArticle } from "./format.ts";

test.each([
  [0, "0"],
  [999, "999"],
  [12345, "12,345"],
  [1234567, "1,234,567"],
])("formatCount(%p) is %p", (n, expected) => {
  expect(formatCount(n)).toBe(expected);
});

// Whole numbers are grouped by hand (no locale data loaded): the same text as en-US's, every length and sign.
test("formatCount writes every number as toLocaleString('en-US') does", () => {
  const numbers = [0, -0, 1, -1, 7, 10, 99, 100, 999, 1000, -1000, 9999, 10000, 123456, 999999, 1000000, -1234567];
  for (let power = 0; power <= 16; power++) numbers.push(10 ** power, 10 ** power - 1, -(10 ** power), 3 * 10 ** power + 7);
  numbers.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 1.5, 1234.5678, -0.25, Number.NaN, Infinity, -Infinity);
  const mismatches = numbers.filter((n) => formatCount(n) !== n.toLocaleString("en-US")).map((n) => [n, formatCount(n)]);
  expect(mismatches).toEqual([]);
});

test.each<[number, string, string | undefined, string]>([
  [0, "message", undefined, "0 messages"],
  [1, "message", undefined, "1 message"],
  [2, "message", undefined, "2 messages"],
  [1, "entry", "entries", "1 entry"],
  [3, "entry", "entries", "3 entries"],
  [12345, "token", undefined, "12,345 tokens"],
])("countOf(%p, %p, %p) is %p", (n, one, many, expected) => {
  expect(countOf(n, one, many)).toBe(expected);
});

/** Every source file of the program (not its tests) under `folder`. */
function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".testing.ts"))
    .map((name) => join(folder, name));
}

// A plural made by hand (`n === 1 ? "" : "s"`, `line(s)`) is how "1 messages" came about: countOf is the one rule.
test("no count is put in the plural by hand outside countOf", () => {
  const root = join(import.meta.dir, "..");
  const byHand = /[=!]== 1 \? "[a-z ]*" : "[a-z ]*s"|[a-z]\(s\),? [a-z]/;
  const comment = /^\s*(?:\*|\/\/|\/\*\*)/;
  const found = [...sources(join(root, "cli")), ...sources(join(root, "core"))].flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (byHand.test(line) && !comment.test(line) ? [`${file.slice(root.length + 1)}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(found).toEqual([]);
});

describe("withArticle: the article before an agent's name in a message", () => {
  test.each([
    ["pi", "a pi"],
    ["omp", "an omp"],
    ["Claude Code", "a Claude Code"],
    ["Codex", "a Codex"],
    ["Gemini CLI", "a Gemini CLI"],
    ["opencode", "an opencode"],
    ["Aider", "an Aider"],
  ])("%s → %s", (name, expected) => {
    expect(withArticle(name)).toBe(expected);
  });
});
