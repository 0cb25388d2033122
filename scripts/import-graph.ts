import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { blankLiterals } from "./purity.ts";

/**
 * The import graph of a source tree as the design sees it: every relative import between its
 * production files, type-only imports included (they vanish at run time but still tie one module
 * to another). Specifiers are found in the code with comments and string contents blanked
 * (purity.ts's `blankLiterals`), then read back from the source at the same place, so an import
 * in a comment or a string is not an edge.
 */

export interface ImportEdge {
  /** Both relative to the root, with `/` separators. */
  readonly from: string;
  readonly to: string;
}

export interface ImportGraph {
  readonly files: readonly string[];
  /** Each file's imports (files in the tree only), in source order, each once. */
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

/** `import … from "x"`, `import "x"`, `import("x")`, `export … from "x"`, `import type …`: where the specifier's quote is. */
const IMPORT = /(?<![\w$.])(?:import|export)\s*(?:type\s+)?(?:[\w$\s{},*]*?\bfrom\s*)?\(?\s*(["'])/g;

/** The relative specifiers a file imports, in order. */
export function importSpecifiers(source: string): string[] {
  const code = blankLiterals(source);
  const specifiers: string[] = [];
  for (const match of code.matchAll(IMPORT)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    const close = source.indexOf(match[1] ?? '"', open + 1);
    if (close > open) specifiers.push(source.slice(open + 1, close));
  }
  return specifiers;
}

/** Production files only: tests and their helpers (`*.test.ts`, `*.testing.ts`) may reach anywhere. */
function isProduction(file: string): boolean {
  return !/\.(?:test|testing)\.[cm]?[jt]sx?$/.test(file);
}

/** The graph of `dirs` (folders under `root`) as paths relative to `root`. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const files = dirs
    .flatMap((dir) => [...new Glob(`${dir}/**/*.{ts,tsx,mts,cts}`).scanSync(root)])
    .filter(isProduction)
    .map((file) => file.split("\\").join("/"))
    .sort();
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const spec of importSpecifiers(readFileSync(join(root, file), "utf8"))) {
      if (!spec.startsWith(".")) continue;
      let target = relative(root, resolve(root, dirname(file), spec))
        .split("\\")
        .join("/");
      if (!/\.[cm]?[jt]sx?$/.test(target)) target = existsSync(join(root, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`;
      // Outside the tree (fixtures/, a test helper) the edge is kept too: layer rules may forbid it.
      if (!targets.includes(target)) targets.push(target);
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

/** Every cycle, as the files of each strongly connected component of more than one file (or a file importing itself), sorted. */
export function findCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.imports.get(v) ?? []) {
      if (!graph.imports.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.imports.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return cycles;
}

/** One cycle through a component, as edges: `a.ts -> b.ts -> a.ts`. */
export function describeCycle(graph: ImportGraph, component: readonly string[]): string {
  const inside = new Set(component);
  const start = component[0] ?? "";
  // Breadth-first from the start back to itself, inside the component: the shortest loop.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() ?? "";
    for (const w of graph.imports.get(v) ?? []) {
      if (!inside.has(w) || previous.has(w)) continue;
      previous.set(w, v);
      if (w === start) queue.length = 0;
      else queue.push(w);
    }
  }
  const loop = [start];
  for (let v = previous.get(start); v !== undefined && v !== start; v = previous.get(v)) loop.unshift(v);
  loop.unshift(start);
  return loop.join(" -> ");
}

/** A rule on edges: `from` files may not import `to` files, unless `allowed` says otherwise. */
export interface LayerRule {
  readonly why: string;
  readonly from: (file: string) => boolean;
  readonly to: (file: string) => boolean;
}

/** Every edge that breaks a rule, each named: `core/session/x.ts -> core/llm/y.ts: core/session/ must not import core/llm/`. */
export function findLayerBreaks(graph: ImportGraph, rules: readonly LayerRule[]): string[] {
  const breaks: string[] = [];
  for (const [from, targets] of graph.imports)
    for (const to of targets) for (const rule of rules) if (rule.from(from) && rule.to(to)) breaks.push(`${from} -> ${to}: ${rule.why}`);
  return breaks;
}
