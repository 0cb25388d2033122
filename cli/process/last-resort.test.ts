import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { CLI, REPO, splitPlanLine } from "../../fixtures/run-agent.ts";
import { describeBug } from "../output/stderr.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const PRELOAD = join(REPO, "fixtures", "throw-later.ts");

describe("an error nothing caught ends the run with one line, recognisably a bug", () => {
  test.each([
    ["a callback that throws", "exception", []],
    ["a rejection nobody awaited", "rejection", []],
    ["a callback that throws, --verbose", "exception", ["--verbose"]],
    ["a rejection nobody awaited, --verbose", "rejection", ["--verbose"]],
  ])("%s", async (_, kind, flags) => {
    // The failure lands mid-run: when the request has reached the endpoint, which answers late.
    // Outside the sandbox's folder, which must hold nothing new.
    const marker = join(mkdtempSync(join(tmpdir(), "agent-throw-")), "request-arrived");
    const s = sandbox.serve(() => {
      writeFileSync(marker, "");
      return { text: CANNED_DOCUMENT, delayMs: 3000 };
    });
    const src = sandbox.source();
    const original = readFileSync(src);
    const env = sandbox.env(s.url, { AGENT_TEST_THROW: kind, AGENT_TEST_THROW_WHEN: marker });
    const proc = Bun.spawn([process.execPath, "--preload", PRELOAD, CLI, "handoff", src, ...flags], {
      env,
      cwd: REPO,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, rawStderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    // The plan line a sending run starts with is the plan tests' (fixtures/run-agent.ts).
    const { stderr } = splitPlanLine(rawStderr);
    expect([code, stdout]).toEqual([1, ""]);
    const lines = stderr.split("\n").filter(Boolean);
    expect(lines.find((line) => line.startsWith("error:"))).toStartWith(
      "error: unexpected internal error (please report it): Error: boom from a callback",
    );
    if (flags.length === 0) {
      expect(lines).toEqual([
        "error: unexpected internal error (please report it): Error: boom from a callback (run with --verbose for the stack)",
      ]);
    } else {
      expect(stderr).toMatch(/^\s+at .*throw-later\.ts/m);
    }
    expect(stderr).not.toContain("\x1b");
    sandbox.expectNothingWritten(src, original);
    rmSync(dirname(marker), { recursive: true, force: true });
  });
});

describe("describeBug", () => {
  test.each([
    [
      "an Error",
      new TypeError("x is not a function"),
      false,
      "unexpected internal error (please report it): TypeError: x is not a function (run with --verbose for the stack)",
    ],
    [
      "a multi-line message keeps its first line",
      new Error("first\nsecond\nthird"),
      false,
      "unexpected internal error (please report it): Error: first (run with --verbose for the stack)",
    ],
    ["a thrown string", "plain", false, "unexpected internal error (please report it): plain (run with --verbose for the stack)"],
  ])("%s", (_, error, verbose, expected) => {
    expect(describeBug(error, verbose)).toBe(expected);
  });

  test("with --verbose, the stack", () => {
    const error = new RangeError("deep");
    expect(describeBug(error, true)).toBe(`unexpected internal error (please report it): ${error.stack}`);
  });
});
