/**
 * The configured key (withheld in every request, document, file and printed line) wherever colour
 * or an escape of text stands right around it, in each form it takes in text: as it is, in JSON
 * text, in JSON text quoted in JSON text, in a URL. A short key must still stand as a whole token.
 */
import { describe, expect, test } from "bun:test";
import { createWithholder, WITHHELD } from "./withhold.ts";

const KEYS = [
  ["a short key", "dummy1"],
  ["a long key", "sk-test-Zq8vLm3Rt7Wx2Kp9"],
  ["a key with a quote and a backslash", String.raw`ab"c\d-key9`],
] as const;

/** The forms a key takes in written text. */
const formsOf = (key: string): [what: string, form: string][] => [
  ["as it is", key],
  ["in JSON text", JSON.stringify(key).slice(1, -1)],
  ["in JSON text in JSON text", JSON.stringify(JSON.stringify(key).slice(1, -1)).slice(1, -1)],
  ["URL-encoded", encodeURIComponent(key)],
];

const BEFORE = [
  "",
  "\x1b[31m",
  "\u009b1m",
  "\x1b]8;;http://127.0.0.1/\x07",
  "\u200b",
  String.raw`\u001b[31m`,
  String.raw`\\u001b[31m`,
  String.raw`\x1b[1m`,
  String.raw`\033[1m`,
  String.raw`\e[1m`,
  String.raw`\n`,
  String.raw`\\n`,
  String.raw`\r\n`,
  String.raw`\t`,
  String.raw`\"`,
  String.raw`\\\"`,
  "%20",
  "=",
  "'",
];
const AFTER = ["", "\x1b[0m", "\u200b", String.raw`\u001b[0m`, String.raw`\n`, String.raw`\"`, "%0A", String.raw`\t`];

describe("the configured key is withheld after and before colour and escapes, in every form", () => {
  const rows = KEYS.flatMap(([what, key]) =>
    formsOf(key).flatMap(([how, form]) => BEFORE.flatMap((before) => AFTER.map((after) => [what, how, before, after, key, form] as const))),
  );
  test.each(rows)("%s %s between %p and %p", (_what, _how, before, after, key, form) => {
    const text = `x ${before}${form}${after} y`;
    expect(createWithholder([key])(text)).toBe(`x ${before}${WITHHELD}${after} y`);
  });

  test.each(KEYS)("%s with colour or an invisible character between its characters is withheld", (_what, key) => {
    for (const between of ["\x1b[0m", "\x1b[1;38;5;208m", "\u200b", "\u00ad"]) {
      expect(createWithholder([key])(`x ${[...key].join(between)} y`)).toBe(`x ${WITHHELD} y`);
    }
  });

  test("a short key inside a longer word, after an escape too, is left alone", () => {
    const withhold = createWithholder(["dummy1"]);
    for (const text of ["xdummy1", "dummy12", String.raw`\u001b[31mdummy12`, "\x1b[31mdummy1x", "%20dummy1a"]) {
      expect(withhold(text)).toBe(text);
    }
  });
});
