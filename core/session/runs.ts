/**
 * When a command run counts as failed: one definition, used by inspect's count, the Session
 * Facts list and the offline document alike.
 *
 * A run failed when the agent itself reported it failed (Claude Code's report on a background
 * command: it may state no code), when its exit code is non-zero (except a check that answered "no": `grep`,
 * `test`, `[`, `diff` … exiting 1, when that check is the step whose status ends the line), or when it exited 0 only because something after a
 * build, test or check replaced its status (a pipe into `head`/`tail`/`grep`, a `;`, an
 * `|| true`, a background `&`) while the output shows errors. Any other run without an exit code
 * (cancelled, or never answered) did not fail; it is unknown.
 */
import { describeNoAnswer } from "./answers.ts";
import { relativeInText } from "./paths.ts";
import { type Operator, shellWords, splitSteps, statusSteps } from "./shell-line.ts";
import { readToolResult } from "./tool-output.ts";

/**
 * Checks, whose exit code 1 is an answer ("nothing found", "false", "the files differ"), not a
 * failure. `find` is none: it exits 0 when it finds nothing, and 1 when it could not search.
 */
const CHECK_PROGRAMS: ReadonlySet<string> = new Set([
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "fd",
  "test",
  "[",
  "[[",
  "diff",
  "cmp",
  "which",
  "pgrep",
]);

/** Words before a program that do not change what its status means: `sudo`, `time`, `env`, `FOO=1`. */
const TRANSPARENT_PREFIX = /^(?:sudo|command|builtin|time|env|nice|\w+=.*)$/;

/** `TRANSPARENT_PREFIX`'s names: a word without `=` is one only as one of them, found without running the pattern. */
const TRANSPARENT_NAMES: ReadonlySet<string> = new Set(["sudo", "command", "builtin", "time", "env", "nice"]);
const isTransparent = (word: string) => (word.includes("=") ? TRANSPARENT_PREFIX.test(word) : TRANSPARENT_NAMES.has(word));

