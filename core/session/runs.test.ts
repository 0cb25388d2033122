import { describe, expect, test } from "bun:test";
import { commandKey, describeOutcome, displayCommand, isCheckCommand, judgeRun, readExitCode, withoutOutputFilter } from "./runs.ts";

describe("exit 1 is a check's answer only when a check is the step whose status ends the line", () => {
  test.each([
    // The check is the whole line, or the last step: its "no".
    ["test -f x", false],
    ["[ -f package.json ]", false],
    ["[[ -d node_modules ]]", false],
    ['[ -z "$CI" ]', false],
    ["/usr/bin/test -f x", false],
    ["grep -rn TODO src", false],
    ["cd sub && grep -q x a.txt", false],
    ["npm run build; test -f dist/a.js", false],
    ["npm test || grep -q skip notes.txt", false],
    // Both steps a failure could stop at are checks: either answered no.
    ["[ -f a.txt ] && [ -f b.txt ]", false],
    // Negated checks: `!` turned a "yes" into exit 1, still an answer.
    ["! test -f yarn.lock", false],
    ["! grep -q TODO src/a.ts", false],
    // A grep at the end of a pipeline: the pipeline's status is grep's.
    ["cat log.txt | grep ERROR", false],
    ["npm ls 2>&1 | grep -q lodash", false],
    // With pipefail, any step of the pipe may have set the status: only checks make it an answer.
    ["set -o pipefail; cat log.txt | grep ERROR", true],
    // The status may be (or is) a program's, not the check's: a failure.
    ["test -f package.json && npm test", true],
    ["which node && node scripts/migrate.js", true],
    ["test -d dist || npm run build", true],
    ["grep -q x a || exit 1", true],
    ["grep ERROR log.txt | wc -l", true],
    ["! npm test", true],
    ["(test -f x)", true],
    // `find` exits 0 when it finds nothing: 1 means it could not search.
    ["find src -name '*.ts'", true],
    ["npm test", true],
  ])("%s exiting 1: failed is %p", (command, failed) => {
    expect(judgeRun(command, 1, "").failed).toBe(failed);
  });

  test("exit 2 of a check is a failure wherever it stands", () => {
    expect(judgeRun("[ -f a ] && [ -f b ]", 2, "").failed).toBe(true);
  });
});

