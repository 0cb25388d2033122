import { describe, expect, test } from "bun:test";
import { describeNoAnswer } from "./answers.ts";
import { answeredNo, describeOutcome } from "./runs.ts";

describe("what a check answered when it said no (exit 1)", () => {
  test.each([
    ["test -f notes/todo.txt", "`notes/todo.txt` is not there (no such file)"],
    ["test -e build/out.js", "`build/out.js` is not there"],
    ["[ -d dist ]", "`dist` is not there (no such folder)"],
    ["[[ -s log.txt ]]", "`log.txt` is missing or empty"],
    ["test -x bin/run", "`bin/run` is not executable, or not there"],
    ["cd /w/app && test -f 'a b.txt'", "`/w/app/a b.txt` is not there (no such file)"],
    ["cd sub && [ -f a.txt ]", "`sub/a.txt` is not there (no such file)"],
    ["[ -f a.txt ] && [ -f b.txt ]", "`a.txt` is not there (no such file), or `b.txt` is not there (no such file)"],
    ["! test -f yarn.lock", "`yarn.lock` is there (a file)"],
    ["! [ -d dist ]", "`dist` is there (a folder)"],
    ["! grep -q TODO src/a.ts", "found"],
    ["! diff a b", "the files are the same"],
    ["cat log.txt | grep ERROR", "nothing found"],
    ["npm run build; which pnpm", "`pnpm` is not on the PATH"],
    ["/usr/bin/test -L current", "`current` is not there (no such link)"],
    ["test ! -f lock", "the test was false"],
    ["test -f a -a -f b", "the test was false"],
    ['test "$X" = yes', "the test was false"],
    ["grep -rn TODO src", "nothing found"],
    ["rg foo", "nothing found"],
    ["diff a.txt b.txt", "the files differ"],
    ["cmp -s a b", "the files differ"],
    ["which pnpm", "`pnpm` is not on the PATH"],
    ["pgrep -f vite", "no such process"],
  ])("%s → %s", (command, answer) => {
    expect(describeNoAnswer(command)).toBe(answer);
  });

  test("the path is shown in the one form, relative to the working directory", () => {
    expect(describeOutcome({ command: "test -f /w/app/notes/todo.txt", exitCode: 1, failed: false }, "/w/app")).toBe(
      "exit 1, `notes/todo.txt` is not there (no such file)",
    );
  });

  test.each([
    ["cd /work/other && test -f config.yml", "/work/app", "`/work/other/config.yml` is not there (no such file)"],
    ["cd src && test -f a.ts", "/work/app", "`src/a.ts` is not there (no such file)"],
    ["cd /work/app/src && test -f a.ts", "/work/app", "`src/a.ts` is not there (no such file)"],
    ["cd .. && test -f app/a.ts", "/work/app", "`a.ts` is not there (no such file)"],
    ["cd - && test -f a.ts", "/work/app", "`$OLDPWD/a.ts` is not there (no such file)"],
    ['cd "$DIR" && [ -d out ]', "/work/app", "`$DIR/out` is not there (no such folder)"],
  ])("a check after a cd names its path from that folder: %s (cwd %s)", (command, cwd, answer) => {
    expect(describeNoAnswer(command, cwd)).toBe(answer);
  });

  test.each([
    [{ command: "test -f a", exitCode: 1, failed: false }, true],
    [{ command: "grep x a", exitCode: 1, failed: false }, true],
    [{ command: "grep x a", exitCode: 2, failed: true }, false],
    [{ command: "test -f a", exitCode: 0, failed: false }, false],
    [{ command: "npm test", exitCode: 1, failed: true }, false],
    [{ command: "test -f a", exitCode: null, failed: false }, false],
  ])("answeredNo(%j) is %p", (run, expected) => {
    expect(answeredNo(run)).toBe(expected);
  });
});

describe("a test operator named like an object's property asks nothing of a path", () => {
  test.each(Object.getOwnPropertyNames(Object.prototype))("%s", (name) => {
    expect(describeNoAnswer(`test ${name} x`)).toBe("the test was false");
    expect(describeNoAnswer(`! test ${name} x`)).toBe("the test was true");
  });
});
