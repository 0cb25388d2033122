import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reusedChunks, utf8 } from "../../fixtures/chunks.ts";
import { SESSION_FIXTURES } from "../../fixtures/sessions/load.ts";
import { AgentError } from "../errors.ts";
import { readLines, splitLines } from "./lines.ts";
import { parseSession } from "./formats/pi/parse.ts";

const lines = (input: Parameters<typeof splitLines>[0]) => [...splitLines(input)];

describe("splitLines", () => {
  const text = 'first\r\n\n  \n{"é":"naïve → 日本語 🚀"}\nlast';

  test("numbers lines from 1, skips blank ones, strips \\r and marks an unended last line", () => {
    expect(lines(text)).toEqual([
      { line: 1, text: "first", ended: true, eol: "\r\n" },
      { line: 4, text: '{"é":"naïve → 日本語 🚀"}', ended: true, eol: "\n" },
      { line: 5, text: "last", ended: false, eol: "" },
    ]);
  });

  test.each([1, 2, 3, 5, 7, 64])("bytes in chunks of %i, in one reused buffer, read the same as the text", (size) => {
    // Small chunks split "\r\n" pairs and multi-byte characters across chunk boundaries.
    expect(lines(reusedChunks(utf8(text), size))).toEqual(lines(text));
  });

  test("one array of bytes reads the same as the text", () => {
    expect(lines(utf8(text))).toEqual(lines(text));
  });

  test.each([
    { name: "no bytes", input: "" },
    { name: "only line breaks", input: "\n\r\n\n" },
  ])("$name: no lines", ({ input }) => {
    expect(lines(input)).toEqual([]);
    expect(lines(utf8(input))).toEqual([]);
  });

  test("bytes that are not UTF-8 become U+FFFD instead of failing", () => {
    expect(lines(new Uint8Array([0x61, 0xff, 0x62, 0x0a]))).toEqual([{ line: 1, text: "a\ufffdb", ended: true, eol: "\n" }]);
  });
});

describe("readLines from bytes: the line ends and blank lines found in the bytes", () => {
  // [case, the line's bytes before its "\n", what the reader gets: its text and eol, or nothing for a blank line]
  const CASES: [string, string, { text: string; eol: string } | undefined][] = [
    ["a record", '{"a":1}', { text: '{"a":1}', eol: "\n" }],
    ["a record ended by CRLF", '{"a":1}\r', { text: '{"a":1}', eol: "\r\n" }],
    ["a lone carriage return", "\r", undefined],
    ["blanks and a carriage return", " \t \r", undefined],
    ["a no-break space (blank to trim)", "\u00a0", undefined],
    ["a line separator (blank to trim)", "\u2028\r", undefined],
    ["a byte-order mark alone (dropped by the decoder)", "\ufeff", undefined],
    ["a byte-order mark and CRLF", "\ufeff\r", undefined],
    ["a byte-order mark before a record", '\ufeff{"a":1}\r', { text: '{"a":1}', eol: "\r\n" }],
    ["text after blanks", '  {"a":1} ', { text: '  {"a":1} ', eol: "\n" }],
    ["a lone brace", "{", { text: "{", eol: "\n" }],
  ];

  test.each(CASES)("%s: whole, and in chunks of 1 and 3 bytes", (_name, line, expected) => {
    const bytes = utf8(`${line}\n{"z":0}\n`);
    const want = [...(expected ? [{ line: 1, ...expected, ended: true }] : []), { line: 2, text: '{"z":0}', ended: true, eol: "\n" }];
    for (const input of [bytes, reusedChunks(bytes, 1), reusedChunks(bytes, 3)]) expect(lines(input)).toEqual(want);
  });

  test("the bound on a line's bytes counts its carriage return, whether the line lies in one chunk or across several", () => {
    const text = ['{"a":"1234"}', '{"a":"12345"}', '{"a":"1234"}\r', '{"a":"123456"}', "\u0000{}", '{"z":0}'].join("\n");
    const tooLong = "longer than 13 bytes; skipped unread";
    const want = [
      { line: 1, text: '{"a":"1234"}', ended: true, eol: "\n" },
      { line: 2, text: '{"a":"12345"}', ended: true, eol: "\n" },
      { line: 3, text: '{"a":"1234"}', ended: true, eol: "\r\n" },
      { line: 4, text: "", ended: true, eol: "\n", unusable: tooLong },
      { line: 5, text: "\u0000", ended: true, eol: "\n", unusable: "holds NUL bytes (a write cut short by a crash?); skipped unread" },
      { line: 6, text: '{"z":0}', ended: false, eol: "" },
    ];
    for (const input of [utf8(text), reusedChunks(utf8(text), 1), reusedChunks(utf8(text), 5), reusedChunks(utf8(text), 64)])
      expect([...splitLines(input, { maxLineBytes: 13 })]).toEqual(want);
  });

  test("many lines in one chunk read as they do one chunk per byte (lines are cut ahead in batches)", () => {
    const text = Array.from({ length: 700 }, (_, i) => (i % 7 === 3 ? " " : `{"n":${i}}${i % 5 === 0 ? "\r" : ""}`)).join("\n");
    const whole = lines(utf8(text));
    expect(whole).toEqual(lines(reusedChunks(utf8(text), 1)));
    expect(whole).toHaveLength(600);
    expect(whole.at(-1)).toEqual({ line: 700, text: '{"n":699}', ended: false, eol: "" });
  });

  test("lines of hundreds of KB in one array read whole, each batch ending past its byte bound", () => {
    const big = (n: number) => `{"n":${n},"t":"${String(n).repeat(600_000)}"}`;
    const text = `${[big(1), big(2), "", big(3), big(4)].join("\n")}\n`;
    expect(lines(utf8(text)).map((l) => [l.line, l.text.length, l.text === big(Number(l.text[5]))])).toEqual([
      [1, big(1).length, true],
      [2, big(2).length, true],
      [4, big(3).length, true],
      [5, big(4).length, true],
    ]);
  });

  test("a cut multi-byte character before CRLF reads as decoding the line alone does", () => {
    const bytes = new Uint8Array([0x7b, 0xe2, 0x82, 0x0d, 0x0a]);
    const alone = new TextDecoder().decode(bytes.subarray(0, 4)).slice(0, -1);
    expect(lines(bytes)).toEqual([{ line: 1, text: alone, ended: true, eol: "\r\n" }]);
    expect(alone).toBe("{\ufffd");
  });

  test("the cursor stops reading chunks when closed early, and not once the lines ran out", () => {
    let returned = 0;
    const chunks = (): Iterator<Uint8Array> => {
      const inner = [utf8('{"a":1}\n'), utf8('{"b":2}\n')][Symbol.iterator]();
      return { next: () => inner.next(), return: () => (returned++, { done: true, value: undefined }) };
    };
    const early = readLines({ [Symbol.iterator]: chunks });
    expect(early.next()?.text).toBe('{"a":1}');
    early.close();
    expect(returned).toBe(1);
    expect(early.next()).toBeUndefined(); // nothing cut ahead is handed out once closed
    const whole = readLines({ [Symbol.iterator]: chunks });
    while (whole.next() !== undefined);
    whole.close();
    expect(returned).toBe(1);
  });
});

