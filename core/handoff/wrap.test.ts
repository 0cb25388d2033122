import { describe, expect, test } from "bun:test";
import { isWrappedHandoff, unwrapHandoffDocument } from "../session/formats/handoff-text.ts";
import { CLOSE_LIKE_VARIANTS } from "../../fixtures/close-like-tags.ts";
import { wrapHandoffDocument } from "./wrap.ts";

describe("wrapHandoffDocument", () => {
  test("is the spec's wrapper, exactly", () => {
    expect(wrapHandoffDocument("DOC")).toBe(
      "<handoff-context>\nDOC\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.",
    );
  });

  const TAIL =
    "\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.";
  test.each(CLOSE_LIKE_VARIANTS)("writes %s with a backslash before the slash, nothing else changed", (_, document, inside) => {
    expect(wrapHandoffDocument(document)).toBe(`<handoff-context>\n${inside}${TAIL}`);
  });

  test.each(CLOSE_LIKE_VARIANTS)("%s: no closing tag a loose reader takes is left inside the wrapper", (_, document) => {
    const inside = wrapHandoffDocument(document).slice("<handoff-context>\n".length, -TAIL.length);
    expect(inside).not.toMatch(/<[ \t\r\n]*\/[ \t]*handoff-context[ \t\r\n]*>/i);
  });
});

describe("reading a wrapped document back (unwrapHandoffDocument) undoes exactly the wrapper", () => {
  test.each([
    ["a plain document", "## Goal\nShip it."],
    ["the empty document", ""],
    ["a closing tag at the very start", "</handoff-context> x"],
    ["a whole wrapper quoted inside", wrapHandoffDocument("an older document")],
    ["a wrapper quoted inside a quoted wrapper", wrapHandoffDocument(wrapHandoffDocument("</Handoff-Context >"))],
    ["leading and trailing newlines", "\n\n## Goal\n\n"],
    [
      "the trailer sentence itself",
      "The above is a handoff document from a previous session. Use this context to continue the work seamlessly.",
    ],
    ["CRLF line ends", "## Goal\r\nShip it.\r\n"],
    ["every loose spelling on one line", CLOSE_LIKE_VARIANTS.map(([, document]) => document).join(" ")],
    ["backslashes that are not before a tag's slash", String.raw`C:\temp\ <\ /handoff-context> \/handoff-context> \\`],
    ...CLOSE_LIKE_VARIANTS.map(([name, document]) => [name, document] as const),
  ])("%s comes back byte for byte", (_, document) => {
    expect(unwrapHandoffDocument(wrapHandoffDocument(document))).toBe(document);
  });

  test.each([
    ["no wrapper", "## Goal\nShip it."],
    ["an opening tag not at the start", "Note: <handoff-context>\nx\n</handoff-context>"],
    ["an opening tag without its newline", "<handoff-context>x\n</handoff-context>"],
    ["never closed", "<handoff-context>\nx"],
    ["closed only by the escaped spelling", "<handoff-context>\nx\n<\\/handoff-context>"],
  ])("%s is not a wrapped document", (_, text) => {
    expect(unwrapHandoffDocument(text)).toBeUndefined();
    expect(isWrappedHandoff(text)).toBe(false);
  });
});
