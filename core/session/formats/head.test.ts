import { describe, expect, test } from "bun:test";
import { reusedChunks, utf8 } from "../../../fixtures/chunks.ts";
import { splitLines, type SessionBytes } from "../lines.ts";
import { HEAD_LINES, peekHead } from "./head.ts";
import { readSession } from "./read.ts";

/** Every byte a session's input yields, joined. */
function bytesOf(input: string | SessionBytes): Uint8Array {
  if (typeof input === "string") return utf8(input);
  const parts: Uint8Array[] = [];
  // Copied as they come: a producer may reuse a chunk once the next is asked for.
  for (const chunk of input instanceof Uint8Array ? [input] : input) parts.push(chunk.slice());
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** Lines of JSON-ish text with blank lines, CRLF and multi-byte characters, no final newline. */
const TEXT = [
  ...Array.from({ length: 30 }, (_, i) => `{"n":${i},"t":"naïve → 日本語 🚀 ${"x".repeat(i * 7)}"}${i % 4 === 0 ? "\r" : ""}`),
  "",
  "  ",
  "last",
].join("\n");

describe("peekHead: the first lines, and the whole file still to read", () => {
  const expectedHead = [...splitLines(TEXT)].slice(0, HEAD_LINES);

  test.each([1, 2, 3, 7, 64, 4096, 1 << 20])(
    "chunks of %i bytes in one reused buffer: the head is the first lines, the rest replays every byte",
    (size) => {
      const peeked = peekHead(reusedChunks(utf8(TEXT), size));
      expect(peeked.head).toEqual(expectedHead);
      expect(new TextDecoder().decode(bytesOf(peeked.input))).toBe(TEXT);
    },
  );

  test.each(["text", "one array of bytes"])("%s: the same head, the input as it was", (kind) => {
    const input = kind === "text" ? TEXT : utf8(TEXT);
    const peeked = peekHead(input);
    expect(peeked.head).toEqual(expectedHead);
    expect(peeked.input).toBe(input);
  });

  test("a short file: every line, the last one too though it has no \\n", () => {
    const peeked = peekHead(reusedChunks(utf8('{"a":1}\n\n{"b":2}'), 3));
    expect(peeked.head.map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  test("a line cut by the end of what was peeked is not in the head, and still read whole", () => {
    const long = `{"first":"${"y".repeat(3 << 20)}"}`;
    const text = `${long}\n${long}\n`;
    const peeked = peekHead(reusedChunks(utf8(text), 1 << 20));
    // Past 1 MB, one whole line is enough: the second is not waited for.
    expect(peeked.head.map((l) => l.text.length)).toEqual([long.length]);
    expect(bytesOf(peeked.input).length).toBe(utf8(text).length);
  });

  test("blank lines are no lines of the head: a header after megabytes of them is still in it", () => {
    // 1.6 MB of them: past the 1 MB after which one whole line would do, so the header is in the second chunk.
    const text = `${"\n \r\n".repeat(400_000)}{"type":"session","version":3,"id":"s","cwd":"/w"}\n`;
    const peeked = peekHead(reusedChunks(utf8(text), 1 << 20));
    expect(peeked.head.map((l) => [l.line, l.text.slice(0, 17)])).toEqual([[800_001, '{"type":"session"']]);
    expect(readSession(reusedChunks(utf8(text), 1 << 20), "b.jsonl").session.header.id).toBe("s");
  });

  test("close stops a file that was never read to its end", () => {
    let closed = false;
    let read = 0;
    function* chunks(): Generator<Uint8Array> {
      try {
        for (let i = 0; i < 1000; i++) {
          read++;
          yield utf8(`${"{}\n".repeat(5)}`);
        }
      } finally {
        closed = true;
      }
    }
    const peeked = peekHead(chunks());
    expect(read).toBe(4); // 20 lines, 5 a chunk
    peeked.close();
    expect(closed).toBe(true);
  });
});

describe("readSession reads a file once, whatever happens", () => {
  function counted(text: string, times: number) {
    const state = { read: 0, closed: false };
    function* chunks(): Generator<Uint8Array> {
      try {
        for (let i = 0; i < times; i++) {
          state.read++;
          yield utf8(text);
        }
      } finally {
        state.closed = true;
      }
    }
    return { state, chunks: chunks() };
  }

  test("a file that is not a session is refused from its first lines, and closed", () => {
    const { state, chunks } = counted('{"not":"a session"}\n', 100_000);
    expect(() => readSession(chunks, "x.jsonl")).toThrow("x.jsonl:1: not a session: it is not a");
    expect(state.closed).toBe(true);
    expect(state.read).toBeLessThanOrEqual(HEAD_LINES);
  });

  test("a session is read to its end, and closed", () => {
    const header = '{"type":"session","version":3,"id":"s","cwd":"/w"}\n';
    const { state, chunks } = counted(header, 1);
    expect(readSession(chunks, "s.jsonl").session.header.id).toBe("s");
    expect(state.closed).toBe(true);
  });

  test("a session whose reader refuses it later is closed too", () => {
    const { state, chunks } = counted('{"type":"session"}\n', 50);
    expect(() => readSession(chunks, "s.jsonl")).toThrow('s.jsonl:1: not a session: the header has no string "id"');
    expect(state.closed).toBe(true);
  });
});
