/**
 * What a check answered when it said "no" (exit 1): `test -f X` says X is not there, `grep` found
 * nothing, `diff` says the files differ. Such a run did not fail (see runs.ts), but its answer is
 * a finding the next session must know, so it is put in words, one way for every list.
 */
import { normalizePath } from "./paths.ts";
import { shellWords, splitSteps, statusSteps } from "./shell-line.ts";

/** `test`/`[` operators that ask whether a path is there (in some form), and how its absence reads. */
const PATH_TESTS: Readonly<Record<string, (path: string) => string>> = {
  "-e": (p) => `${p} is not there`,
  "-f": (p) => `${p} is not there (no such file)`,
  "-d": (p) => `${p} is not there (no such folder)`,
  "-s": (p) => `${p} is missing or empty`,
  "-L": (p) => `${p} is not there (no such link)`,
  "-h": (p) => `${p} is not there (no such link)`,
  "-r": (p) => `${p} is not readable, or not there`,
  "-w": (p) => `${p} is not writable, or not there`,
  "-x": (p) => `${p} is not executable, or not there`,
};

/** The same questions answered "yes", for a negated check (`! test -f X` exiting 1: X is there). */
const PATH_TESTS_YES: Readonly<Record<string, (path: string) => string>> = {
  "-e": (p) => `${p} is there`,
  "-f": (p) => `${p} is there (a file)`,
  "-d": (p) => `${p} is there (a folder)`,
  "-s": (p) => `${p} is there and not empty`,
};

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** A `test` or `[ … ]`: which path is missing (or, negated, there), when it asks one thing of one path. */
function testAnswer(words: readonly string[], negated: boolean, place: (path: string) => string): string {
  const operands = words[0] === "[" || words[0] === "[[" ? words.slice(1, -1) : words.slice(1);
  const [flag, path] = operands;
  const tests = negated ? PATH_TESTS_YES : PATH_TESTS;
  // Only the table's own operators: `test constructor x` asks nothing of a path.
  const describe = flag !== undefined && Object.hasOwn(tests, flag) ? tests[flag] : undefined;
  if (operands.length === 2 && describe !== undefined && path !== undefined) return describe(code(place(path)));
  return negated ? "the test was true" : "the test was false";
}

/** One check's answer: "no", or for a negated check (`! grep -q x f`), the "yes" that made the line exit 1. */
function checkAnswer(text: string, negated: boolean, place: (path: string) => string): string {
  const words = shellWords(text);
  while (words.length > 1 && /^(?:sudo|command|builtin|time|env|nice|\w+=.*)$/.test(words[0] ?? "")) words.shift();
  const program = words[0]?.replace(/^.*\//, "") ?? "";
  switch (program) {
    case "test":
    case "[":
    case "[[":
      return testAnswer(words, negated, place);
    case "diff":
    case "cmp":
      return negated ? "the files are the same" : "the files differ";
    case "which": {
      const names = words.slice(1).filter((w) => !w.startsWith("-"));
      const name = names.length === 1 && names[0] !== undefined ? code(names[0]) : undefined;
      if (negated) return name === undefined ? "on the PATH" : `${name} is on the PATH`;
      return name === undefined ? "not on the PATH" : `${name} is not on the PATH`;
    }
    case "pgrep":
      return negated ? "the process is running" : "no such process";
    default:
      return negated ? "found" : "nothing found";
  }
}

/**
 * The answer of a line whose status is a check's "no" (exit 1), in words; "nothing found" when it
 * names no check we know. The checks are the steps whose status may end the line (`statusSteps`,
 * the same ones runs.ts judges by); when two could (`[ -f a ] && [ -f b ]`) both answers are
 * given. A path is named from the folder a `cd` before the check moved to, in the one form for `cwd`.
 */
export function describeNoAnswer(command: string, cwd?: string): string {
  const steps = splitSteps(command);
  const answers = statusSteps(command).map((check) => {
    const place = (path: string): string => {
      const dir = folderBefore(steps.slice(0, check.index).map((s) => s.text));
      const joined = dir === undefined || path.startsWith("/") || path.startsWith("~") || path.includes("$") ? path : `${dir}/${path}`;
      return cwd === undefined || joined.includes("$") ? joined : normalizePath(joined, cwd);
    };
    return checkAnswer(check.text, check.negated, place);
  });
  return [...new Set(answers)].join(", or ") || "nothing found";
}

/** The folder the `cd` steps moved to, as written (`undefined`: the working directory). */
function folderBefore(steps: readonly string[]): string | undefined {
  let dir: string | undefined;
  for (const step of steps) {
    const words = shellWords(step);
    if (words[0] !== "cd") continue;
    // `cd -` goes back to a folder the line does not name: said as the variable that holds it.
    const to = words[1] === "-" ? "$OLDPWD" : (words[1] ?? "~");
    dir = to.startsWith("/") || to.startsWith("~") || dir === undefined ? to : `${dir}/${to}`;
  }
  return dir;
}
