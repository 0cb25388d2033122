import { expect, test } from "bun:test";
import { isSlashCommand } from "./text.ts";

// isSlashCommand reads "/" and the characters after it by hand: it must say what its pattern says.
const PATTERN = /^\/[\w:-]*$/;

test.each([
  ["/mode", true],
  ["/them", true],
  ["  /compact  ", true],
  ["/", true],
  ["/skill:review-pr", true],
  ["/a_b-c:9", true],
  ["/Users/me/workspaces/pi-mono", false],
  ["/mode now", false],
  ["mode", false],
  ["/é", false],
  ["/mode\n/them", false],
  ["", false],
])("isSlashCommand(%p) is %p", (text, expected) => {
  expect(isSlashCommand(text)).toBe(expected);
  expect(PATTERN.test(text.trim())).toBe(expected);
});

test("isSlashCommand says what its pattern says, whatever follows the slash", () => {
  const differ: string[] = [];
  for (let code = 0; code <= 0x3000; code++) {
    const c = String.fromCharCode(code);
    for (const text of [`/${c}`, `/a${c}`, `/${c}b`, ` /x${c}y `, `${c}/z`])
      if (isSlashCommand(text) !== PATTERN.test(text.trim())) differ.push(text);
  }
  expect(differ).toEqual([]);
});