describe("one definition of a failed run", () => {
  test.each([
    { name: "exit 0", command: "npm test", exitCode: 0, output: "12 passing", failed: false },
    { name: "a non-zero exit", command: "npm test", exitCode: 1, output: "1 failing", failed: true },
    { name: "a search that found nothing", command: "grep -rn TODO src", exitCode: 1, output: "", failed: false },
    { name: "a search that broke (exit 2)", command: "grep -rn x missing/", exitCode: 2, output: "No such file", failed: true },
    { name: "no exit code (cancelled, or no result)", command: "npm test", exitCode: null, output: "Command aborted", failed: false },
    {
      name: "a build piped to head whose output shows a TS error",
      command: "npm run build 2>&1 | head -30",
      exitCode: 0,
      output: "src/a.ts(7,25): error TS2345: Argument…",
      failed: true,
    },
    {
      name: "a check piped to grep for errors that found some",
      command: 'npm run check 2>&1 | grep -E "(error|warning)" | head',
      exitCode: 0,
      output: "x.ts(1,1): error TS2307: Cannot find module",
      failed: true,
    },
    {
      name: "the same pipe when the output is clean",
      command: "npm run build 2>&1 | head -30",
      exitCode: 0,
      output: "Build success in 38ms",
      failed: false,
    },
    {
      name: "a test run before ; whose output shows failures",
      command: "bun test; echo done",
      exitCode: 0,
      output: " 3 pass\n 2 fail\n✗ parses\ndone",
      failed: true,
    },
    {
      name: "npm errors behind a pipe",
      command: "npm run build | tail -5",
      exitCode: 0,
      output: "npm error Lifecycle script `build` failed",
      failed: true,
    },
    {
      name: "a pipe from a non-check that prints the word error",
      command: "cat log.txt | grep error",
      exitCode: 0,
      output: "error: disk full",
      failed: false,
    },
    {
      name: "a test run whose failure || true hid (bun's summary)",
      command: "npm test || true",
      exitCode: 0,
      output: " 3 pass\n 2 fail",
      failed: true,
    },
    {
      name: "a lint run whose failure || true hid",
      command: "npm run lint || true",
      exitCode: 0,
      output: "src/main.ts\n  3:1  error  Unexpected var  no-var\n\n✖ 1 problem (1 error, 0 warnings)",
      failed: true,
    },
    {
      name: "|| with another command that exits 0",
      command: 'npx tsc --noEmit || echo "type errors"',
      exitCode: 0,
      output: "src/a.ts(1,7): error TS2322: nope\ntype errors",
      failed: true,
    },
    { name: "a check after && || true", command: "npm run build && npm test || true", exitCode: 0, output: " 1 fail", failed: true },
    { name: "|| true when the check passed", command: "npm run lint || true", exitCode: 0, output: "✔ no problems", failed: false },
    {
      name: "&& passes a failure on: nothing hidden",
      command: "npm run build && echo built",
      exitCode: 0,
      output: "built (0 errors)",
      failed: false,
    },
    { name: "a check sent to the background", command: "npm test & sleep 5", exitCode: 0, output: " 1 fail", failed: true },
    { name: "a redirection is not a background &", command: "npm test 2>&1", exitCode: 0, output: " 0 fail\n 3 pass", failed: false },
    {
      name: "a check that is the last step keeps its status",
      command: "echo start; npm test",
      exitCode: 0,
      output: "start\n 3 pass",
      failed: false,
    },
    { name: "operators inside quotes are no operators", command: 'npm test -- -t "a || b"', exitCode: 0, output: " 1 fail", failed: false },
    { name: "'0 errors' is not a failure", command: "npx tsc 2>&1 | tail -1", exitCode: 0, output: "Found 0 errors.", failed: false },
  ])("$name", ({ command, exitCode, output, failed }) => {
    expect(judgeRun(command, exitCode, output)).toEqual({ exitCode, failed });
  });

  // One look per step, not one search to the end per check: 20,000 checks chained by && took 5 s, 100,000 minutes.
  test.each([
    ["100,000 checks chained by &&: nothing hidden", `${"npm test && ".repeat(100_000)}echo built`, false],
    ["100,000 checks chained by &&, then || true: hidden", `${"npm test && ".repeat(100_000)}echo built || true`, true],
    ["100,000 steps, the one check last: nothing hidden", `${"echo a && ".repeat(100_000)}npm test`, false],
    [
      "100,000 steps, a check among them, piped at the end: hidden",
      `${"echo a && ".repeat(50_000)}npm test && ${"echo a && ".repeat(50_000)}echo a | head`,
      true,
    ],
  ])("%s", (_, command, failed) => {
    expect(judgeRun(command, 0, " 1 fail")).toEqual({ exitCode: 0, failed });
  });

  // Every check word, in lines where the check's status is hidden or not, and lines of several steps with no check at all.
  test.each([
    ...[
      "test",
      "tests",
      "check",
      "typecheck",
      "lint",
      "build",
      "tsc",
      "tsgo",
      "vitest",
      "jest",
      "pytest",
      "mocha",
      "playwright",
      "make",
    ].map((word) => [`npm run ${word} | tail -5`, true] as const),
    ["cargo clippy 2>&1 | tail", true],
    ["cargo 'x' clippy; echo done", true],
    ["go vet ./... | head", true],
    ["go build ./cmd/x || true", true],
    ["bun TEST --watch=false & sleep 1", true],
    ["cat log.txt | grep error", false],
    ["ls -la; echo done", false],
    ["echo 'npm test' | wc -l", false],
    ["cat src/test.ts | head", false],
    ["git commit -m 'fix build' && git push | cat", false],
    ["cd build && ls | head", false],
    ["npm test && echo ok", false],
  ])("%p, exit 0 with errors in its output: failed %p", (command, failed) => {
    expect(judgeRun(command, 0, "error TS2304: Cannot find name")).toEqual({ exitCode: 0, failed });
  });

  test.each([
    ["no code", null],
    ["a non-zero code", 2],
    ["a check's exit 1, which alone would be its answer", 1],
  ])("a run the agent reported failed failed, with %s", (_why, exitCode) => {
    expect(judgeRun("grep -r TODO src", exitCode, "", true)).toEqual({ exitCode, failed: true });
  });

  test.each([
    [{ command: "npm test", exitCode: 0, failed: false }, "exit 0"],
    [{ command: "npm test", exitCode: 2, failed: true }, "exit 2, failed"],
    [{ command: "grep x", exitCode: 1, failed: false }, "exit 1, nothing found"],
    [{ command: "test -f notes/todo.txt", exitCode: 1, failed: false }, "exit 1, `notes/todo.txt` is not there (no such file)"],
    // Named from the folder the `cd` moved to (describeOutcome without a cwd keeps it absolute).
    [{ command: "cd /w/app && [ -d dist ]", exitCode: 1, failed: false }, "exit 1, `/w/app/dist` is not there (no such folder)"],
    [{ command: "npm run build | head", exitCode: 0, failed: true }, "failed (output shows errors; the pipe's status was 0)"],
    [{ command: "npm run lint || true", exitCode: 0, failed: true }, "failed (output shows errors; `|| true` hid its status)"],
    [{ command: "bun test; echo done", exitCode: 0, failed: true }, "failed (output shows errors; the status was the last command's, 0)"],
    [
      { command: "npm test & sleep 5", exitCode: 0, failed: true },
      "failed (output shows errors; it ran in the background; the status was 0)",
    ],
    [{ command: "npm test", exitCode: null, failed: false }, "no exit code recorded (cancelled, still running, or no result)"],
    // Claude Code reported a background run failed without stating its code.
    [{ command: "npm test", exitCode: null, failed: true }, "failed, no exit code recorded"],
  ])("describeOutcome(%j) is %p", (run, expected) => {
    expect(describeOutcome(run)).toBe(expected);
  });
});

