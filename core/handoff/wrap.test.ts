import { describe, expect, test } from "bun:test";
import { wrapHandoffDocument } from "./wrap.ts";

describe("wrapHandoffDocument", () => {
  test("is the spec's wrapper, exactly", () => {
    expect(wrapHandoffDocument("DOC")).toBe(
      "<handoff-context>\nDOC\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.",
    );
  });

  const TAIL = "\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.";
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
