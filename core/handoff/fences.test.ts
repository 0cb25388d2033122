import { expect, test } from "bun:test";
import { markFencedLines } from "./fences.ts";

/** The lines of `text` that are prose, joined back. */
function prose(text: string): string {
  const lines = text.split("\n");
  const fenced = markFencedLines(lines);
  return lines.filter((_, i) => fenced[i] === false).join("|");
}

test.each([
  ["no fence", "a\nb", "a|b"],
  ["a backtick fence, markers included", "a\n```ts\ncode\n```\nb", "a|b"],
  ["a tilde fence", "a\n~~~\ncode\n~~~\nb", "a|b"],
  ["an indented fence", "a\n  ```\ncode\n  ```\nb", "a|b"],
  ["a longer closing fence", "a\n```\ncode\n`````\nb", "a|b"],
  ["a shorter mark inside a longer fence", "a\n````\n```\nstill code\n````\nb", "a|b"],
  ["the other mark inside a fence", "a\n```\n~~~\nstill code\n```\nb", "a|b"],
  ["a fence never closed", "a\n```\ncode\nmore", "a"],
  ["two backticks", "a\n``\nb", "a|``|b"],
])("%s", (_, text, expected) => {
  expect(prose(text)).toBe(expected);
});