describe("splitLines, passOver: lines the reader has no use for are not decoded", () => {
  // Passes over lines that start with "skip", by their bytes.
  const passOver = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 4)) === "skip";
  const text = "keep 1\nskip 2\r\n\nskip é 4\nkeep 5\nskip 6";

  test("they come numbered, marked, without text, their ends noted; the last line without its newline is never passed over (it may be torn)", () => {
    expect([...splitLines(text, { passOver })]).toEqual([
      { line: 1, text: "keep 1", ended: true, eol: "\n" },
      { line: 2, text: "", ended: true, eol: "\r\n", passedOver: true },
      { line: 4, text: "", ended: true, eol: "\n", passedOver: true },
      { line: 5, text: "keep 5", ended: true, eol: "\n" },
      { line: 6, text: "skip 6", ended: false, eol: "" },
    ]);
  });

  test.each([1, 2, 3, 5, 64])("bytes in chunks of %i read as the text does", (size) => {
    expect([...splitLines(reusedChunks(utf8(text), size), { passOver })]).toEqual([...splitLines(text, { passOver })]);
  });

  test("a predicate that takes nothing changes nothing", () => {
    expect([...splitLines(text, { passOver: () => false })]).toEqual(lines(text));
  });
});

describe("splitLines, exact: every byte of the file can be written back", () => {
  const CASES: [name: string, text: string][] = [
    ["LF lines", '{"a":1}\n{"b":2}\n'],
    ["CRLF lines", '{"a":1}\r\n{"b":2}\r\n'],
    ["mixed line ends", '{"a":1}\r\n{"b":2}\n{"c":3}\r\n'],
    ["a byte-order mark", '\ufeff{"a":1}\n{"b":2}\n'],
    ["a byte-order mark and CRLF", '\ufeff{"a":1}\r\n'],
    ["blank lines between, before and after", '\n{"a":1}\n\n\n{"b":2}\n\n'],
    ["blank CRLF lines and lines of blanks", '{"a":1}\r\n\r\n   \n\t\r\n{"b":2}\r\n'],
    ["no final line break", '{"a":1}\n{"b":2}'],
    ["a final carriage return alone", '{"a":1}\n{"b":2}\r'],
    ["trailing blanks on a line", '{"a":1}   \n'],
    ["a byte-order mark on a later line", '{"a":1}\n\ufeff{"b":2}\n'],
  ];
  const rebuilt = (input: Parameters<typeof splitLines>[0]) =>
    [...splitLines(input, { exact: true })].map((l) => `${l.bom ?? ""}${l.text}${l.eol}`).join("");

  test.each(CASES)("%s: as text and in chunks of any size", (_name, text) => {
    expect(rebuilt(text)).toBe(text);
    for (const size of [1, 2, 3, 7, 64]) expect(rebuilt(reusedChunks(utf8(text), size))).toBe(text);
  });

  test("the line numbers are the file's, blank lines counted; a line's text has no byte-order mark", () => {
    const out = [...splitLines(utf8('\ufeff{"a":1}\r\n\n{"b":2}'), { exact: true })];
    expect(out).toEqual([
      { line: 1, text: '{"a":1}', ended: true, eol: "\r\n", bom: "\ufeff" },
      { line: 2, text: "", ended: true, eol: "\n", bom: "" },
      { line: 3, text: '{"b":2}', ended: false, eol: "", bom: "" },
    ]);
  });
});

