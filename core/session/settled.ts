/**
 * When a failure is over. The latest run of a command decides that command's state; this file
 * adds the runs that settle a failure without repeating it word for word, so the document never
 * sends the next session to fix what a later run already showed working.
 */
import { commandKey, withoutOutputFilter } from "./runs.ts";
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
const TEST_SUMMARY = /^test result:|^running \d+ tests?$|^(?:ok|FAIL)\s+\S+\s+[\d.]+m?s$|^--- (?:PASS|FAIL):|\b\d+ (?:passed|failed|pass|fail|passing|failing)\b|^(?:Passed|Failed)!\s+-|^Test Suite '.+' (?:passed|failed)/m;
/** The build inside a test run failed: no test ran. */
const BUILD_FAILED = /could not compile|\[build failed\]|\[setup failed\]|^error(?:\[E\d+\])?:|\berror CS\d{4}\b|\bcompilation failed\b|\bbuild failed\b/im;

/** Whether a test run's output shows it got past its own build to run tests. */
export function testsRan(output: string): boolean {
  return TEST_SUMMARY.test(output) && !BUILD_FAILED.test(output);
}

/** A later run, as far as settling an earlier failure needs. */
export interface LaterRun {
  command: string;
  exitCode: number | null;
  failed: boolean;
  /** `testsRan` of its output. */
  ranTests: boolean;
}

/**
 * Whether `later` shows that the failed run `earlier` no longer fails, though it is another command:
 * - it passed and runs the failed command as one of its steps (`bun run start & sleep 2; curl …/health`
 *   after `bun run start` crashed);
 * - the failure was a build and `later` a test run of the same toolchain that ran its tests
 *   (`cargo test` compiles first: 11 passed, 1 failed means `cargo build` would pass).
 */
export function settles(later: LaterRun, earlier: { command: string }, cwd: string | undefined): boolean {
  const failedKey = commandKey(earlier.command, cwd);
  if (failedKey === "") return false;
  const laterSteps = splitSteps(later.command).map((step) => commandKey(step.text, cwd));
  if (!later.failed && later.exitCode === 0 && laterSteps.includes(failedKey)) return true;
  if (!later.ranTests) return false;
  const laterKey = commandKey(withoutOutputFilter(later.command), cwd);
  return BUILT_BY_TESTS.some((toolchain) => toolchain.builds.test(failedKey) && toolchain.tests.test(laterKey));
}