/** The program a step runs, without its folder: `/usr/bin/test -f x` → `test`. */
export function programOf(step: string): string {
  const words = shellWords(step);
  while (words.length > 1 && isTransparent(words[0] ?? "")) words.shift();
  const program = words[0] ?? "";
  return program.includes("/") ? program.replace(/^.*\//, "") : program;
}

/**
 * A line naming no `CHECK_PROGRAMS` name anywhere (and no quotes or backslashes to build one
 * from) runs none: every program `programOf` reads off it stands whole in it.
 */
const MAY_NAME_CHECK = /['"\\[]|grep|rg|ag|ack|fd|test|diff|cmp|which/;

/**
 * Whether the line's non-zero status is a check's answer: every step that may have produced it
 * (see `statusSteps`) is a check. When a check and another program could each have ended the
 * line (`test -f x && npm test`), we cannot tell whose status it is, so it is not an answer.
 */
export function isSearchCommand(command: string): boolean {
  if (!MAY_NAME_CHECK.test(command)) return false;
  const steps = statusSteps(command);
  return steps.length > 0 && steps.every((step) => CHECK_PROGRAMS.has(programOf(step.text)));
}

/** Commands that check the work (tests, builds, linters): their latest result says whether the tree is green. */
const CHECK_COMMAND =
  /\b(test|tests|check|typecheck|lint|build|tsc|tsgo|vitest|jest|pytest|mocha|playwright|cargo\s+(?:test|build|check|clippy)|go\s+(?:test|build|vet)|make)\b/i;

/**
 * A word of CHECK_COMMAND as it stands in a line: the last of `cargo clippy` and `go vet` too.
 * `isCheckCommand` reads a step's words less its quotes and paths, and each word it reads stands
 * whole in the line, so a line without one of these holds no check.
 */
const CHECK_WORD = /\b(?:test|tests|check|typecheck|lint|build|tsc|tsgo|vitest|jest|pytest|mocha|playwright|clippy|vet|make)\b/i;

const QUOTED = /"[^"]*"|'[^']*'/g;

/**
 * Judged on the command's own words, not its paths or quoted text: `git rm test/a.test.ts` and
 * `git commit -m "fix test"` are no test runs.
 */
export function isCheckCommand(command: string): boolean {
  const steps = command.split(/\s*(?:&&|;)\s*/).filter((step) => !/^\s*(?:cd|git)\s/.test(step));
  const words = steps
    .join(" ")
    .replace(QUOTED, " ")
    .split(/\s+/)
    .filter((w) => !w.includes("/") && !w.includes("."));
  return CHECK_COMMAND.test(words.join(" ")) && !isSearchCommand(command);
}

/** Output lines that say a build, test or check failed, whatever the exit status claims. */
const ERROR_IN_OUTPUT =
  /^\s*[1-9]\d* fail\b|\berror TS\d{3,5}\b|^\s*npm (?:ERR!|error)\s|^\s*(?:FAIL|FAILED)\b|\b[1-9]\d* (?:failed|failing|errors?)\b|^\s*error(?:\[[\w-]+\])?:|^\s*[✗✘✕×]\s|^\S+[:(]\d+[:,]\d+\)?:? error\b/im;

/**
 * Each alternative of `ERROR_IN_OUTPUT` holds one of these, in the same cases: most outputs hold
 * none, and this one pass over them is several times quicker than the full pattern's.
 */
const ERROR_WORD = /fail|error|npm |[✗✘✕×]/i;

/** Whether an output may hold an `ERROR_IN_OUTPUT` line: `false` only where that finds none. */
export function mayShowErrors(output: string): boolean {
  return ERROR_WORD.test(output);
}

/**
 * Operators after which a step's own status no longer reaches the end of the line: a pipe, a
 * `;`, an `||` alternative (which runs exactly when the step failed) and a background `&`.
 * `&&` passes a failure on, so it hides nothing.
 */
const MASKS: ReadonlySet<Operator> = new Set(["|", "||", ";", "&"]);

/**
 * Whether a line may hide a check's status at all: most commands are one step, and nothing after
 * them can hide anything; most lines of several steps run no check (none holds CHECK_WORD).
 */
function mayMask(command: string): boolean {
  return /[|;&\n]/.test(command) && CHECK_WORD.test(command);
}

/** The operator that replaced a check's status, and what followed it: `undefined` when every check's status reached the end. */
function maskOf(command: string): { operator: Operator; after: string } | undefined {
  return mayMask(command) ? maskAfterCheck(command) : undefined;
}

/** `maskOf` of a line that may mask (see `mayMask`). */
function maskAfterCheck(command: string): { operator: Operator; after: string } | undefined {
  const steps = splitSteps(command);
  if (steps.length < 2) return undefined;
  // The first check decides: a mask after it hides it, and a later check has no mask after it that
  // the first has not. One pass, not one search to the end per check (quadratic: 20,000 checks took 5 s).
  // A step without a CHECK_WORD is no check: most steps are not read word by word.
  const first = steps.findIndex((step) => CHECK_WORD.test(step.text) && isCheckCommand(step.text));
  if (first === -1) return undefined;
  for (let at = first; at < steps.length; at++) {
    const next = steps[at]?.next;
    if (next !== undefined && MASKS.has(next)) return { operator: next, after: steps[at + 1]?.text ?? "" };
  }
  return undefined;
}

/** A check whose failure something after it hid (see `MASKS`): its output names errors but the status was 0. */
export function outputShowsHiddenFailure(command: string, output: string): boolean {
  // The output is read only for a line that may hide a status, and the line split into its steps
  // only when the output names errors (most checks that pass print none).
  return mayMask(command) && mayShowErrors(output) && ERROR_IN_OUTPUT.test(output) && maskAfterCheck(command) !== undefined;
}

/**
 * A shell command's exit code, read from its tool result: the code the agent stated (see
 * tool-output.ts for whose words count), else 0 for a success and `null` for an error. Text
 * inside the output never counts: a passing test named "exits with exit code 2" passed.
 */
export function readExitCode(output: string, isError: boolean): number | null {
  return readToolResult(output, isError).exitCode;
}

/** How a run ended, judged once. */
export interface RunVerdict {
  exitCode: number | null;
  /** The one definition of a failed run (see the top of this file). */
  failed: boolean;
}

/** `reportedFailed`: the agent said the run failed, whatever its code (see the top of this file). */
export function judgeRun(command: string, exitCode: number | null, output: string, reportedFailed = false): RunVerdict {
  if (reportedFailed) return { exitCode, failed: true };
  if (exitCode === null) return { exitCode, failed: false };
  if (exitCode !== 0) return { exitCode, failed: !(exitCode === 1 && isSearchCommand(command)) };
  return { exitCode, failed: outputShowsHiddenFailure(command, output) };
}

/** How the status of a failed check was lost, in words: "the pipe's status was 0", "`|| true` hid its status". */
function describeMask(command: string): string {
  const mask = maskOf(command);
  switch (mask?.operator) {
    case "|":
      return "the pipe's status was 0";
    case "||": {
      const after = mask.after.replace(/`/g, "");
      return `\`|| ${after.length > 30 ? `${after.slice(0, 29)}…` : after}\` hid its status`;
    }
    case ";":
      return "the status was the last command's, 0";
    case "&":
      return "it ran in the background; the status was 0";
    default:
      return "the status was 0";
  }
}

/**
 * `exit 0`, `exit 1, failed`, a check's "no" in words (`exit 1, nothing found`, `exit 1, \`a.txt\`
 * is not there`), a check whose failure a pipe or `|| true` hid, or why there is no code. Paths
 * in the answer are in the one form for `cwd`.
 */
export function describeOutcome(run: { command: string; exitCode: number | null; failed: boolean }, cwd?: string): string {
  if (run.exitCode === null)
    return run.failed ? "failed, no exit code recorded" : "no exit code recorded (cancelled, still running, or no result)";
  if (run.exitCode === 0) return run.failed ? `failed (output shows errors; ${describeMask(run.command)})` : "exit 0";
  return run.failed ? `exit ${run.exitCode}, failed` : `exit ${run.exitCode}, ${describeNoAnswer(displayCommand(run.command, cwd), cwd)}`;
}

/** A check that answered "no" (exit 1 of `test`, `grep`, `diff` …): not a failure, but a finding. */
export function answeredNo(run: { command: string; exitCode: number | null; failed: boolean }): boolean {
  return run.exitCode === 1 && !run.failed && isSearchCommand(run.command);
}

/**
 * Whether what the line writes and deletes happened: it succeeded, or its status is a check's
 * answer (`diff -u a b > x.patch` exits 1 because the files differ; the redirection wrote x.patch).
 */
export function changesHappened(run: { command: string; exitCode: number | null; failed: boolean }): boolean {
  return (run.exitCode === 0 && !run.failed) || answeredNo(run);
}

/**
 * `changesHappened` of a run as `judgeRun` judged it: there an exit 1 that did not fail was a
 * check's answer, so whether the line is a check is not asked again.
 */
export function changesHappenedIn(verdict: RunVerdict): boolean {
  return (verdict.exitCode === 0 || verdict.exitCode === 1) && !verdict.failed;
}

/** Drops a leading `cd <cwd> &&`: the document states the working directory once. */
function withoutCdIntoCwd(command: string, cwd: string | undefined): string {
  if (!cwd) return command;
  const base = cwd.replace(/\/+$/, "") || "/";
  for (const prefix of [`cd ${base} && `, `cd "${base}" && `, `cd '${base}' && `, `cd ${base}/ && `]) {
    if (command.startsWith(prefix)) return command.slice(prefix.length);
  }
  return command;
}

/** A command as every list shows it: no `cd` into the working directory, its paths in their one form. */
export function displayCommand(command: string, cwd: string | undefined): string {
  return relativeInText(withoutCdIntoCwd(command.trim(), cwd), cwd);
}

/** A command without the `| head`/`| tail`/`| grep` that only trimmed its output (and hid its status). */
export function withoutOutputFilter(command: string): string {
  // Quoted text (a grep pattern such as "(error|warning)") may hold a `|` that is not a pipe.
  const quoted: string[] = [];
  const masked = command.replace(/"[^"]*"|'[^']*'/g, (q) => `\u0000${quoted.push(q) - 1}\u0000`);
  const cut = masked.replace(/(?:\s*2>&1)?(?:\s*\|\s*(?:head|tail|grep|egrep|less|cat|sort|uniq|wc)\b[^|]*)+$/, "").trim();
  return cut.replace(/\u0000(\d+)\u0000/g, (_, i: string) => quoted[Number(i)] ?? "") || command;
}

/**
 * What makes two runs "the same command" for deciding its latest state: the last `&&` step,
 * without output filters and options. `npm publish --access public` and the retry with
 * `--otp=123456` are one command; so are `git commit -m x` and `git add . && git commit -m x`.
 */
export function commandKey(command: string, cwd: string | undefined): string {
  const steps = withoutOutputFilter(displayCommand(command, cwd)).split(/\s*&&\s*/);
  const last = steps.at(-1) ?? "";
  return last
    .split(/\s+/)
    .filter((word) => word !== "" && !word.startsWith("-") && word !== "2>&1")
    .join(" ");
}