describe("parseSession reads bytes as it reads text", () => {
  test.each(["v1.jsonl", "v2.jsonl", "v3-branches.jsonl", "omp.jsonl", "bad/malformed-middle.jsonl", "bad/torn-last-line.jsonl"])(
    "%s",
    (name) => {
      const bytes = new Uint8Array(readFileSync(join(SESSION_FIXTURES, name)));
      const fromText = parseSession(new TextDecoder().decode(bytes), name);
      expect(parseSession(bytes, name)).toEqual(fromText);
      expect(parseSession(reusedChunks(bytes, 100), name)).toEqual(fromText);
    },
  );

  test("a PNG is refused as binary data when read as bytes", () => {
    const bytes = new Uint8Array(readFileSync(join(SESSION_FIXTURES, "bad", "binary.jsonl")));
    expect(() => parseSession(reusedChunks(bytes, 4), "b.png")).toThrow(
      new AgentError("NOT_A_SESSION", "b.png:1: not a session: it looks like binary data"),
    );
  });

  test("a refused file is not read to its end", () => {
    let chunksRead = 0;
    let closed = false;
    function* chunks(): Generator<Uint8Array> {
      try {
        for (let i = 0; i < 1000; i++) {
          chunksRead++;
          yield utf8("not a session header\n");
        }
      } finally {
        closed = true;
      }
    }
    expect(() => parseSession(chunks(), "x.jsonl")).toThrow("x.jsonl:1: not a session: the line is not JSON");
    expect(closed).toBe(true);
    expect(chunksRead).toBeLessThan(5);
  });

  test("the missing final newline is noticed in bytes too", () => {
    expect(parseSession(utf8('{"type":"session","id":"s"}'), "s.jsonl").missingFinalNewline).toBe(true);
    expect(parseSession(utf8('{"type":"session","id":"s"}\n'), "s.jsonl").missingFinalNewline).toBe(false);
  });
});

describe("splitLines, long lines across chunks", () => {
  // Lines of kilobytes, ASCII or with one non-ASCII or invalid byte, a byte-order mark on a later
  // line, cut by chunks of several sizes: each line must read as decoding it alone reads it.
  const ascii = (n: number, fill: string) => `{"t":"${fill.repeat(n)}"}`;
  const lineTexts = [
    ascii(9000, "a"),
    ascii(9000, "b"),
    `\ufeff${ascii(20000, "c")}`,
    ascii(3, "d"),
    `{"t":"naïve → 🚀 ${"e".repeat(17000)}"}`,
    ascii(16 * 1024, "f"),
    ascii(1, "g"),
  ];
  const bytes = new Uint8Array([
    ...utf8(`${lineTexts.join("\n")}\r\n`),
    ...new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]), // a byte that is not UTF-8
    ...utf8(`${ascii(40000, "h")}\n\n${ascii(5, "i")}`),
  ]);
  const oneByOne = (exact: boolean) => {
    const out: { line: number; text: string }[] = [];
    let start = 0;
    for (let line = 1; start <= bytes.length; line++) {
      const lf = bytes.indexOf(10, start);
      const end = lf === -1 ? bytes.length : lf;
      let text = new TextDecoder("utf-8", { ignoreBOM: exact }).decode(bytes.subarray(start, end));
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (exact && text.startsWith("\ufeff")) text = text.slice(1);
      if (exact || text.trim() !== "") out.push({ line, text });
      if (lf === -1) break;
      start = lf + 1;
    }
    return out;
  };

  test.each([false, true])("exact %p: whole and in chunks of several sizes, each line as decoded alone", (exact) => {
    const expected = oneByOne(exact);
    for (const input of [bytes, reusedChunks(bytes, 1000), reusedChunks(bytes, 16 * 1024 + 7), reusedChunks(bytes, 1 << 20)])
      expect([...splitLines(input, { exact })].map(({ line, text }) => ({ line, text }))).toEqual(expected);
  });
});
