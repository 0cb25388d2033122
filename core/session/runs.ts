/**
 * When a command run counts as failed: one definition, used by inspect's count, the Session
 * Facts list and the offline document alike.
 *
 * A run failed when its exit code is non-zero (except a search that found nothing: `grep`,
 * `find`, `test`, `diff` … exiting 1), or when it exited 0 only because a pipe or a `;` hid an
 * earlier stage: a build, test or check piped into `head`/`tail`/`grep` whose output shows
 * errors. A run without an exit code (cancelled, or never answered) did not fail; it is unknown.
 */
import { isObject } from "../json.ts";
import { relativeInText } from "./paths.ts";

/** Searches and tests, whose exit code 1 means "nothing found" or "false", not a failure. */
const SEARCH_COMMAND = /^\s*(?:cd\s+[^&;|]*(?:&&|;)\s*)?(grep|egrep|fgrep|rg|ag|ack|find|fd|test|\[|diff|cmp|which|pgrep)\b/;

export function isSearchCommand(command: string): boolean {
  return SEARCH_COMMAND.test(command);
}

/** Commands that check the work (tests, builds, linters): their latest result says whether the tree is green. */
const CHECK_COMMAND = /\b(test|tests|check|typecheck|lint|build|tsc|tsgo|vitest|jest|pytest|mocha|playwright|cargo\s+(?:test|build|check|clippy)|go\s+(?:test|build|vet)|make)\b/i;

/**
 * Judged on the command's own words, not its paths or quoted text: `git rm test/a.test.ts` and
 * `git commit -m "fix test"` are no test runs.
 */
export function isCheckCommand(command: string): boolean {
  const steps = command.split(/\s*(?:&&|;)\s*/).filter((step) => !/^\s*(?:cd|git)\s/.test(step));
  const words = steps.join(" ").replace(/"[^"]*"|'[^']*'/g, " ").split(/\s+/).filter((w) => !/[/.]/.test(w));
  return CHECK_COMMAND.test(words.join(" ")) && !isSearchCommand(command);
}

/** Output lines that say a build, test or check failed, whatever the exit status claims. */
const ERROR_IN_OUTPUT =
  /\berror TS\d{3,5}\b|^\s*npm (?:ERR!|error)\s|^\s*(?:FAIL|FAILED)\b|\b[1-9]\d* (?:failed|failing|errors?)\b|^\s*error(?:\[[\w-]+\])?:|^\s*[✗✘✕×]\s|^\S+[:(]\d+[:,]\d+\)?:? error\b/im;

/** The stages of a pipeline or `;` sequence; `||` and `&&` keep their status and are not split. */
function maskingStages(command: string): string[] {
  return command.split(/\s*(?<![|])\|(?![|])&?\s*|\s*;\s*/).filter((stage) => stage.trim() !== "");
}

/** A check whose failure a later pipe stage (or a `;`) hid: its output names errors but the status was 0. */
export function outputShowsHiddenFailure(command: string, output: string): boolean {
  const stages = maskingStages(command);
  if (stages.length < 2) return false;
  return stages.slice(0, -1).some(isCheckCommand) && ERROR_IN_OUTPUT.test(output);
}

/** Older Codex versions answer a shell call with JSON: `{"output":"…","metadata":{"exit_code":N,…}}`. */
function exitCodeInJson(output: string): number | undefined {
  if (!output.startsWith('{"output":')) return undefined;
  try {
    const value: unknown = JSON.parse(output);
    const metadata = isObject(value) && isObject(value.metadata) ? value.metadata : undefined;
    return metadata && typeof metadata.exit_code === "number" ? metadata.exit_code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A shell command's exit code, read from its tool result: the code the output states
 * ("exit code 2", "Command exited with code 1"), else 0 for a success and `null` for an error.
 */
export function readExitCode(output: string, isError: boolean): number | null {
  const stated = exitCodeInJson(output);
  if (stated !== undefined) return stated;
  const match = /exit(?:ed with)? code:?\s*(-?\d+)/i.exec(output);
  if (match?.[1] !== undefined) return Number(match[1]);
  return isError ? null : 0;
}

/** How a run ended, judged once. */
export interface RunVerdict {
  exitCode: number | null;
  /** The one definition of a failed run (see the top of this file). */
  failed: boolean;
}

export function judgeRun(command: string, exitCode: number | null, output: string): RunVerdict {
  if (exitCode === null) return { exitCode, failed: false };
  if (exitCode !== 0) return { exitCode, failed: !(exitCode === 1 && isSearchCommand(command)) };
  return { exitCode, failed: outputShowsHiddenFailure(command, output) };
}

/** `exit 0`, `exit 1, failed`, `exit 1, nothing found`, a pipe that hid a failure, or why there is no code. */
export function describeOutcome(run: { command: string; exitCode: number | null; failed: boolean }): string {
  if (run.exitCode === null) return "no exit code (cancelled, or no result recorded)";
  if (run.exitCode === 0) return run.failed ? "failed (output shows errors; the pipe's status was 0)" : "exit 0";
  return run.failed ? `exit ${run.exitCode}, failed` : `exit ${run.exitCode}, nothing found`;
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
  // Quoted text (a grep pattern such as "(error|warning)") may hold a `|` that is no pipe.
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
