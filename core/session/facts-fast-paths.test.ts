import { describe, expect, test } from "bun:test";
import { changesHappened, changesHappenedIn, isSearchCommand, judgeRun, mayShowErrors, outputShowsHiddenFailure } from "./runs.ts";
import { shellFileEvents } from "./shell-changes.ts";
import { shellWords, splitSteps } from "./shell-line.ts";
import { readsOfStep, readsOfWords } from "./shell-reads.ts";
import { readToolResult } from "./tool-output.ts";
import { CLAUDE_CODE_FRAMING, CODEX_FRAMING, readStatement } from "./tool-statements.ts";
import { classifyToolCall } from "./tools.ts";

// Session Facts read every command and output of a session, cold: these cheap first looks skip
// the full reading where it would find nothing. Each must answer as the full reading does.

/** The prefixes shell-changes.ts takes off before the program. */
const PREFIX = /^(?:sudo|command|builtin|env|time|nice|nohup|\w+=.*)$/;

/** Steps with and without readers, quotes, backslashes and redirections (which `readCommand` reads apart from the words). */
const STEPS: readonly string[] = [
  "cat a.txt",
  "head -20",
  "tail -n 5 log.txt",
  "sed -n '1,20p' src/a.ts",
  "sed -i 's/a/b/' src/a.ts",
  "sed -n 1,5p -i.bak x",
  "grep -n foo src/a.ts",
  "npm run build 2>&1",
  "cat < in.txt",
  "cat<in.txt",
  "< in.txt cat",
  "2>/dev/null cat a.txt",
  ">out.txt cat a.txt",
  "cat a.txt > out.txt",
  "cat a.txt >&2",
  "c\\at a.txt",
  "'cat' a.txt",
  '"cat" a.txt',
  'c"a"t a.txt',
  "ca't' a.txt",
  'cat "a b.txt"',
  'cat "a \\"b\\".txt"',
  "sudo cat /etc/hosts",
  "FOO=1 head -3 f",
  "env time nl -ba f",
  "less +G f",
  "bat --style plain f",
  "batcat f",
  "tac -s x f",
  "more f",
  "wc -l < f",
  "echo cat > x",
  "echo hi &>log",
  "x=cat",
  "cat",
  "",
  "   ",
  "constructor f",
  "toString f",
  "catalog f",
  "nl",
  "cat -- -f",
  "cat - f",
];

describe("a step's reads, off the words already split (readsOfWords) or read again (readsOfStep)", () => {
  test.each(STEPS.map((step) => [step]))("%j", (step) => {
    const words = shellWords(step);
    while (words[0] !== undefined && PREFIX.test(words[0])) words.shift();
    expect(readsOfWords(step, words, PREFIX)).toEqual(readsOfStep(step, PREFIX));
  });
});

describe("shellWords: a step without quotes is cut at its blanks as a quoted one is read", () => {
  const blanks = [" ", "  ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", " \t\n "];
  const steps = blanks.flatMap((blank) => [`a${blank}b`, `${blank}a${blank}b${blank}`, `${blank}`, `${blank}${blank}a`, `a${blank}`]);
  test.each(steps.map((step) => [step]))("%j", (step) => {
    // The same words with a quote that changes nothing (`''` is no word, and glued to a word adds nothing) go the long way.
    const quoted = shellWords(`${step} ''`).filter((word) => word !== "");
    expect(shellWords(step)).toEqual(quoted);
  });
  test.each([
    ["", []],
    ["a", ["a"]],
    [" a  b ", ["a", "b"]],
    ["a\tb\nc", ["a", "b", "c"]],
  ] as const)("%j → %j", (step, words) => {
    expect(shellWords(step)).toEqual([...words]);
  });
});

/** Outputs each of whose lines `ERROR_IN_OUTPUT` reads as an error, in every case the pattern takes, and some it does not. */
const ERROR_OUTPUTS: readonly string[] = [
  "3 fail",
  " 12 FAIL",
  "src/a.ts(3,4): error TS2322: no",
  "ERROR TS1005: x",
  "npm ERR! code 1",
  "NPM error x",
  "FAIL src/a.test.ts",
  "failed",
  "2 failing",
  "1 Errors",
  "error: could not compile",
  "Error[E0432]: x",
  "✗ a test",
  "✘ a test",
  "✕ a test",
  "× a test",
  "src/a.go:1:2: error x",
  "ok\nsrc/a.go:1:2: ERROR x",
];
const QUIET_OUTPUTS: readonly string[] = ["", "ok", "all good\n12 passed", "Done in 3s", "ı ſ K"];

