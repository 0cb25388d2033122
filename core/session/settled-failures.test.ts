import { describe, expect, test } from "bun:test";
import { type LaterRun, settles, testsRan } from "./settled-failures.ts";

const passed = (command: string, output = ""): LaterRun => ({ command, exitCode: 0, failed: false, ranTests: testsRan(command, output) });
const failed = (command: string, output: string, exitCode = 1): LaterRun => ({
  command,
  exitCode,
  failed: true,
  ranTests: testsRan(command, output),
});

describe("a later, different run that settles a failure", () => {
  test.each([
    {
      name: "a passing compound that runs the failed command",
      earlier: "bun run start",
      later: passed("bun run start & sleep 2; curl -s localhost:3000/health", '{"ok":true}'),
      settles: true,
    },
    {
      name: "the same, with the failed command behind a cd into the cwd",
      earlier: "cd /w/app && npm run build",
      later: passed("npm run build && npm test", " 3 pass"),
      settles: true,
    },
    {
      name: "a failing compound that runs it",
      earlier: "bun run start",
      later: failed("bun run start & sleep 2; curl -sf localhost:3000/health", "curl: (7) Failed to connect", 7),
      settles: false,
    },
    {
      name: "a passing run of another command",
      earlier: "bun run start",
      later: passed("curl -s localhost:3000/health", '{"ok":true}'),
      settles: false,
    },
    {
      name: "cargo test that compiled and ran (one test failing) after cargo build",
      earlier: "cargo build 2>&1 | tail -3",
      later: failed(
        "cargo test 2>&1 | tail -5",
        "test distance::tests::antipodal ... FAILED\n\ntest result: FAILED. 11 passed; 1 failed; 0 ignored",
        0,
      ),
      settles: true,
    },
    {
      name: "cargo test that did not compile",
      earlier: "cargo build",
      later: failed("cargo test", "error[E0433]: failed to resolve\nerror: could not compile `geo` (lib) due to 1 previous error", 101),
      settles: false,
    },
    {
      name: "go test that ran after go vet",
      earlier: "go vet ./...",
      later: failed("go test ./...", "--- FAIL: TestParse (0.00s)\nFAIL\tgeo/parse\t0.012s"),
      settles: true,
    },
    {
      name: "go test whose build failed",
      earlier: "go build ./...",
      later: failed("go test ./...", "FAIL\tgeo/parse [build failed]"),
      settles: false,
    },
    {
      name: "a JS test run does not type-check: it settles no tsc failure",
      earlier: "npx tsc --noEmit",
      later: passed("npm test", " 12 pass\n 0 fail"),
      settles: false,
    },
    {
      name: "a cargo build does not settle a failing cargo test",
      earlier: "cargo test",
      later: passed("cargo build", "Finished"),
      settles: false,
    },
  ])("$name: $settles", ({ earlier, later, settles: expected }) => {
    expect(settles(later, { command: earlier }, "/w/app")).toBe(expected);
  });
});
