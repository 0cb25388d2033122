import { afterAll, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkPurity } from "../scripts/purity.ts";

// core/ must stay pure (see STYLE.md): no files, no process, no network, no clock, no CLI
// libraries, and session/ stands apart from handoff/. The check reads the import graph as Bun sees
// it and the globals in the transpiled code; scripts/purity.ts says how. Type imports and cycles:
// core/graph.test.ts.
const LAYERS = [
  { from: "session/", to: "handoff/" },
  { from: "session/", to: "llm/" },
];
// Near today's count (122): a glob that finds far fewer files missed the tree.
const CORE_FILE_FLOOR = 110;

describe("purity", () => {
  test("every production file under core/ stays inside core/ and reaches for no effects", () => {
    const { files, violations } = checkPurity(import.meta.dir, { minFiles: CORE_FILE_FLOOR, layers: LAYERS });
    expect(files.length).toBeGreaterThanOrEqual(CORE_FILE_FLOOR);
    expect(violations.map((v) => `${v.file}: ${v.problem}`)).toEqual([]);
  });

  const scratch = mkdtempSync(join(tmpdir(), "purity-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Writes one file into a fresh scratch core/ and checks that tree. */
  function problemsOf(name: string, path: string, text: string): string[] {
    const root = join(scratch, name, "core");
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    return checkPurity(root, { minFiles: 1, layers: LAYERS }).violations.map((v) => v.problem);
  }

  // [case, file under core/, its text, a word the violation must name]
  const CAUGHT: [string, string, string, string][] = [
    ["an import one level out", "x.ts", 'import { logger } from "../cli/output/stderr.ts";\nlogger.info("hi");', "outside core/"],
    [
      "an import three levels out",
      "a/b/x.ts",
      'import { logger } from "../../../cli/output/report.ts";\nlogger.info("hi");',
      "outside core/",
    ],
    ["a re-export from outside", "a/x.ts", 'export { logger } from "../../cli/output/report.ts";', "outside core/"],
    ["a dynamic import from outside", "x.ts", 'export const m = await import("../cli/output/stderr.ts");', "outside core/"],
    ["the bun package", "x.ts", 'import { Glob } from "bun";\nexport const g = new Glob("*");', '"bun"'],
    ["node:crypto", "x.ts", 'import { randomUUID } from "node:crypto";\nexport const id = randomUUID();', '"node:crypto"'],
    ["an npm package", "x.ts", 'import { consola } from "consola";\nconsola.info("x");', '"consola"'],
    ["a side-effect import", "x.ts", 'import "node:fs";', '"node:fs"'],
    ["require", "x.ts", 'export const fs = require("fs");', '"fs"'],
    ["performance.now()", "x.ts", "export const t = performance.now();", "performance"],
    ["Date.now()", "x.ts", "export const t = Date.now();", "Date.now"],
    ["new Date()", "x.ts", "export const t = new Date().toISOString();", "new Date()"],
    ["Math.random()", "x.ts", "export const r = Math.random();", "Math.random"],
    ["fetch", "x.ts", 'export const r = await fetch("http://example.com");', "fetch"],
    ["process.env", "x.ts", "export const key = process.env.OPENAI_API_KEY;", "process"],
    ["Bun.file", "x.ts", 'export const f = Bun.file("x");', "Bun"],
    ["globalThis", "x.ts", 'export const p = globalThis["process"];', "globalThis"],
    ["crypto.randomUUID", "x.ts", "export const id = crypto.randomUUID();", "crypto"],
    ["a timer", "x.ts", "setTimeout(() => {}, 10);", "setTimeout"],
    ["Date by a computed name", "x.ts", 'export const t = Date["now"]();', "Date or Math"],
    ["Math taken apart", "x.ts", "const { random } = Math;\nexport const r = random();", "Date or Math"],
    ["eval", "x.ts", 'export const p = eval("proc" + "ess");', "eval"],
    ["the Function constructor", "x.ts", 'export const p = Function("return this")();', "Function"],
    ["code after a string with a quote in it", "x.ts", 'export const q = "\\""; export const k = process.env.K;', "process"],
    ["code after a regex with a quote in it", "x.ts", "export const r = /[\"']/; export const k = process.env.K;", "process"],
    ["code inside a template literal", "x.ts", "export const s = `${process.env.HOME}/x`;", "process"],
    ["a JavaScript file", "x.mjs", "export const k = process.env.K;", "process"],
    ["a TSX file", "x.tsx", 'import { readFileSync } from "node:fs";\nexport const f = readFileSync;', '"node:fs"'],
    ["session/ importing handoff/", "session/x.ts", 'import { y } from "../handoff/y.ts";\nexport const x = y;', "handoff/"],
  ];

  test.each(CAUGHT)("catches %s", (name, path, text, word) => {
    const problems = problemsOf(name, path, text);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join("\n")).toContain(word);
  });

  const ALLOWED: [string, string, string][] = [
    ["a type import from outside", "x.ts", 'import type { Logger } from "../cli/output/stderr.ts";\nexport type L = Logger;'],
    ["an inline type import of a package", "x.ts", 'import { type Server } from "bun";\nexport type S = Server;'],
    ["a type re-export from outside", "x.ts", 'export type { Logger } from "../cli/output/stderr.ts";'],
    ["an import inside core/", "a/b/x.ts", 'import { y } from "../../y.ts";\nexport const x = y;'],
    [
      "names in comments and strings",
      "x.ts",
      '// process.env, Date.now(), fetch\nexport const s = "Bun.file performance.now()";\n/* require("fs") */',
    ],
    [
      "properties with forbidden names",
      "x.ts",
      "export const f = (deps: { fetch(): void; now(): number }) => { deps.fetch(); return deps?.now(); };",
    ],
    ["a date from a value", "x.ts", "export const d = new Date(0).toISOString();"],
    ["pure Date and Math", "x.ts", "export const v = [Date.UTC(2026, 0, 1), Math.max(1, 2), new Date(0) instanceof Date];"],
    ["template text", "x.ts", "export const s = `process.env ${1 + 1} Date.now()`;"],
  ];

  test.each(ALLOWED)("allows %s", (name, path, text) => {
    expect(problemsOf(name, path, text)).toEqual([]);
  });

  test("fails when the glob finds fewer files than the floor", () => {
    const root = join(scratch, "floor", "core");
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "only.ts"), "export const x = 1;\n");
    writeFileSync(join(root, "only.test.ts"), "export const y = 1;\n");
    const { files, violations } = checkPurity(root, { minFiles: 2 });
    expect(files).toEqual(["only.ts"]);
    expect(violations.map((v) => v.problem)).toEqual([expect.stringContaining("fewer than the floor of 2")]);
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
    for (const line of ['if (session.format === "omp")', "x !== 'pi'", 'case "codex":', '"claude-code" == name'])
      expect(BRANCH.test(line)).toBe(true);
    for (const line of ["const pi = 1;", 'label: "pi"', 'to = "pi"']) expect(BRANCH.test(line)).toBe(false);
  });
});