describe("an output that may name errors (mayShowErrors) is never one the pattern would find errors in and the cheap look not", () => {
  test.each(ERROR_OUTPUTS.map((output) => [output]))("%j names errors", (output) => {
    expect(mayShowErrors(output)).toBe(true);
    expect(outputShowsHiddenFailure("npm test | tail -5", output)).toBe(true);
  });
  test.each(QUIET_OUTPUTS.map((output) => [output]))("%j names none", (output) => {
    expect(mayShowErrors(output)).toBe(false);
    expect(outputShowsHiddenFailure("npm test | tail -5", output)).toBe(false);
  });
});

describe("changesHappenedIn a judged run is changesHappened of it", () => {
  const commands = ["grep -q x f", "grep x f > out", "diff -u a b > x.patch", "npm test", "test -f a && npm test", "cat a"];
  const codes = [0, 1, 2, 127, null];
  const outputs = ["", "1 failed"];
  const cases = commands.flatMap((command) =>
    codes.flatMap((code) => outputs.flatMap((output) => [true, false].map((reported) => [command, code, output, reported] as const))),
  );
  test.each(cases)("%j exit %p output %j reported failed %p", (command, code, output, reported) => {
    const verdict = judgeRun(command, code, output, reported);
    expect(changesHappenedIn(verdict)).toBe(changesHappened({ command, ...verdict }));
  });
});

describe("the steps a mask is looked for in: one without a check word is no check", () => {
  test.each([
    ["cd app && npm test 2>&1 | tail -3", "1 failed"],
    ["echo a; npm run build | head", "error TS2322"],
    ["git status; make; echo done", "3 errors"],
    ["ls | grep x; cargo   clippy | tail", "error: x"],
    ["go  vet ./... || true", "error: x"],
  ] as const)("%j hid a failure", (command, output) => {
    expect(splitSteps(command).length).toBeGreaterThan(1);
    expect(outputShowsHiddenFailure(command, output)).toBe(true);
  });
});

/**
 * The characters a match of a statement pattern can start with, read off its source: `^`, then a
 * literal character, an escaped one, or a group (`(?:a|b)`, maybe optional, so what follows it
 * counts too). Any other shape throws, so a new row's pattern is read by hand and this taught it.
 */
function firstChars(source: string): string[] {
  if (source.startsWith("\\")) {
    const escaped = source[1] ?? "";
    if (/[\w]/.test(escaped)) throw new Error(`a class at the start of ${source}`);
    return [escaped];
  }
  if (source.startsWith("(")) {
    const body = source.startsWith("(?:") ? 3 : 1;
    let depth = 0;
    let close = -1;
    const alternatives: string[] = [];
    let from = body;
    for (let i = 0; i < source.length && close === -1; i++) {
      const char = source[i];
      if (char === "\\") i++;
      else if (char === "(") depth++;
      else if (char === ")" && --depth === 0) close = i;
      else if (char === "|" && depth === 1) {
        alternatives.push(source.slice(from, i));
        from = i + 1;
      }
    }
    alternatives.push(source.slice(from, close));
    const inside = alternatives.flatMap(firstChars);
    return source[close + 1] === "?" ? [...inside, ...firstChars(source.slice(close + 2))] : inside;
  }
  const char = source[0] ?? "";
  if (char === "" || "[.*+?|$".includes(char)) throw new Error(`no literal start in ${source}`);
  return [char];
}

describe("a result starting with none of a framing's statementStarts opens with none of its statements", () => {
  const rows = [CODEX_FRAMING, CLAUDE_CODE_FRAMING].flatMap((framing) =>
    framing.statements.map((row) => [row.pattern.source, framing.statementStarts, row.pattern.flags] as const),
  );
  test.each(rows)("%s", (source, starts, flags) => {
    expect(flags).toBe("");
    expect(source.startsWith("^")).toBe(true);
    for (const char of firstChars(source.slice(1))) expect(starts).toContain(char);
  });
  test.each([
    ["Permission to read a.txt has been denied.", CLAUDE_CODE_FRAMING, "refused"],
    ["  \n[Request interrupted by user]", CLAUDE_CODE_FRAMING, "cut short"],
    ["Exit code 1\n[Request interrupted by user for tool use]", CLAUDE_CODE_FRAMING, "cut short"],
    ["aborted by user after 1.5s", CODEX_FRAMING, "cut short"],
    ["`rm -rf /` rejected: blocked by policy", CODEX_FRAMING, "refused"],
    ["sandbox denied exec error, exit code: 2, stdout: , stderr: ", CODEX_FRAMING, "failed"],
  ] as const)("%j", (text, framing, meaning) => {
    expect(readStatement(text, true, framing)?.meaning).toBe(meaning);
  });
  test.each([["ok"], [""], ["   "], ["Error: boom"], ["permission to read x has been denied"]])("%j opens with none", (text) => {
    expect(readStatement(text, true, CLAUDE_CODE_FRAMING)).toBeUndefined();
  });
});

