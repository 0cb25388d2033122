import { describe, expect, test } from "bun:test";
import { createWithholder, createWithholding, WITHHELD } from "./withhold.ts";

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

  /** [how the key is split, the text with the key split]: each reads as the whole key on a screen. */
  const SPLIT: [string, (a: string, b: string) => string][] = [
    ["a right-to-left override", (a, b) => `${a}\u202e${b}`],
    ["a bell", (a, b) => `${a}\x07${b}`],
    ["a C1 control (NEL)", (a, b) => `${a}\u0085${b}`],
    ["a C1 CSI", (a, b) => `${a}\u009b0m${b}`],
    ["DEL", (a, b) => `${a}\x7f${b}`],
    ["a zero-width space", (a, b) => `${a}\u200b${b}`],
    ["a soft hyphen", (a, b) => `${a}\u00ad${b}`],
    ["a byte-order mark", (a, b) => `${a}\ufeff${b}`],
    ["a colour escape", (a, b) => `${a}\x1b[31;1m${b}`],
    ["a window-title escape", (a, b) => `${a}\x1b]0;title\x07${b}`],
    ["a two-character escape", (a, b) => `${a}\x1b(B${b}`],
    ["several, between every character", (a, b) => [...`${a}${b}`].join("\u200e\x1b[0m")],
  ];
  const LONG = "sk-or-v1-0123456789abcdef0123456789abcdef";
  const SHORT = "dummy1";

  test.each(SPLIT)("a key split by %s is withheld whole", (_how, split) => {
    const text = `before ${split(LONG.slice(0, 9), LONG.slice(9))} after`;
    expect(createWithholder([LONG])(text)).toBe(`before ${WITHHELD} after`);
    const short = `key ${split(SHORT.slice(0, 3), SHORT.slice(3))}.`;
    expect(createWithholder([SHORT])(short)).toBe(`key ${WITHHELD}.`);
  });

  // Every end of every range of invisible characters, and the printable ones around them.
  const INVISIBLE = [
    0x00, 0x08, 0x0b, 0x0d, 0x1b, 0x1f, 0x7f, 0x9f, 0xad, 0x61c, 0x180e, 0x200b, 0x200f, 0x202a, 0x202e, 0x2060, 0x2064, 0x2066, 0x2069,
    0xfeff,
  ];
  const VISIBLE = [0x09, 0x0a, 0x20, 0x7e, 0xa0, 0xac, 0xae, 0x2010, 0x2065, 0xfefe];
  test.each(INVISIBLE.map((code) => [code.toString(16), String.fromCharCode(code)]))(
    "a key split by U+%s is withheld whole",
    (_code, char) => {
      expect(createWithholder([LONG])(`a ${LONG.slice(0, 9)}${char}${LONG.slice(9)} b`)).toBe(`a ${WITHHELD} b`);
    },
  );
  test("an invisible character after runs of visible non-ASCII text still splits nothing", () => {
    const text = `é — ✓ ${LONG.slice(0, 9)}\u200b${LONG.slice(9)} ü`;
    expect(createWithholder([LONG])(text)).toBe(`é — ✓ ${WITHHELD} ü`);
  });
  test.each(VISIBLE.map((code) => [code.toString(16), String.fromCharCode(code)]))("a key split by U+%s is not the key", (_code, char) => {
    const text = `a ${LONG.slice(0, 9)}${char}${LONG.slice(9)} b`;
    expect(createWithholder([LONG])(text)).toBe(text);
  });

  test("invisible characters elsewhere, and a key broken by visible text, are left alone", () => {
    const text = `a\u202eb ${LONG.slice(0, 9)}\x1b[31mX${LONG.slice(9)} \u200b`;
    expect(createWithholder([LONG])(text)).toBe(text);
  });
});

