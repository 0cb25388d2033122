/**
 * What a check answered when it said "no" (exit 1): `test -f X` says X is not there, `grep` found
 * nothing, `diff` says the files differ. Such a run did not fail (see runs.ts), but its answer is
 * a finding the next session must know, so it is put in words, one way for every list.
 */
import { shellWords, splitSteps } from "./shell-line.ts";

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

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** A `test` or `[ … ]` that was false: which path is missing, when it asks one thing of one path. */
function testAnswer(words: readonly string[]): string {
  const operands = words[0] === "[" || words[0] === "[[" ? words.slice(1, -1) : words.slice(1);
  const [flag, path] = operands;
  const describe = flag === undefined ? undefined : PATH_TESTS[flag];
  if (operands.length === 2 && describe !== undefined && path !== undefined) return describe(code(path));
  return "the test was false";
}

/**
 * The answer of a check that exited 1, in words; "nothing found" when the command names no
 * check we know (the wording every list used before). Leading `cd` steps are skipped: the first
 * other step is the check (the one `isSearchCommand` looks at).
 */
export function describeNoAnswer(command: string): string {
  const step = splitSteps(command).find((s) => !/^\s*cd\s/.test(s.text));
  const words = shellWords(step?.text ?? "");
  const program = words[0]?.replace(/^.*\//, "") ?? "";
  switch (program) {
    case "test":
    case "[":
    case "[[":
      return testAnswer(words);
    case "diff":
    case "cmp":
      return "the files differ";
    case "which": {
      const names = words.slice(1).filter((w) => !w.startsWith("-"));
      return names.length === 1 && names[0] !== undefined ? `${code(names[0])} is not on the PATH` : "not on the PATH";
    }
    case "pgrep":
      return "no such process";
    default:
      return "nothing found";
  }
}
