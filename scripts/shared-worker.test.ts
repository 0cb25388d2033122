/**
 * `bun run test` lets each worker keep one global and one module registry across the files it
 * runs (`--no-isolate`: a fresh global per file was about a third of the suite's CPU time). That
 * is sound only while no test changes what the files after it would see: the run's state lives in
 * its `Run` (cli/house.test.ts), and this file holds the tests to the same. A process-wide change a
 * test needs belongs in a process of its own (spawn it). A rule broken names the file and line.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REPO = join(import.meta.dir, "..");
const FOLDERS = ["bench", "cli", "compat", "core", "fixtures", "scripts"];

/** Fixtures that run as processes of their own (spawned by the tests), where the process is theirs to change. */
const OWN_PROCESSES = new Set([
  "fixtures/fake-agent.ts",
  "fixtures/signal-in-config.ts",
  "fixtures/throw-later.ts",
  "fixtures/hold-sqlite-lock.ts",
  "fixtures/offline/grade.ts",
]);

/** The files loaded into a test worker: the tests, their helpers (`*.testing.ts`) and the fixtures they import. */
const LOADED = FOLDERS.flatMap((folder) =>
  readdirSync(join(REPO, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => !name.includes("node_modules"))
    .map((name) => `${folder}/${name}`),
)
  .filter((path) => path.endsWith(".test.ts") || path.endsWith(".testing.ts") || (path.startsWith("fixtures/") && path.endsWith(".ts")))
  // This file's own examples of what is not allowed are strings, checked below.
  .filter((path) => !OWN_PROCESSES.has(path) && path !== "scripts/shared-worker.test.ts")
  .sort();

/** What a file must not do in a shared worker: each change outlives the file that made it. */
const RULES: [what: string, pattern: RegExp][] = [
  ["replaces a module for every later file (mock.module)", /\bmock\.module\s*\(/],
  [
    "changes the environment",
    /\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*(?:=(?!=)|\?\?=|\|\|=)|\bdelete\s+process\.env\b|Object\.assign\(\s*process\.env\b/,
  ],
  ["changes the working folder (process.chdir)", /\bprocess\.chdir\s*\(/],
  ["sets the exit code", /\bprocess\.exitCode\s*=(?!=)/],
  ["listens on the process (process.on)", /\bprocess\.(?:on|once|addListener|prependListener)\s*\(/],
  ["sets a global", /\bglobalThis\.\w+\s*=(?!=)/],
  ["fakes the clock (setSystemTime, fake timers)", /\bsetSystemTime\s*\(|\buseFakeTimers\s*\(/],
];

/** `text` with its comments blanked (line numbers kept), so a rule reads only code. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function breaches(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((path) =>
    withoutComments(readFileSync(join(REPO, path), "utf8"))
      .split("\n")
      .flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe("no test file changes what the files after it in the same worker see", () => {
  test("the rules read the files there are", () => {
    expect(LOADED).toContain("cli/house.test.ts");
    expect(LOADED).toContain("fixtures/run-agent.ts");
    expect(LOADED.length).toBeGreaterThan(200);
    for (const path of OWN_PROCESSES) expect(existsSync(join(REPO, path))).toBe(true);
  });

  test.each(RULES)("no file %s", (_what, pattern) => {
    expect(breaches(LOADED, pattern)).toEqual([]);
  });

  test.each([
    ["mock.module", 'mock.module("openai", () => ({}));'],
    ["an environment variable set", "process.env.OPENAI_API_KEY = 'sk';"],
    ["an environment variable set by index", 'process.env["HOME"] = "/tmp";'],
    ["an environment variable removed", "delete process.env.HOME;"],
    ["the environment merged", "Object.assign(process.env, { A: '1' });"],
    ["a chdir", "process.chdir('/tmp');"],
    ["an exit code", "process.exitCode = 1;"],
    ["a listener", "process.on('SIGINT', () => {});"],
    ["a global", "globalThis.fetch = fake;"],
    ["a fake clock", "setSystemTime(new Date(0));"],
  ])("the rules see %s", (_name, line) => {
    expect(RULES.some(([, pattern]) => pattern.test(line))).toBe(true);
  });

  test.each([
    ["a comparison", "if (process.env.HOME === '/x') {}"],
    ["a read", "const home = process.env.HOME ?? '/';"],
    ["an environment passed to a child", "Bun.spawn(cmd, { env: { ...env, HOME: home } });"],
  ])("and not %s", (_name, line) => {
    expect(RULES.some(([, pattern]) => pattern.test(line))).toBe(false);
  });
});