describe("JSON text withholding leaves alone, unparsed (keepsJson)", () => {
  /** Every string (keys too) and number in a JSON value, as withholding reads them. */
  function piecesOf(value: unknown): string[] {
    if (typeof value === "string") return [value];
    if (typeof value === "number") return [String(value)];
    if (Array.isArray(value)) return value.flatMap(piecesOf);
    if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([k, v]) => [k, ...piecesOf(v)]);
    return [];
  }
  const CASES: [secrets: string[], json: string, keeps: boolean][] = [
    [["sk-bench"], '{"command":"ls -la","n":3}', true],
    [["sk-bench"], '{"command":"echo sk-bench"}', false],
    [["sk-bench"], '{"command":"echo \\u0073k-bench"}', false],
    // Line breaks, tabs, quotes and backslashes escaped: each string reads as the text does, its forms as their JSON forms.
    [["sk-bench"], '{"command":"a\\nb\\tc \\"q\\" \\\\\\" \\\\n"}', true],
    [["sk-bench"], '{"command":"echo \\"sk-bench\\"\\n"}', false],
    [['sk"bench'], '{"command":"echo sk\\"bench"}', false],
    [["sk\\bench"], '{"command":"echo sk\\\\bench"}', false],
    [["sk\nbench"], '{"command":"sk\\nbench"}', false],
    [["sk\tbench"], '{"a\\tb":"sk\\tbench"}', false],
    // A string holding a form JSON-escaped twice (JSON text quoted in JSON text) stands in the text
    // escaped three times, which is none of the secret's forms: the strings must still be read.
    [['sk"bench'], String.raw`{"command":"echo sk\\\\\\\"bench"}`, false],
    [['sk"bench'], String.raw`{"sk\\\\\\\"bench":1}`, false],
    [["sk\nbench"], String.raw`{"command":"sk\\\\nbench"}`, false],
    [["sk\tbench"], String.raw`{"command":"sk\\\\tbench"}`, false],
    [["sk\\nbench"], String.raw`{"command":"sk\\\\\\\\nbench"}`, false],
    [['sk\\"bench'], String.raw`{"command":"sk\\\\\\\\\\\\\\\"bench"}`, false],
    // Any other escape may spell what the text does not hold: a form, an invisible character, a surrogate.
    [["sk-bench"], '{"command":"sk\\u002dbench"}', false],
    [["sk/bench"], '{"command":"sk\\/bench"}', false],
    [["sk-bench"], '{"command":"a\\bb"}', false],
    [["sk-bench"], '{"command":"a\\fb"}', false],
    [["sk-bench"], '{"command":"a\\rb"}', false],
    // An escaped backslash before another letter is taken for an escape: parsed, as any other.
    [["sk-bench"], '{"command":"a\\\\u0073k-bench"}', false],
    [["sk-bench"], '{"command":"a\\\\\\u0073k-bench"}', false],
    [["sk-bench"], '{"command":"\\\\\\\\\\/"}', false],
    [["sk-bench"], '"ends in a backslash\\', false],
    [["sk-bench"], '{"command":"a\u200bb"}', false],
    [["sk-bench"], '{"sk-bench":1}', false],
    [["100000"], '{"n":1e5}', false],
    [["12345678901234567000"], "[12345678901234567890]", false],
    // A number too large for a double is read as Infinity, a word the text need not hold.
    [["Infinity"], '{"n":1e999}', false],
    [["-Infinity"], "[-1e400]", false],
    [[], '{"text":"\\ud800"}', false],
    [[], '{"text":"plain"}', true],
    [["ollama1"], '{"text":"ollama12 and xollama1"}', false],
    [["ollama1"], '{"text":"nothing here"}', true],
    [["ollama1"], "not json at all", true],
  ];
  test("generated JSON texts: whatever is kept unparsed, withholding gives back piece by piece", () => {
    const secrets = ["sk-bench", 'q"uo\\te', "tab\tkey", "line\nkey"];
    const { withhold, keepsJson } = createWithholding(secrets);
    const bits = [
      "sk-",
      "bench",
      "sk-bench",
      'q"uo',
      "\\te",
      "tab",
      "\t",
      "key",
      "line",
      "\n",
      '"',
      "\\",
      "/",
      "ls -la",
      " ",
      "\u200b",
      "é",
      "\r",
    ];
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const text = () => Array.from({ length: 1 + (next() % 5) }, () => bits[next() % bits.length]).join("");
    let kept = 0;
    for (let i = 0; i < 3000; i++) {
      const value = { [text()]: text(), list: [text(), next() % 1000], nested: { command: text() } };
      const json = JSON.stringify(value);
      if (!keepsJson(json)) continue;
      kept++;
      expect(withhold(json)).toBe(json);
      for (const piece of piecesOf(value)) expect({ json, piece, withheld: withhold(piece) }).toEqual({ json, piece, withheld: piece });
    }
    expect(kept).toBeGreaterThan(100);
  });

  test("generated JSON texts holding a secret's form, escaped once, twice or three times: none withholding changes is kept", () => {
    const secrets = ['q"uote-key', "back\\slash\\n-key", "tab\tkey", "line\nkey", "plain-key-1234"];
    const { withhold, keepsJson } = createWithholding(secrets);
    const inJson = (text: string) => JSON.stringify(text).slice(1, -1);
    const escaped = secrets.flatMap((secret) => [secret, inJson(secret), inJson(inJson(secret)), inJson(inJson(inJson(secret)))]);
    const bits = [...escaped, "ls -la", " ", "\n", "\t", '"', "\\", "x", "-key", "q", "\\n"];
    let seed = 11;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const text = () => Array.from({ length: 1 + (next() % 3) }, () => bits[next() % bits.length]).join("");
    let changed = 0;
    for (let i = 0; i < 3000; i++) {
      const value = next() % 2 ? { [text()]: 1 } : { command: text(), n: next() % 1000 };
      const json = JSON.stringify(value);
      if (!piecesOf(value).some((piece) => withhold(piece) !== piece)) continue;
      changed++;
      expect({ json, kept: keepsJson(json) }).toEqual({ json, kept: false });
    }
    expect(changed).toBeGreaterThan(100);
  });

  test.each(CASES)("with %p withheld, %p is kept unparsed: %p", (secrets, json, keeps) => {
    const { withhold, keepsJson } = createWithholding(secrets);
    expect(keepsJson(json)).toBe(keeps);
    // What it keeps is kept: the text itself, and every piece of its value.
    if (keeps) {
      expect(withhold(json)).toBe(json);
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch {
        return;
      }
      for (const piece of piecesOf(value)) expect(withhold(piece)).toBe(piece);
    }
  });
});
