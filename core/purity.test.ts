import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, join, relative, resolve } from "node:path";

// core/ must stay pure (see STYLE.md): no files, no process, no network, no clock, no CLI libraries.
const FORBIDDEN = [
  /from\s+["'](node:)?(fs|fs\/promises|child_process|process|os|net|http|https|path)["']/,
  /from\s+["'](consola|citty|openai)["']/,
  /\bprocess\.(env|exit|stdout|stderr|argv|cwd)\b/,
  /\bBun\.(file|write|spawn|serve|stdin|stdout|env)\b/,
  /\bDate\.now\(\)|\bnew Date\(\)|\bMath\.random\(\)|\bcrypto\.randomUUID\(\)/,
  /from\s+["']\.\.\/\.\.\/cli\//,
];

describe("core purity", () => {
  const root = join(import.meta.dir);
  const files = [...new Glob("**/*.ts").scanSync(root)].filter((f) => !f.endsWith(".test.ts"));

  test("finds the core sources", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  test.each(files)("%s reaches for no effects", async (file) => {
    const text = await Bun.file(join(root, file)).text();
    const offending = text.split("\n").filter((line) => FORBIDDEN.some((re) => re.test(line)));
    expect(offending).toEqual([]);
  });

  /** Where each relative import of a core file leads, relative to core/. */
  async function importsOf(file: string): Promise<string[]> {
    const text = await Bun.file(join(root, file)).text();
    return [...text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)].map((m) => relative(root, resolve(dirname(join(root, file)), m[1] ?? "")));
  }

  test.each(files)("%s imports nothing from outside core/", async (file) => {
    expect((await importsOf(file)).filter((target) => target.startsWith(".."))).toEqual([]);
  });

  test.each(files.filter((f) => f.startsWith("session/")))("%s (session/) does not import handoff/", async (file) => {
    expect((await importsOf(file)).filter((target) => target.startsWith("handoff/"))).toEqual([]);
  });
});

describe("only the format table tells agents apart", () => {
  // A comparison with an agent's name outside core/session/formats/ is a format's knowledge leaking:
  // it belongs in the format's object (a capability), so a new agent stays a folder and one table line.
  const repo = join(import.meta.dir, "..");
  const sources = ["core", "cli"].flatMap((dir) => [...new Glob("**/*.ts").scanSync(join(repo, dir))].map((f) => `${dir}/${f}`));
  const checked = sources.filter((f) => !/\.test(ing)?\.ts$/.test(f) && !f.startsWith("core/session/formats/"));
  const NAME = `["'\`](?:pi|omp|claude-code|claude|codex)["'\`]`;
  const BRANCH = new RegExp(`(?:[!=]==?\\s*${NAME})|(?:${NAME}\\s*[!=]==?)|(?:case\\s+${NAME})`);

  test("finds the sources", () => {
    expect(checked.length).toBeGreaterThan(50);
  });

  test.each(checked)("%s compares nothing with an agent's name", async (file) => {
    const text = await Bun.file(join(repo, file)).text();
    expect(text.split("\n").filter((line) => BRANCH.test(line))).toEqual([]);
  });

  test("the rule catches what it is for", () => {
    for (const line of ['if (session.format === "omp")', "x !== 'pi'", 'case "codex":', '"claude-code" == name']) expect(BRANCH.test(line)).toBe(true);
    for (const line of ['const pi = 1;', 'label: "pi"', 'to = "pi"']) expect(BRANCH.test(line)).toBe(false);
  });
});
