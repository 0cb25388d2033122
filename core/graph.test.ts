import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describeCycle, findCycles, findLayerBreaks, importSpecifiers, readImportGraph, type LayerRule } from "../scripts/import-graph.ts";

// The graph says the design (ARCHITECTURE.md): no import cycle, type imports included; the
// session model stands below handoff/ and llm/, secrets/ below handoff/; core reaches nothing outside it; the offline
// engine is one room with one door (offline/index.ts), which the pipeline opens only when it runs.
const under = (folder: string) => (file: string) => file.startsWith(folder);
const RULES: readonly LayerRule[] = [
  { why: "core/session/ must not import core/handoff/", from: under("core/session/"), to: under("core/handoff/") },
  { why: "core/session/ must not import core/llm/", from: under("core/session/"), to: under("core/llm/") },
  {
    why: "core/secrets/ must not import core/handoff/ (handoff uses the guard, not the reverse)",
    from: under("core/secrets/"),
    to: under("core/handoff/"),
  },
  { why: "core/ must not import cli/", from: under("core/"), to: under("cli/") },
  { why: "core/ must not import fixtures/", from: under("core/"), to: under("fixtures/") },
  {
    why: "the offline engine is imported only through core/handoff/offline/index.ts",
    from: (file) => !file.startsWith("core/handoff/offline/"),
    to: (file) => file.startsWith("core/handoff/offline/") && file !== "core/handoff/offline/index.ts",
  },
];

const repo = join(import.meta.dir, "..");

describe("the import graph of cli/ and core/", () => {
  const graph = readImportGraph(repo, ["cli", "core"]);

  test("reads the tree (a glob that finds few files missed it)", () => {
    expect(graph.files.filter((f) => f.startsWith("core/")).length).toBeGreaterThan(150);
    expect([...graph.imports.values()].flat().length).toBeGreaterThan(500);
  });

  test("has no import cycle, type imports included", () => {
    expect(findCycles(graph).map((cycle) => describeCycle(graph, cycle))).toEqual([]);
  });

  test("keeps the layer rules", () => {
    expect(findLayerBreaks(graph, RULES)).toEqual([]);
  });

  test("the offline engine's door is opened only when it runs (a dynamic import, not a static one)", async () => {
    const importers = [...graph.imports].filter(([, to]) => to.includes("core/handoff/offline/index.ts")).map(([from]) => from);
    expect(importers).toEqual(["core/handoff/pipeline.ts"]);
    const pipeline = await Bun.file(join(repo, "core/handoff/pipeline.ts")).text();
    expect(pipeline).toContain('await import("./offline/index.ts")');
    expect(pipeline).not.toMatch(/^import [^;]*from "\.\/offline\//m);
  });
});

describe("the graph check catches what it is for", () => {
  const scratch = mkdtempSync(join(tmpdir(), "graph-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  function treeOf(name: string, files: Record<string, string>) {
    const root = join(scratch, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return readImportGraph(root, ["cli", "core"]);
  }

  // [case, files, the cycle as the test names it]
  const CYCLES: [string, Record<string, string>, string][] = [
    [
      "a cycle of type imports only",
      {
        "core/a.ts": 'import type { B } from "./b.ts";\nexport type A = B;',
        "core/b.ts": 'import type { A } from "./a.ts";\nexport type B = A;',
      },
      "core/a.ts -> core/b.ts -> core/a.ts",
    ],
    [
      "a cycle of three, through a folder's index and a re-export",
      {
        "core/a.ts": 'export { b } from "./x";',
        "core/x/index.ts": 'import { c } from "../c.ts";\nexport const b = c;',
        "core/c.ts": 'import type { b } from "./a.ts";\nexport const c = 1 as unknown as typeof b;',
      },
      "core/a.ts -> core/x/index.ts -> core/c.ts -> core/a.ts",
    ],
    [
      "a cycle through a dynamic import",
      { "core/a.ts": 'export const a = () => import("./b.ts");', "core/b.ts": 'import { a } from "./a.ts";\nexport const b = a;' },
      "core/a.ts -> core/b.ts -> core/a.ts",
    ],
  ];

  test.each(CYCLES)("names %s by its edges", (name, files, named) => {
    const graph = treeOf(name, files);
    expect(findCycles(graph).map((cycle) => describeCycle(graph, cycle))).toEqual([named]);
  });

  // [case, file, its text, the break as the test names it]
  const BREAKS: [string, string, string, string][] = [
    [
      "session/ importing a type from llm/",
      "core/session/x.ts",
      'import type { T } from "../llm/types.ts";\nexport type X = T;',
      "core/session/x.ts -> core/llm/types.ts: core/session/ must not import core/llm/",
    ],
    [
      "session/ importing handoff/",
      "core/session/formats/x.ts",
      'import { y } from "../../handoff/y.ts";\nexport const x = y;',
      "core/session/formats/x.ts -> core/handoff/y.ts: core/session/ must not import core/handoff/",
    ],
    [
      "core importing fixtures/",
      "core/x.ts",
      'import { f } from "../fixtures/f.ts";\nexport const x = f;',
      "core/x.ts -> fixtures/f.ts: core/ must not import fixtures/",
    ],
    [
      "core importing a type from cli/",
      "core/x.ts",
      'import type { L } from "../cli/l.ts";\nexport type X = L;',
      "core/x.ts -> cli/l.ts: core/ must not import cli/",
    ],
    [
      "a file of the offline engine imported from outside it",
      "core/handoff/pipeline.ts",
      'import { extractNotes } from "./offline/extract.ts";\nexport const x = extractNotes;',
      "core/handoff/pipeline.ts -> core/handoff/offline/extract.ts: the offline engine is imported only through core/handoff/offline/index.ts",
    ],
  ];

  test.each(BREAKS)("names %s", (name, path, text, named) => {
    expect(findLayerBreaks(treeOf(name, { [path]: text }), RULES)).toEqual([named]);
  });

  test("imports in comments and strings are not edges; every form of import is", () => {
    const source = [
      '// import { x } from "./comment.ts";',
      '/* export * from "./block.ts"; */',
      "const s = \"import { y } from './string.ts'\";",
      'import a, { b, type C } from "./one.ts";',
      'import type * as D from "./two.ts";',
      'import "./three.ts";',
      'export * from "./four.ts";',
      'export type { E } from "./five.ts";',
      'const m = await import("./six.ts");',
      "export const z = s;",
    ].join("\n");
    expect(importSpecifiers(source)).toEqual(["./one.ts", "./two.ts", "./three.ts", "./four.ts", "./five.ts", "./six.ts"]);
  });

  test("the offline engine's own files import one another freely", () => {
    const graph = treeOf("offline-inside", {
      "core/handoff/offline/index.ts": 'export { e } from "./extract.ts";',
      "core/handoff/offline/extract.ts": "export const e = 1;",
    });
    expect(findLayerBreaks(graph, RULES)).toEqual([]);
  });
});
