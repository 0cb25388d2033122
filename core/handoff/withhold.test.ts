import { describe, expect, test } from "bun:test";
import { createWithholder, WITHHELD } from "./withhold.ts";

/** [key, text, expected]: keys of every shape a user may configure. */
const CASES: [key: string, text: string, expected: string][] = [
  ["sk-or-v1-0123456789abcdef0123456789abcdef", "KEY=sk-or-v1-0123456789abcdef0123456789abcdef!", `KEY=${WITHHELD}!`],
  // Long keys go wherever they are, even glued to other text.
  ["sk-or-v1-0123456789abcdef0123456789abcdef", "xsk-or-v1-0123456789abcdef0123456789abcdefx", `x${WITHHELD}x`],
  // Short keys go as whole tokens only, so the words around them stay.
  ["dummy1", "OPENAI_API_KEY=dummy1 but not dummy12 or xdummy1", `OPENAI_API_KEY=${WITHHELD} but not dummy12 or xdummy1`],
  ["ollama", "ollama serves ollama-models; key ollama.", `${WITHHELD} serves ${WITHHELD}-models; key ${WITHHELD}.`],
  ["abcd", "abcd abcde", `${WITHHELD} abcde`],
  // Odd characters: regex syntax, quotes, backslashes, spaces, non-ASCII.
  ["k.*+?(x)[y]{z}|$^", "a k.*+?(x)[y]{z}|$^ b kXXX", `a ${WITHHELD} b kXXX`],
  ['ke"y\\with\\quotes', 'raw ke"y\\with\\quotes json "ke\\"y\\\\with\\\\quotes"', `raw ${WITHHELD} json "${WITHHELD}"`],
  ["key with spaces 123", "url key%20with%20spaces%20123 and key with spaces 123", `url ${WITHHELD} and ${WITHHELD}`],
  ["clé-secrète-ünï-42", "K=clé-secrète-ünï-42", `K=${WITHHELD}`],
  ["-_-_", "a -_-_ b", `a ${WITHHELD} b`],
  // Too short to be a secret: left alone.
  ["abc", "abc abc", "abc abc"],
  ["", "anything", "anything"],
];

describe("withholding the configured key", () => {
  test.each(CASES)("key %p in %p", (key, text, expected) => {
    expect(createWithholder([key])(text)).toBe(expected);
  });

  test("several keys, one containing another, and undefined ones", () => {
    const withhold = createWithholder(["abcdefghijkl1234", "abcdefghijkl1234-long-version", undefined]);
    expect(withhold("abcdefghijkl1234-long-version abcdefghijkl1234")).toBe(`${WITHHELD} ${WITHHELD}`);
  });

  test("no keys: the text itself comes back", () => {
    const text = "sk-or-v1-anything";
    expect(createWithholder([])(text)).toBe(text);
  });
});
