import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";

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

  test("session/ does not import handoff/", async () => {
    for (const file of files.filter((f) => f.startsWith("session/"))) {
      const text = await Bun.file(join(root, file)).text();
      expect(text).not.toMatch(/from\s+["']\.\.\/handoff\//);
    }
  });
});
