import { describe, expect, test } from "bun:test";
import { createOutputSink } from "./agent-output.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const skipUpdates = (start: string) => start.startsWith('{"type":"update"');

/** Feeds `text` in pieces of `size` bytes; returns what was kept and whether it stayed within `limit`. */
function feed(text: string, size: number, limit: number, skip?: (start: string) => boolean): { kept: string; within: boolean } {
  const sink = createOutputSink(limit, skip);
  const all = bytes(text);
  let within = true;
  for (let at = 0; at < all.length; at += size) within = sink.push(all.subarray(at, at + size)) && within;
  return { kept: sink.text(), within };
}

const UPDATE = `{"type":"update","partial":"${"x".repeat(200)}"}\n`;
const END = '{"type":"end","text":"é done"}\n';

describe("what is kept of an agent's output as it streams", () => {
  test.each([1, 7, 64, 65, 4096])(
    "lines the engine skips are dropped and do not count toward the limit, whatever the pieces (%i bytes)",
    (size) => {
      expect(feed(`${UPDATE.repeat(50)}${END}tail`, size, 100, skipUpdates)).toEqual({ kept: `${END}tail`, within: true });
    },
  );

  test.each([
    ["without a skip rule, everything is kept", `${UPDATE}${END}`, 10_000, undefined, { kept: `${UPDATE}${END}`, within: true }],
    ["a short skipped line without its newline yet", '{"type":"update"}', 100, skipUpdates, { kept: "", within: true }],
    ["what is kept past the limit stops the run", `${END}${END}${END}`, 40, skipUpdates, { kept: `${END}{"type":`, within: false }],
  ])("%s", (_, text, limit, skip, expected) => {
    expect(feed(text, 5, limit, skip)).toEqual(expected);
  });
});