describe("words with a prefix, a redirection or a stated code, each case the cheap looks skip and each they pass on", () => {
  test.each([
    ["sudo grep x f", true],
    ["FOO=1 env time grep x f", true],
    ["A=1\nB grep x f", false],
    ["nice -n 5 grep x f", false],
    ["command test -f a", true],
    ["builtin [ -f a ]", true],
    ["npm test", false],
    // Every check program, bare, by its path, and spelt with quotes; and lines naming none.
    ...["grep", "egrep", "fgrep", "rg", "ag", "ack", "fd", "test", "[", "[[", "diff", "cmp", "which", "pgrep"].map(
      (program) => [`${program} x`, true] as const,
    ),
    ["/usr/bin/test -f a", true],
    ['"g"rep x f', true],
    ["g\\rep x f", true],
    ["npm run check 2>&1 | tail -5", false],
    ["npx tsc --noEmit", false],
  ] as const)("isSearchCommand(%j) is %p", (command, search) => {
    expect(isSearchCommand(command)).toBe(search);
  });
  test.each([
    [
      "rm a 2> err.log b",
      [
        { op: "delete", path: "a", named: false },
        { op: "delete", path: "b", named: false },
        { op: "write", path: "err.log" },
      ],
    ],
    [
      "rm a 2>err.log",
      [
        { op: "delete", path: "a", named: false },
        { op: "write", path: "err.log" },
      ],
    ],
    ["tee a < in.txt", [{ op: "write", path: "a" }]],
    ["tee a 2>&1", [{ op: "write", path: "a" }]],
    [
      "tee a b",
      [
        { op: "write", path: "a" },
        { op: "write", path: "b" },
      ],
    ],
    ["npm test 2>&1 | tail -3", []],
    ["echo x >&2", []],
    ["echo x >&2 > out.txt", [{ op: "write", path: "out.txt" }]],
    ["echo '>&' > o.txt", [{ op: "write", path: "o.txt" }]],
    ['echo "a>&b" >>log.txt', [{ op: "write", path: "log.txt" }]],
    ['grep -n "x" src/a.ts | head -3', []],
    ['cat "a b.txt" | head -3', [{ op: "read", path: "a b.txt" }]],
    // A plain first word that reads and changes nothing leaves the rest of its step unread; any other is read whole.
    ['grep -n "a\\.b" f > out.txt', [{ op: "write", path: "out.txt" }]],
    ['grep -n "x" f 2>&1', []],
    ['FOO="a b" cat f.txt', [{ op: "read", path: "f.txt" }]],
    ['bash -c "rm a.txt"', [{ op: "delete", path: "a.txt", named: false }]],
    ['cd sub && grep "x" f && rm "a.txt"', [{ op: "delete", path: "sub/a.txt", named: false }]],
    ["X=1\\2>out.txt", [{ op: "write", path: "out.txt" }]],
    ["grep\\ x f > o.txt", [{ op: "write", path: "o.txt" }]],
  ] as const)("shellFileEvents(%j)", (command, events) => {
    expect(shellFileEvents(command)).toEqual(events.map((event) => ({ ...event })));
  });
  test.each([
    ["boom\nCommand exited with code 2", 2],
    ["boom\ncommand EXITED with code 3", 3],
    ["Exit code 4\nboom", 4],
    ["exit code: 5", 5],
    ["boom\nexit code 6 ", 6],
    ["boom\nexit code 7x", null],
    ["boom", null],
    ["", null],
  ] as const)("an error result %j states exit %p", (output, code) => {
    expect(readToolResult(output, true).exitCode).toBe(code);
  });
  test.each([
    ["apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\nEOF", "write"],
    ["cd sub && applypatch <<EOF\n*** Update File: b.ts\nEOF", "write"],
    ["cat <<EOF > f\nx\nEOF", "shell"],
    ["apply_patch --help", "shell"],
  ] as const)("a shell call %j is a %s", (command, kind) => {
    expect(classifyToolCall("exec_command", { cmd: command }).kind).toBe(kind);
  });
});
