/** The event stream reader: what each way of writing an event stream reads as, chunk borders anywhere. */
import { describe, expect, test } from "bun:test";
import { readEvents, type SseEvent } from "./sse.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function read(chunks: Uint8Array[], limit = 1_000_000): Promise<{ events: SseEvent[]; error?: string; tooLong: boolean }> {
  const events: SseEvent[] = [];
  let tooLong = false;
  try {
    for await (const event of readEvents(streamOf(chunks), limit, () => (tooLong = true))) events.push(event);
    return { events, tooLong };
  } catch (error) {
    return { events, error: error instanceof Error ? error.message : String(error), tooLong };
  }
}

/** Every way to cut `text` in two, and in single bytes: the events must not depend on where the chunks end. */
function cuts(text: string): Uint8Array[][] {
  const all = bytes(text);
  const ways: Uint8Array[][] = [[all], [...all].map((b) => Uint8Array.of(b))];
  for (let at = 1; at < all.length; at++) ways.push([all.slice(0, at), all.slice(at)]);
  return ways;
}

const data = (value: string, event?: string): SseEvent => ({ event, data: value });

describe("events, wherever the chunks end", () => {
  test.each<[string, string, SseEvent[]]>([
    ["lines ended by \\n", 'data: {"a":1}\n\ndata: [DONE]\n\n', [data('{"a":1}'), data("[DONE]")]],
    ["lines ended by \\r\\n", "data: one\r\n\r\ndata: two\r\n\r\n", [data("one"), data("two")]],
    ["lines ended by \\r", "data: one\r\rdata: two\r\r", [data("one"), data("two")]],
    ["several data lines join with \\n", "data: a\ndata: b\n\n", [data("a\nb")]],
    ["a \\r\\n is one line break, cut or not", "data: a\r\ndata: b\r\n\r\n", [data("a\nb")]],
    ["no space after the colon; only one space is dropped", "data:x\n\ndata:  y\n\n", [data("x"), data(" y")]],
    ["comments and unknown fields are skipped", ": keep-alive\nid: 7\nretry: 10\ndata: z\n\n", [data("z")]],
    ["a named event", "event: error\ndata: {}\n\n", [data("{}", "error")]],
    ["a field without a colon is a field with no value", "data\n\n", [data("")]],
    ["blank lines between events are no events", "\n\n\ndata: a\n\n\n\n", [data("a")]],
    ["an event the stream leaves open still counts", "data: last", [data("last")]],
    ["an event open up to a last line break counts", "data: last\n", [data("last")]],
    ["multi-byte characters cut between chunks", "data: é – 漢 😀\n\n", [data("é – 漢 😀")]],
  ])("%s", async (_, text, expected) => {
    for (const chunks of cuts(text)) expect(await read(chunks)).toEqual({ events: expected, tooLong: false });
  });
});

describe("a line is bounded, a stream is not", () => {
  test("a line past the limit stops the reading, once the caller is told", async () => {
    const { events, error, tooLong } = await read([bytes("data: a\n\n"), bytes(`data: ${"x".repeat(200)}`)], 100);
    expect(events).toEqual([data("a")]);
    expect(tooLong).toBe(true);
    expect(error).toBe("a line of the stream passed 100 bytes");
  });

  test("a long line cut in many chunks is counted across them", async () => {
    const chunks = Array.from({ length: 30 }, () => bytes("xxxxxxxxxx"));
    const { error, tooLong } = await read([bytes("data: "), ...chunks, bytes("\n\n")], 100);
    expect(tooLong).toBe(true);
    expect(error).toBe("a line of the stream passed 100 bytes");
  });

  test("many short lines, together far past the limit, pass", async () => {
    const text = "data: 0123456789\n\n".repeat(1000);
    const { events, tooLong } = await read([bytes(text)], 100);
    expect(tooLong).toBe(false);
    expect(events).toHaveLength(1000);
  });
});

test("a caller that stops early cancels the stream", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(bytes("data: more\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const event of readEvents(body, 1000, () => {})) if (event.data === "more") break;
  expect(cancelled).toBe(true);
});

test("a long line in many chunks is one event, whole, with the break after the last chunk found", async () => {
  const piece = bytes("x".repeat(4096));
  const chunks = [bytes("data: "), ...Array.from({ length: 1024 }, () => piece), bytes("\n\n")];
  const { events } = await read(chunks, 8_000_000);
  expect(events).toHaveLength(1);
  expect(events[0]?.data.length).toBe(4096 * 1024);
});
