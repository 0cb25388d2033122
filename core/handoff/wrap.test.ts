import { describe, expect, test } from "bun:test";
import { isWrappedHandoff, unwrapHandoffDocument } from "../session/formats/handoff-text.ts";
import { wrapHandoffDocument } from "./wrap.ts";

describe("wrapHandoffDocument", () => {
  test("is the spec's wrapper, exactly", () => {
    expect(wrapHandoffDocument("DOC")).toBe(
      "<handoff-context>\nDOC\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.",
    );
  });

  const TAIL =
    "\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.";
  test.each([
    ["a closing tag mid-line", "a </handoff-context> b", "a <\\/handoff-context> b"],
    ["a closing tag on its own line", "x\n</handoff-context>\ny", "x\n<\\/handoff-context>\ny"],
    ["two closing tags", "</handoff-context></handoff-context>", "<\\/handoff-context><\\/handoff-context>"],
    ["a closing tag at the very end", "x </handoff-context>", "x <\\/handoff-context>"],
    ["an opening tag: unchanged", "<handoff-context> x", "<handoff-context> x"],
    ["an already escaped tag: unchanged", "<\\/handoff-context>", "<\\/handoff-context>"],
    ["other cases and spacings: unchanged", "</Handoff-Context> </handoff-context >", "</Handoff-Context> </handoff-context >"],
  ])("writes %s inside the wrapper as <\\/handoff-context>, nothing else changed", (_, document, inside) => {
    expect(wrapHandoffDocument(document)).toBe(`<handoff-context>\n${inside}${TAIL}`);
  });
});

describe("reading a wrapped document back (unwrapHandoffDocument) undoes exactly the wrapper", () => {
  test.each([
    ["a plain document", "## Goal\nShip it."],
    ["the empty document", ""],
    ["a closing tag mid-line", "a </handoff-context> b"],
    ["a closing tag on its own line", "x\n</handoff-context>\ny"],
    ["a closing tag at the very end", "x </handoff-context>"],
    ["a closing tag at the very start", "</handoff-context> x"],
    ["two closing tags in a row", "</handoff-context></handoff-context>"],
    ["an opening tag", "<handoff-context> x"],
    ["a whole wrapper quoted inside", wrapHandoffDocument("an older document")],
    ["other cases and spacings", "</Handoff-Context> </handoff-context >"],
    ["leading and trailing newlines", "\n\n## Goal\n\n"],
    [
      "the trailer sentence itself",
      "The above is a handoff document from a previous session. Use this context to continue the work seamlessly.",
    ],
    ["CRLF line ends", "## Goal\r\nShip it.\r\n"],
  ])("%s comes back byte for byte", (_, document) => {
    expect(unwrapHandoffDocument(wrapHandoffDocument(document))).toBe(document);
  });

  test("the spec's one ambiguity: a document that itself spelled the escape reads back unescaped", () => {
    // handoff.md: inside the wrapper only `</handoff-context>` is escaped, nothing else changes.
    expect(unwrapHandoffDocument(wrapHandoffDocument("<\\/handoff-context>"))).toBe("</handoff-context>");
  });

  test.each([
    ["no wrapper", "## Goal\nShip it."],
    ["an opening tag not at the start", "Note: <handoff-context>\nx\n</handoff-context>"],
    ["an opening tag without its newline", "<handoff-context>x\n</handoff-context>"],
    ["never closed", "<handoff-context>\nx"],
    ["closed only by the escaped spelling", "<handoff-context>\nx\n<\\/handoff-context>"],
  ])("%s is no wrapped document", (_, text) => {
    expect(unwrapHandoffDocument(text)).toBeUndefined();
    expect(isWrappedHandoff(text)).toBe(false);
  });
});
