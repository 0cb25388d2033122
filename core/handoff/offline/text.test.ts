import { describe, expect, test } from "bun:test";
import { isConstraint } from "../notes/rules.ts";
import { isAcknowledgement } from "./closings.ts";
import { isCompletion, isDecision } from "./patterns.ts";
import { capText, errorExcerpt, firstErrorLine, splitSentences } from "../notes/text.ts";

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

test("splitSentences does not split inside inline code", () => {
  expect(splitSentences("Fixed with `a ?? []`. Then `x. y` ran.")).toEqual(["Fixed with `a ?? []`.", "Then `x. y` ran."]);
});

describe("splitSentences cuts at sentence ends", () => {
  test.each([
    ["a space after a stop", "One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]],
    ["any run of blanks (tabs, no-break spaces)", "One.\t  Two.\u00a0Three.", ["One.", "Two.", "Three."]],
    ["no blank, no cut", "v1.2.3 and e.g.this", ["v1.2.3 and e.g.this"]],
    ["a stop at the very end", "Done.", ["Done."]],
    ["blanks after the last stop", "Done.   ", ["Done."]],
    ["repeated stops", "Wait... what?! Really.", ["Wait...", "what?!", "Really."]],
    ["Chinese and Japanese stops need no blank", "完成了。测试通过！还有吗？好", ["完成了。", "测试通过！", "还有吗？", "好"]],
    ["a CJK stop then a blank", "完成了。 Next.", ["完成了。", "Next."]],
    ["stops in a row", "。。Go", ["。", "。", "Go"]],
  ])("%s", (_name, input, expected) => {
    expect(splitSentences(input)).toEqual(expected);
  });

  test("a caller changing what it got does not change the next split of the same text", () => {
    // Long enough to be kept (short texts are split afresh every time).
    const text = `Keep this sentence as it is. ${"And this one, which is long enough to be kept. ".repeat(2).trim()}`;
    const first = splitSentences(text);
    first.push("extra");
    first[0] = "changed";
    expect(splitSentences(text)).toEqual([
      "Keep this sentence as it is.",
      "And this one, which is long enough to be kept.",
      "And this one, which is long enough to be kept.",
    ]);
  });
});

describe("firstErrorLine", () => {
  test.each([
    [
      "prefers a line naming an error",
      "FAIL a.test.ts\nReferenceError: x is not defined\nCommand exited with code 1",
      "ReferenceError: x is not defined",
    ],
    ["falls back to a failure line", "building\n1 test failed\nCommand exited with code 1", "1 test failed"],
    ["skips minified lines and stack frames", `${"x".repeat(500)} error\n    at foo (a.js:1)\nError: boom`, "Error: boom"],
    ["keeps an abort", "Command aborted", "Command aborted"],
    [
      "prefers an error with its message over a FAIL banner",
      "FAIL src/a.test.ts\n● a › b\nTypeError: x is undefined",
      "TypeError: x is undefined",
    ],
    [
      "prefers a failed test over a generic error word",
      "FAIL src/a.test.ts\n  ✕ matches the snapshot (9 ms)\nerror: x",
      "✕ matches the snapshot (9 ms)",
    ],
    [
      "reads npm's error code",
      "npm notice Publishing to https://registry.npmjs.org/\nnpm ERR! code EOTP\nnpm ERR! one-time password",
      "npm ERR! code EOTP",
    ],
  ])("%s", (_name, output, expected) => {
    expect(firstErrorLine(output)).toBe(expected);
  });

  test("errorExcerpt adds the values a test expected and received", () => {
    const output = '✗ parses the gap [0.4ms]\n\nerror: expect(received).toBe(expected)\n\nExpected: "01:30"\nReceived: "02:30"\n';
    expect(errorExcerpt(output)).toBe('✗ parses the gap [0.4ms] (expected "01:30", received "02:30")');
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
  ["perfect, thanks!", true],
  ["ok 👍", true],
  ["wow, it works", true],
  ["do it all", false],
  // Closings end the session: they ask for nothing.
  ["Thanks, that is all.", true],
  ["that's all", true],
  ["That’s it for now, thanks!", true],
  ["thank you, done", true],
  ["ok, we're done here", true],
  ["Nothing else, thanks.", true],
  ["that will be all", true],
  ["great, bye!", true],
  ["I'm done for today 👍", true],
  // A closing with a request is a request.
  ["Thanks, that is all for the parser. Now add tests.", false],
  ["that's all wrong, fix it", false],
  ["done with the parser? then do the lexer", false],
  ["Is that all?", false],
])("isAcknowledgement(%p) is %p", (text, expected) => {
  expect(isAcknowledgement(text)).toBe(expected);
});

describe("patterns", () => {
  test.each([
    ["Never change the public API.", true],
    ["Always run `npm test` first.", true],
    ["Please don't touch the lockfile.", true],
    ["make sure toolText is also used.", false],
    ["make sure the build still passes afterwards.", true],
    ["no conosle logs!", true],
    ["No external services for this.", true],
    ["should be dimmer, don't modify the theme, look into the footer sources", true],
    ["invalid themes must NEVER explode", true],
    ["only seems to happen for accounts that never ordered anything.", false],
    ["i think the component doesn't adhere to the invariant that lines must not be wider", false],
    ["i selected the theme and got a crash, that should never happen.", false],
    ["no, that's not it", false],
    ["no need for linkGray", false],
    ["Only touch files under src/.", true],
    ["E2E tests only.", true],
    ["i don't understand", false],
    ["there's only one file left to fix up", false],
    ["should we always do that?", false],
    ["Keep the public API identical (re-export from lib.rs).", true],
    ["keep it simple", true],
    ["Keep the bundle under 50 kB.", true],
    ["keep the old endpoint working", true],
    ["keep going", false],
    ["keep working on the parser", false],
    ["Keep an eye on memory use.", false],
    ["keep the logs in a file", false],
    ["Use British spelling throughout.", true],
    ["Name files in kebab-case everywhere.", true],
    ["From now on, run the tests with bun test.", true],
    ["rename parseArgs to parseFlags everywhere", false],
    ["Use SQLite for the store.", false],
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
