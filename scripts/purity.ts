import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * The purity rule of core/ (STYLE.md) as a check on the import graph and on the globals a file
 * reads. It looks at what Bun would run, not at the text: imports come from Bun's own scanner
 * (which leaves out type-only imports, since they vanish at run time), and globals are looked for
 * in the transpiled code with its strings, comments and regular expressions blanked, so neither a
 * comment that mentions `process.env` nor an odd path spelling (`../../../cli/x.ts`) can fool it.
 */

export interface PurityViolation {
  /** The file, relative to the checked root (empty for a violation of the whole tree). */
  readonly file: string;
  readonly problem: string;
}

export interface PurityOptions {
  /** Fewer production files than this means the glob missed the tree (a renamed folder): a failure. */
  readonly minFiles: number;
  /** Folders (relative to the root, with a trailing slash) that must not import another. */
  readonly layers?: readonly { readonly from: string; readonly to: string }[];
}

export interface PurityResult {
  readonly files: readonly string[];
  readonly violations: readonly PurityViolation[];
}

/** Globals that reach the process, the runtime, the clock, chance or the network. */
const FORBIDDEN_GLOBALS: readonly { readonly pattern: RegExp; readonly name: string }[] = [
  ...["process", "Bun", "require", "performance", "fetch", "globalThis", "crypto", "setTimeout", "setInterval", "eval"].map((name) => ({
    // A free identifier: not a property (`x.fetch`, `x?.fetch`) and not part of a longer name.
    pattern: new RegExp(`(?<![\\w$])(?<!\\.\\s*)${name}(?![\\w$])`),
    name,
  })),
  { pattern: /(?<![\w$])(?<!\.\s*)Date\s*\.\s*now\b/, name: "Date.now" },
  { pattern: /(?<![\w$])(?<!\.\s*)Math\s*\.\s*random\b/, name: "Math.random" },
  // The clock read as a date: `new Date()` with no argument (a date from a value is pure).
  { pattern: /\bnew\s+Date\s*(?:\(\s*\)|(?![\s(]))/, name: "new Date()" },
  { pattern: /\bimport\s*\.\s*meta\b/, name: "import.meta" },
  // The clock or chance reached another way: `Date["now"]()`, `const { now } = Date`.
  { pattern: /(?<![\w$])(?<!\.\s*)(?:Date|Math)\s*\[/, name: "Date or Math by a computed name" },
  { pattern: /\}\s*=\s*(?:Date|Math)\b/, name: "Date or Math taken apart" },
  { pattern: /(?<![\w$.])Function\s*\(/, name: "Function (code from a string)" },
];

/** Checks every production file (tests, `*.test.ts` and the like, exempt) under `root`: any file Bun would run, not only `.ts`. */
export function checkPurity(root: string, options: PurityOptions): PurityResult {
  const files = [...new Glob("**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}").scanSync(root)]
    .filter((file) => !/\.test\.[cm]?[jt]sx?$/.test(file))
    .sort();
  const violations: PurityViolation[] = [];
  if (files.length < options.minFiles) {
    violations.push({
      file: "",
      problem: `found ${files.length} files under ${root}, fewer than the floor of ${options.minFiles}: did a folder move?`,
    });
  }
  const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };
  for (const file of files) {
    const source = readFileSync(join(root, file), "utf8");
    const transpiler = /x$/.test(file) ? transpilers.tsx : transpilers.ts;
    for (const problem of checkSource(transpiler, root, file, source, options.layers ?? [])) violations.push({ file, problem });
  }
  return { files, violations };
}

function checkSource(
  transpiler: Bun.Transpiler,
  root: string,
  file: string,
  source: string,
  layers: readonly { readonly from: string; readonly to: string }[],
): string[] {
  const problems: string[] = [];
  for (const { path, kind } of transpiler.scanImports(source)) {
    if (!path.startsWith(".") && !isAbsolute(path)) {
      problems.push(`${kind} of the package "${path}" (core imports only core/, or a type with \`import type\`)`);
      continue;
    }
    const target = relative(root, resolve(root, dirname(file), path));
    if (target.startsWith("..") || isAbsolute(target)) {
      problems.push(`${kind} of "${path}", outside core/`);
      continue;
    }
    for (const layer of layers) {
      if (file.startsWith(layer.from) && target.startsWith(layer.to))
        problems.push(`${kind} of "${path}": ${layer.from} must not import ${layer.to}`);
    }
  }
  const code = blankLiterals(transpiler.transformSync(source));
  for (const line of code.split("\n")) {
    for (const { pattern, name } of FORBIDDEN_GLOBALS) {
      if (pattern.test(line)) problems.push(`reads the global ${name}: ${line.trim().slice(0, 120)}`);
    }
  }
  return problems;
}

/**
 * Replaces the text of strings, template literals (keeping their `${…}` code), comments and
 * regular-expression literals with spaces, keeping line breaks, so only code is left to search.
 */
export function blankLiterals(code: string): string {
  let out = "";
  let i = 0;
  // The template literals we are inside, each with the brace depth of its current `${`.
  const templates: number[] = [];
  let braces = 0;
  let lastSignificant = "";
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (i < code.length) {
    const c = code[i] ?? "";
    const next = code[i + 1] ?? "";
    if (c === "/" && next === "/") {
      const end = code.indexOf("\n", i);
      const stop = end === -1 ? code.length : end;
      out += blank(code.slice(i, stop));
      i = stop;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = code.indexOf("*/", i + 2);
      const stop = end === -1 ? code.length : end + 2;
      out += blank(code.slice(i, stop));
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      const stop = endOfQuoted(code, i, c);
      out += c + blank(code.slice(i + 1, stop - 1)) + c;
      i = stop;
      lastSignificant = c;
      continue;
    }
    if (c === "`" || (c === "}" && templates.length > 0 && templates[templates.length - 1] === braces)) {
      if (c === "}") templates.pop();
      // Template text runs to the closing backtick or to the next `${`.
      let j = i + 1;
      while (j < code.length && code[j] !== "`" && !(code[j] === "$" && code[j + 1] === "{")) j += code[j] === "\\" ? 2 : 1;
      out += c + blank(code.slice(i + 1, j));
      if (code[j] === "$") {
        out += "${";
        templates.push(braces);
        i = j + 2;
      } else {
        out += "`";
        i = j + 1;
      }
      lastSignificant = "`";
      continue;
    }
    if (c === "/" && startsRegex(lastSignificant)) {
      const stop = endOfRegex(code, i);
      out += `/${blank(code.slice(i + 1, stop - 1))}/`;
      i = stop;
      lastSignificant = "/";
      continue;
    }
    if (c === "{") braces += 1;
    if (c === "}") braces -= 1;
    if (!/\s/.test(c)) lastSignificant = /[\w$]/.test(c) ? wordEndingAt(code, i) : c;
    out += c;
    i += 1;
  }
  return out;
}

function endOfQuoted(code: string, start: number, quote: string): number {
  let j = start + 1;
  while (j < code.length && code[j] !== quote && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
  return Math.min(j + 1, code.length);
}

function endOfRegex(code: string, start: number): number {
  let j = start + 1;
  let inClass = false;
  while (j < code.length && code[j] !== "\n") {
    const c = code[j];
    if (c === "\\") j += 1;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
    j += 1;
  }
  return Math.min(j + 1, code.length);
}

/** The word (identifier or number) that ends at index `i`. */
function wordEndingAt(code: string, i: number): string {
  let j = i;
  while (j + 1 < code.length && /[\w$]/.test(code[j + 1] ?? "")) j += 1;
  let k = i;
  while (k > 0 && /[\w$]/.test(code[k - 1] ?? "")) k -= 1;
  return code.slice(k, j + 1);
}

/** A `/` starts a regular expression unless it follows a value (a name, a number, `)` or `]`). */
function startsRegex(previous: string): boolean {
  if (previous === "") return true;
  if (/^[\w$]+$/.test(previous))
    return /^(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/.test(previous);
  return !/^[)\]}`"'/]$/.test(previous);
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "../core");
  const { files, violations } = checkPurity(root, { minFiles: 0 });
  for (const v of violations) console.error(`core/${v.file}: ${v.problem}`);
  console.error(`${files.length} files checked, ${violations.length} violations`);
  process.exitCode = violations.length > 0 ? 1 : 0;
}
