import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  describeCase,
  findChanges,
  FUZZ_COMMANDS,
  fuzzCli,
  judgeRun,
  runCliInProcess,
  type CliRun,
} from "../../fixtures/fuzz-cli-check.ts";
import { createMutators, loadSeeds } from "../../fixtures/mutate.ts";

// A small, fixed sample of what bench/fuzz-cli.ts runs by the hundred.
const SEED = 20261130;
const RUNS = 20; // one file per mutator: the sample must meet each

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-fuzz-cli-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("mutated sessions through the CLI", () => {
  test(`${RUNS} files × inspect and two handoff dry runs: documented exits, no stack trace, nothing written`, async () => {
    const results = await fuzzCli({ seed: SEED, runs: RUNS, dir, parallel: 2, run: runCliInProcess });
    const failures = results.filter((r) => r.problems.length > 0).map((r) => `${describeCase(r.case)}: ${r.problems.join("; ")}`);
    expect(failures).toEqual([]);

    expect(results).toHaveLength(RUNS);
    // Every mutator is in the sample, and every command both accepted and refused some files.
    expect(new Set(results.map((r) => r.case.mutator)).size).toBe(Object.keys(createMutators(loadSeeds())).length);
    for (const { label } of FUZZ_COMMANDS) {
      const exits = new Set(results.map((r) => r.exits[label]));
      expect([label, exits.has(0), exits.has(2)]).toEqual([label, true, true]);
    }
  }, 60_000);
});

describe("the checks catch what they claim to", () => {
  const ok: CliRun = { code: 0, stdout: "# Handoff\n", stderr: "dry run: nothing sent\n", timedOut: false };

  test.each<[string, Partial<CliRun>, string]>([
    ["an exit outside the documented set", { code: 1, stdout: "" }, "exit 1"],
    ["a stack trace", { code: 2, stdout: "", stderr: "error: boom\n    at parse (core/session/parse.ts:1:1)\n" }, "stack trace"],
    [
      "an internal error without a trace",
      { code: 2, stdout: "", stderr: "error: unexpected internal error (please report it): x\n" },
      "unexpected internal error",
    ],
    ["output on stdout after a refusal", { code: 2 }, "on stdout"],
    ["a hang", { code: 143, stdout: "", timedOut: true }, "timed out"],
    [
      "an escape sequence on stderr",
      { stderr: 'warning: unknown entry type "x\x1b]0;pwned\x07"\n' },
      "raw control character U+001b on stderr",
    ],
    ["a C1 control on stderr", { stderr: "warning: \u009b2J\n" }, "raw control character U+009b on stderr"],
    ["a bidi override on stderr", { stderr: "error: \u202eevil\n" }, "raw control character U+202e on stderr"],
    ["a carriage return on stderr", { stderr: "error: x\rall good\n" }, "raw control character U+000d on stderr"],
  ])("%s is a problem", (_name, change, problem) => {
    expect(judgeRun({ ...ok, ...change }).join("\n")).toContain(problem);
  });

  test("a raw control character in JSON on stdout is a problem; in a document it is the product", () => {
    const run = { ...ok, stdout: '{"a":"\u009b"}\n' };
    expect(judgeRun(run, { jsonOut: true }).join("\n")).toContain("raw control character U+009b in the JSON on stdout");
    expect(judgeRun(run)).toEqual([]);
  });

  test("clean runs are not problems", () => {
    expect(judgeRun(ok)).toEqual([]);
    expect(judgeRun({ code: 3, stdout: "", stderr: "warning: Nothing to hand off (no messages yet)\n", timedOut: false })).toEqual([]);
  });

  test("a new file, a changed input and a missing input are all found", () => {
    const expected = new Map([
      ["a.jsonl", new Uint8Array([1, 2])],
      ["b.jsonl", new Uint8Array([3])],
      ["c.jsonl", new Uint8Array([4])],
    ]);
    writeFileSync(join(dir, "a.jsonl"), new Uint8Array([1, 2]));
    expect(findChanges(dir, expected)).toEqual(["b.jsonl is gone", "c.jsonl is gone"]);
    writeFileSync(join(dir, "b.jsonl"), new Uint8Array([3, 0]));
    writeFileSync(join(dir, "c.jsonl"), new Uint8Array([4]));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "new.jsonl"), "");
    expect(findChanges(dir, expected).sort()).toEqual(["b.jsonl changed", "new file sub", `new file ${join("sub", "new.jsonl")}`]);
  });
});
