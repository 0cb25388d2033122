/**
 * A file's opening comment says why the file exists in a few lines; a longer one is a spec essay,
 * whose place is docs/ (issue 23: "comments that are spec essays go to docs/ and leave a two-line
 * why"). Held here for every production file of cli/ and core/, so the rule does not erode.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const MAX_LINES = 15;

/**
 * The length in lines of a file's opening comment: the first block comment standing before any
 * code but imports, unless it documents the declaration right below it (that is the declaration's
 * doc, not the file's). Undefined when there is none.
 */
export function openingCommentLines(text: string): number | undefined {
  const lines = text.split("\n");
  let i = 0;
  const isImport = (line: string) => /^(import\b|export (\*|\{[^}]*\}) from\b|\s|\} from\b|\/\/)/.test(line);
  while (i < lines.length && ((lines[i] ?? "").trim() === "" || isImport(lines[i] ?? ""))) i++;
  if (!(lines[i] ?? "").startsWith("/*")) return undefined;
  let end = i;
  while (end < lines.length && !(lines[end] ?? "").includes("*/")) end++;
  let next = end + 1;
  while (next < lines.length && (lines[next] ?? "").trim() === "") next++;
  const after = lines[next] ?? "";
  if (!isImport(after) && !after.startsWith("/*") && next === end + 1) return undefined;
  return end - i + 1;
}

const production = (folder: string) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".testing.ts"))
    .map((name) => join(folder, name));

describe("opening comments", () => {
  test.each([
    ["none", "import { a } from './a.ts';\nexport const b = a;\n", undefined],
    ["at the top", "/**\n * Why.\n */\nimport { a } from './a.ts';\n", 3],
    [
      "after the imports, before another comment",
      "import { a } from './a.ts';\n\n/**\n * Why.\n * More.\n */\n\n/** The b. */\nexport const b = a;\n",
      4,
    ],
    ["after the imports, then a blank line and code", "import { a } from './a.ts';\n\n/**\n * Why.\n */\n\nexport const b = a;\n", 3],
    ["the doc of the first declaration", "import { a } from './a.ts';\n\n/**\n * The b.\n */\nexport const b = a;\n", undefined],
    ["after a multi-line import", "import {\n  a,\n  b,\n} from './a.ts';\n/** Why. */\nimport { c } from './c.ts';\n", 1],
  ])("%s", (_name, text, lines) => {
    expect(openingCommentLines(text)).toBe(lines);
  });

  test(`no production file of cli/ or core/ opens with a comment of more than ${MAX_LINES} lines`, () => {
    const files = [...production("cli"), ...production("core")];
    expect(files.length).toBeGreaterThan(200);
    const long = files.flatMap((file) => {
      const lines = openingCommentLines(readFileSync(join(ROOT, file), "utf8"));
      return lines !== undefined && lines > MAX_LINES ? [`${file}: ${lines} lines (move the detail to docs/, keep the why)`] : [];
    });
    expect(long).toEqual([]);
  });
});
