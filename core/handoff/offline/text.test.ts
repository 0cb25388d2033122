import { describe, expect, test } from "bun:test";
import { isCompletion, isConstraint, isDecision } from "./patterns.ts";
import { capText, commandInCwd, firstErrorLine, isAcknowledgement, relativeToCwd, splitSentences, withoutOutputFilter } from "./text.ts";

describe("capText", () => {
  test.each([
    ["short text is only flattened", "a\n  b", 10, "a b"],
    ["long text is cut with a marker", "abcdefghij", 5, "abcd…"],
    ["a cut inside a code span closes it", "run `npm test` now", 9, "run `npm`…"],
  ])("%s", (_name, input, max, expected) => {
    expect(capText(input, max)).toBe(expected);
  });
});

test("splitSentences drops code blocks and pasted output, and splits prose", () => {
  const text = "Fix it. Then test!\n```\nnot prose. at all\n```\n➜ app git:(main) npm test\n- Keep going";
  expect(splitSentences(text)).toEqual(["Fix it.", "Then test!", "Keep going"]);
});

describe("firstErrorLine", () => {
  test.each([
    ["prefers a line naming an error", "FAIL a.test.ts\nReferenceError: x is not defined\nCommand exited with code 1", "ReferenceError: x is not defined"],
    ["falls back to a failure line", "building\n1 test failed\nCommand exited with code 1", "1 test failed"],
    ["skips minified lines and stack frames", `${"x".repeat(500)} error\n    at foo (a.js:1)\nError: boom`, "Error: boom"],
    ["keeps an abort", "Command aborted", "Command aborted"],
  ])("%s", (_name, output, expected) => {
    expect(firstErrorLine(output)).toBe(expected);
  });

  test("has nothing to say about noise alone", () => {
    expect(firstErrorLine("(no output)\n\nCommand exited with code 1")).toBeUndefined();
  });
});

test.each([
  ["ok", true],
  ["Thanks!", true],
  ["👍", true],
  ["ok, do it", false],
  ["continue", false],
])("isAcknowledgement(%p) is %p", (text, expected) => {
  expect(isAcknowledgement(text)).toBe(expected);
});

describe("paths and commands relative to the working directory", () => {
  test("a path inside the cwd becomes relative, others stay", () => {
    expect(relativeToCwd("/w/app/src/a.ts", "/w/app")).toBe("src/a.ts");
    expect(relativeToCwd("/w/application/a.ts", "/w/app")).toBe("/w/application/a.ts");
    expect(relativeToCwd("/w/app", "/w/app")).toBe("/w/app");
  });

  test("a leading cd into the cwd is dropped, a cd elsewhere is kept", () => {
    expect(commandInCwd("cd /w/app && npm test", "/w/app")).toBe("npm test");
    expect(commandInCwd("cd /w/app/pkg && npm test", "/w/app")).toBe("cd /w/app/pkg && npm test");
  });

  test("an output filter that hid the exit status is dropped from a suggested command", () => {
    expect(withoutOutputFilter("npm run build 2>&1 | head -30")).toBe("npm run build");
    expect(withoutOutputFilter("npm run check 2>&1 | grep -E \"error\" | tail -5")).toBe("npm run check");
    expect(withoutOutputFilter("npm test")).toBe("npm test");
  });
});

describe("patterns", () => {
  test.each([
    ["Never change the public API.", true],
    ["Always run `npm test` first.", true],
    ["Please don't touch the lockfile.", true],
    ["make sure toolText is also used.", true],
    ["Only touch files under src/.", true],
    ["E2E tests only.", true],
    ["i don't understand", false],
    ["there's only one file left to fix up", false],
    ["should we always do that?", false],
  ])("isConstraint(%p) is %p", (sentence, expected) => {
    expect(isConstraint(sentence)).toBe(expected);
  });

  test.each([
    ["I'll fix the bound rather than rewrite the function.", true],
    ["Footer now uses `dim` instead of `muted`, making it dimmer.", true],
    ["The file has an old implementation with chalk instead of using the theme.", false],
    ["I'll use a Map because lookups are frequent.", true],
    ["It failed because the path was wrong.", false],
    ["Should I go with option 2 rather than 1?", false],
  ])("isDecision(%p) is %p", (sentence, expected) => {
    expect(isDecision(sentence)).toBe(expected);
  });

  test.each([
    ["Done: the last row is exported.", true],
    ["Fixed! Now it works.", true],
    ["The loop was wrong, so I've added a test.", true],
    ["Let me check the file.", false],
  ])("isCompletion(%p) is %p", (text, expected) => {
    expect(isCompletion(text, splitSentences(text)[0] ?? "")).toBe(expected);
  });
});