describe("the exit code is the agent's own statement, never text inside the output", () => {
  test.each([
    { name: "pi's trailer on a failed result", output: "1 failing\n\nCommand exited with code 2", isError: true, code: 2 },
    { name: "pi's trailer after blank lines", output: "boom\n\nCommand exited with code 1\n\n", isError: true, code: 1 },
    { name: "a header on the first line", output: "Exit code: 3\nWall time: 0.4 seconds\nOutput:\nboom", isError: false, code: 3 },
    { name: "a trailer of another agent", output: "done\nexit code: -1", isError: true, code: -1 },
    // pi, omp and Claude Code write these lines only on a failed run: on a success they are the command's own output.
    { name: "a trailer printed by a successful run", output: "done\nexit code: -1", isError: false, code: 0 },
    { name: "Claude Code's opening line printed by a successful run (echo 'Exit code 5')", output: "Exit code 5", isError: false, code: 0 },
    { name: "Claude Code's opening line on a failed run", output: "Exit code 5\nboom", isError: true, code: 5 },
    {
      name: "a passing test named after exit codes",
      output: "✓ bad flag > exits with exit code 2 [12.00ms]\n\n 2 pass\n 0 fail",
      isError: false,
      code: 0,
    },
    {
      name: "the words inside a line of output",
      output: "process finished with exit code 1 (expected)\nall good",
      isError: false,
      code: 0,
    },
    { name: "a trailer that is not the last line", output: "Command exited with code 1\nretrying… ok", isError: false, code: 0 },
    { name: "an error result without a trailer", output: "Command aborted", isError: true, code: null },
    { name: "a success without a trailer", output: "all good", isError: false, code: 0 },
    { name: "a one-line trailer", output: "Command exited with code 7", isError: true, code: 7 },
    { name: "an empty result", output: "", isError: true, code: null },
  ])("$name", ({ output, isError, code }) => {
    expect(readExitCode(output, isError)).toBe(code);
  });
});

describe("commands in the document's vocabulary", () => {
  test.each([
    ["cd /w/app && npm test", "npm test"],
    ['cd "/w/app" && npm test', "npm test"],
    ["cd /w/app/pkg && npm test", "cd pkg && npm test"],
    ["grep -n x /w/app/src/a.ts", "grep -n x src/a.ts"],
    ["npm test", "npm test"],
  ])("displayCommand(%p) is %p", (command, expected) => {
    expect(displayCommand(command, "/w/app")).toBe(expected);
  });

  test.each([
    ["npm run build 2>&1 | head -30", "npm run build"],
    ['npm run check 2>&1 | grep -E "(error|warning)" | tail -5', "npm run check"],
    ["npm test", "npm test"],
    ['grep "a|b" src', 'grep "a|b" src'],
  ])("withoutOutputFilter(%p) is %p", (command, expected) => {
    expect(withoutOutputFilter(command)).toBe(expected);
  });

  test.each([
    ["npm publish --access public", "npm publish --access public --otp=492817", true],
    ['git commit -m "Release v0.8.0"', 'git add . && git commit -m "Release v0.8.0"', true],
    ["cd /w/app && npm run check 2>&1 | tail -10", 'npm run check 2>&1 | grep -E "(error|x)" | head', true],
    ["bun test test/a.test.ts", "bun test test/b.test.ts", false],
    ["npm run build", "npm run build -w pkg", false],
  ])("%p and %p are the same command: %p", (a, b, same) => {
    expect(commandKey(a, "/w/app") === commandKey(b, "/w/app")).toBe(same);
  });

  test.each([
    ["bun test test/parse.test.ts", true],
    ["npm run build -w pkg 2>&1 | head -30", true],
    ["npx playwright test e2e/checkout.spec.ts", true],
    ["cd pkg && npx tsc --noEmit", true],
    ["git rm -q test/timeoutPromise.test.ts", false],
    ['git commit -m "fix the build"', false],
    ["grep -rn test src", false],
    ["cat test/a.test.ts", false],
  ])("isCheckCommand(%p) is %p", (command, expected) => {
    expect(isCheckCommand(command)).toBe(expected);
  });
});
