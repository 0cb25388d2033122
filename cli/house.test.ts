/**
 * The rules that let the CLI run twice in one process (the tests run it in-process, see
 * fixtures/run-agent.ts), held by reading the source: everything a run needs lives in its `Run`
 * (cli/run.ts), and only the host (cli/process/host.ts) and the entry point (cli/index.ts) touch the
 * process. A rule broken names the file and line.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const CLI = import.meta.dir;

const isProduction = (name: string) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".testing.ts");

/** The production files of cli/, in its folders too, as paths under cli/: not the tests, not their helpers (`*.testing.ts`). */
const PRODUCTION = readdirSync(CLI, { recursive: true, encoding: "utf8" }).filter(isProduction).sort();

/** The folders of cli/ and what each holds; docs/development.md says the same in words. */
const FOLDERS = ["agents", "commands", "flags", "io", "model", "output", "process", "scenarios", "sessions"];

/**
 * The modules that are the process, the only ones that may touch `process`; and builtins.ts, whose
 * one use of it loads a built-in module (process.getBuiltinModule) and reads no state of the process.
 */
const PROCESS_MODULES = new Set(["process/host.ts", "index.ts", "io/builtins.ts"]);

/**
 * Module-level objects that are changed after load, known and left: read counters the glance
 * tests take differences of (cli/sessions/glance-bounds.test.ts), which no run's output depends on.
 */
const KNOWN_COUNTERS = new Set(["sessions/glance-read.ts:glanceReads"]);

/** `text` with its comments blanked (line numbers kept), so a rule reads only code. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every line of the production files matching `pattern`, as `file:line: text`. */
function findLines(pattern: RegExp, files: readonly string[] = PRODUCTION): string[] {
  return files.flatMap((name) =>
    withoutComments(readFileSync(join(CLI, name), "utf8"))
      .split("\n")
      .flatMap((line, i) => (pattern.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/**
 * What each folder of cli/ may import besides core/ and the run's own module (cli/run.ts); the map
 * of the house in docs/development.md says why. A new edge is a decision: make it here, in the open.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  commands: ["agents", "flags", "io", "model", "output", "sessions"],
  agents: ["flags", "io", "model", "output", "sessions"],
  sessions: ["flags", "io", "output", "process"],
  flags: ["io", "model", "output", "process", "sessions"],
  model: ["io", "output"],
  io: ["output", "process", "sessions"],
  output: ["flags", "io", "process"],
  process: [],
  scenarios: [],
};

/** Every import of a production file in a folder of cli/ that reaches another folder it may not. */
function folderBreaks(): string[] {
  return PRODUCTION.filter((name) => name.includes("/")).flatMap((name) => {
    const from = name.split("/")[0] ?? "";
    const text = withoutComments(readFileSync(join(CLI, name), "utf8"));
    return [...text.matchAll(/(?:from\s+|import\()"(\.{1,2}\/[^"]+)"/g)].flatMap(([, spec = ""]) => {
      const target = normalize(join(dirname(name), spec));
      if (target.startsWith("..") || target === "run.ts") return []; // core/ (or above), the run
      const to = target.includes("/") ? (target.split("/")[0] ?? "") : ".";
      return to === from || MAY_IMPORT[from]?.includes(to) ? [] : [`${name} -> cli/${target}`];
    });
  });
}

describe("the house: no state of a run outside its Run, no process outside the host", () => {
  test("the rules read the files there are", () => {
    expect(PRODUCTION).toContain("run.ts");
    expect(PRODUCTION).toContain("process/host.ts");
    expect(PRODUCTION.length).toBeGreaterThan(40);
  });

  test("each folder imports only the folders it may (and no folder imports cli/'s top but the run)", () => {
    expect(folderBreaks()).toEqual([]);
  });

  test("cli/ is folders by concern: at most 12 files at its top, every other file in a known folder", () => {
    const top = readdirSync(CLI, { withFileTypes: true });
    expect(top.filter((entry) => entry.isFile() && isProduction(entry.name)).length).toBeLessThanOrEqual(12);
    expect(
      top
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(FOLDERS);
  });

  test.each<[string, RegExp]>([
    ["a module-level let or var", /^(?:export )?(?:let|var)\s/],
    // A collection typed Readonly… is a table, not state.
    [
      "a module-level mutable collection (Set, Map, an AbortController)",
      /^(?:export )?const \w+(?::(?!\s*Readonly)[^=]+)? = new (?:Set|Map|WeakMap|WeakSet|AbortController)\b/,
    ],
    ["a module-level array filled later", /^(?:export )?const [a-z]\w*: [^=]*\[\] = \[\];/],
  ])("no production file of cli/ holds %s", (_, pattern) => {
    expect(findLines(pattern)).toEqual([]);
  });

  test("no module-level object is changed after load, but the known counters", () => {
    const objects = findLines(/^(?:export )?const [a-z]\w* = \{/).map((line) => {
      const [file = ""] = line.split(":");
      return `${file}:${/const (\w+)/.exec(line)?.[1] ?? ""}`;
    });
    const changed = objects.filter((entry) => {
      const [file = "", name = ""] = entry.split(":");
      return new RegExp(String.raw`\b${name}\.\w+\s*(?:\+\+|--|[-+*/]?=(?!=))`).test(
        withoutComments(readFileSync(join(CLI, file), "utf8")),
      );
    });
    expect(changed.filter((entry) => !KNOWN_COUNTERS.has(entry))).toEqual([]);
  });

  test("only the host and the entry point touch the process (env, cwd, argv, streams, exit, signals)", () => {
    const files = PRODUCTION.filter((name) => !PROCESS_MODULES.has(name));
    expect(findLines(/(?<![\w$.-])process\.[A-Za-z]/, files)).toEqual([]);
    expect(findLines(/\bBun\.(?:env|argv|stdin|stdout|stderr)\b|\bimport\.meta\.env\b/, files)).toEqual([]);
  });

  test("HOME and TMPDIR come from the run's environment, not the process's (no homedir() or tmpdir())", () => {
    expect(findLines(/\b(?:homedir|tmpdir)\s*\(/)).toEqual([]);
    expect(findLines(/import\s*\{[^}]*\b(?:homedir|tmpdir)\b[^}]*\}\s*from\s*"node:os"/)).toEqual([]);
  });

  test("a child process gets the run's environment, and a program is looked up on the run's PATH", () => {
    // Each spawn names its env; Bun.which is given a PATH (alone it reads the process's).
    expect(findLines(/(?:\bBun\.spawn(?:Sync)?|(?<![.\w])(?:spawn|spawnSync|execFile|execFileSync))\((?![^)]*\benv\b)/)).toEqual([]);
    expect(findLines(/\bBun\.which\([^,)]*\)/)).toEqual([]);
  });

  test("the rules catch what they forbid", () => {
    // A rule that cannot fail is no rule: each pattern, on a line that breaks it.
    expect(/^(?:export )?(?:let|var)\s/.test("let running = 0;")).toBe(true);
    expect(/(?<![\w$.-])process\.[A-Za-z]/.test("const cwd = process.cwd();")).toBe(true);
    expect(/\b(?:homedir|tmpdir)\s*\(/.test("join(homedir(), '.cache')")).toBe(true);
    expect(/\bBun\.which\([^,)]*\)/.test("Bun.which(name)")).toBe(true);
    expect(withoutComments("const a = 1; // process.exit()\n/* process.env */ let")).not.toContain("process");
  });
});
