import { describe, expect, test } from "bun:test";
import { RAW_CONTROL, TERMINAL_ESCAPES } from "../../fixtures/terminal-escapes.ts";
import { stringifyForTerminal, stripControls } from "./terminal.ts";

describe("stripControls", () => {
  test.each(TERMINAL_ESCAPES.map((e) => [e.name, e.text] as const))("%s is removed, the text around it kept", (_, sequence) => {
    const stripped = stripControls(`before ${sequence} after`);
    expect(stripped).not.toMatch(RAW_CONTROL);
    expect(stripped).toStartWith("before ");
    expect(stripped).toEndWith(" after");
  });

  test.each([
    ["colour", "\x1b[31mbad\x1b[0m", "bad"],
    ["bold yellow, reset without a number", "\x1b[1;33mwarn\x1b[m", "warn"],
    ["window title", "\x1b]0;pwned\x07text", "text"],
    ["hyperlink", "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\", "docs"],
    ["C1 CSI", "\u009b2Jclear", "clear"],
    ["two-character escape", "\x1bcreset", "reset"],
  ])("%s: removed whole, no body left as text", (_, sequence, left) => {
    expect(stripControls(sequence)).toBe(left);
  });

  test("tab, newline and ordinary non-ASCII text stay", () => {
    const text = "a\tb\nc — café, 日本語, emoji 🎉, Arabic مرحبا, zero-width joiner 👩\u200d💻";
    expect(stripControls(text)).toBe(text);
  });
});

describe("stringifyForTerminal", () => {
  test.each(TERMINAL_ESCAPES.map((e) => [e.name, e.text] as const))("%s: escaped, the same JSON value", (_, sequence) => {
    const value = { text: `a${sequence}b`, list: [sequence] };
    const json = stringifyForTerminal(value);
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(value);
  });

  test("line and paragraph separators are escaped too; everything else is JSON.stringify's", () => {
    expect(stringifyForTerminal({ a: "x\u2028y\u2029z" })).toBe('{"a":"x\\u2028y\\u2029z"}');
    const plain = { a: "café", b: [1, 2.5, null], c: "tab\tnew\nline" };
    expect(stringifyForTerminal(plain)).toBe(JSON.stringify(plain));
    expect(stringifyForTerminal(plain, 2)).toBe(JSON.stringify(plain, null, 2));
  });
});
