/**
 * When a failure is over. The latest run of a command decides that command's state; this file
 * adds the runs that settle a failure without repeating it word for word, so the document never
 * sends the next session to fix what a later run already showed working.
 */
import { commandKey } from "./runs.ts";
import { splitSteps } from "./shell-line.ts";

/**
 * Compiled toolchains whose test command builds the code first: a test run that got as far as
 * running tests shows that the build it includes passed.
 */
const BUILT_BY_TESTS: readonly { tests: RegExp; builds: RegExp }[] = [
  { tests: /^cargo (?:test|nextest run|bench|run)\b/, builds: /^cargo (?:build|check)\b/ },
  { tests: /^go (?:test|run)\b/, builds: /^go (?:build|vet)\b/ },
  { tests: /^dotnet (?:test|run)\b/, builds: /^dotnet build\b/ },
  { tests: /^swift (?:test|run)\b/, builds: /^swift build\b/ },
];

/** A test runner's summary: the tests ran (passing or not). */
const TEST_SUMMARY =
  /^test result:|^running \d+ tests?$|^(?:ok|FAIL)\s+\S+\s+[\d.]+m?s$|^--- (?:PASS|FAIL):|\b\d+ (?:passed|failed|pass|fail|passing|failing)\b|^(?:Passed|Failed)!\s+-|^Test Suite '.+' (?:passed|failed)/m;
/** The build inside a test run failed: no test ran. */
const BUILD_FAILED =
  /could not compile|\[build failed\]|\[setup failed\]|^error(?:\[E\d+\])?:|\berror CS\d{4}\b|\bcompilation failed\b|\bbuild failed\b/im;

/** The toolchains of `BUILT_BY_TESTS`, named anywhere in a command: only their runs need their output read. */
const TOOLCHAIN = /\b(?:cargo|go|dotnet|swift)\s/;

/** Whether a run of one of those toolchains got past its own build to run tests, by its output. */
export function testsRan(command: string, output: string): boolean {
  return TOOLCHAIN.test(command) && TEST_SUMMARY.test(output) && !BUILD_FAILED.test(output);
}

/** A later run, as far as settling an earlier failure needs. */
export interface LaterRun {
  command: string;
  exitCode: number | null;
  failed: boolean;
  /** `testsRan` of its output. */
  ranTests: boolean;
}

/** A command line of more than one step (or so it may be: the operators are checked properly by `splitSteps`). */
const MANY_STEPS = /[|;&\n]/;

/** What `settles` compares, worked out once per run: its `commandKey`, and (when asked) that of each of its steps. */
export interface RunKeys {
  key: string;
  steps(): readonly string[];
}

export function runKeys(command: string, cwd: string | undefined): RunKeys {
  let steps: string[] | undefined;
  return {
    key: commandKey(command, cwd),
    // A one-step command's only step is the command itself: the same command, which its latest run decides.
    steps: () => (steps ??= MANY_STEPS.test(command) ? splitSteps(command).map((step) => commandKey(step.text, cwd)) : []),
  };
}

/**
 * Whether `later` shows that the failed run `earlier` no longer fails, though it is another command:
 * - it passed and runs the failed command as one of its steps (`bun run start & sleep 2; curl …/health`
 *   after `bun run start` crashed);
 * - the failure was a build and `later` a test run of the same toolchain that ran its tests
 *   (`cargo test` compiles first: 11 passed, 1 failed means `cargo build` would pass).
 * `keys` lets a caller that compares many runs work each run's keys out once.
 */
export function settles(
  later: LaterRun,
  earlier: { command: string },
  cwd: string | undefined,
  keys: (command: string) => RunKeys = (c) => runKeys(c, cwd),
): boolean {
  // Cheap first: only a passing run of several steps, or a test run that ran its tests, can settle anything.
  const compound = !later.failed && later.exitCode === 0 && MANY_STEPS.test(later.command);
  if (!compound && !later.ranTests) return false;
  const failedKey = keys(earlier.command).key;
  if (failedKey === "") return false;
  const laterKeys = keys(later.command);
  if (compound && laterKeys.steps().includes(failedKey)) return true;
  if (!later.ranTests) return false;
  return BUILT_BY_TESTS.some((toolchain) => toolchain.builds.test(failedKey) && toolchain.tests.test(laterKeys.key));
}
