import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codex } from "./index.ts";
import { nothingToRead } from "./pass-over.ts";

const DIR = join(import.meta.dir, "../../../../fixtures/sessions/codex");
describe("lines with nothing to read are passed over unparsed; anything else is parsed", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const T = '{"timestamp":"2026-11-30T09:00:00.000Z",';
  test.each([
    ["an event", `${T}"type":"event_msg","payload":{"type":"token_count","info":{}}}`, true],
    ["an event with an ordinal", `${T}"ordinal":12,"type":"event_msg","payload":{"type":"task_started"}}`, true],
    ["world state", `${T}"type":"world_state","payload":{"full":true}}`, true],
    ["a token record", `${T}"type":"token_usage_record","payload":{"usage":{}}}`, true],
    ["encrypted reasoning", `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}}`, true],
    [
      "encrypted reasoning with an id",
      `${T}"type":"response_item","payload":{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"}}`,
      true,
    ],
    [
      "reasoning with a summary",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"hm"}]}}`,
      false,
    ],
    [
      "reasoning with raw content",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"hm"}]}}`,
      false,
    ],
    ["a rollback event", `${T}"type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}`, false],
    ["a message", `${T}"type":"response_item","payload":{"type":"message","role":"user","content":[]}}`, false],
    // Whole JSON in any key order and spacing is proven as well as serde's own.
    ["an event written with other key order", `{"type":"event_msg","timestamp":"x","payload":{}}`, true],
    ["an event with spaces", `{"timestamp": "x", "type": "event_msg", "payload": {}}`, true],
    ["a rollback written with another key order", `${T}"type":"event_msg","payload":{"num_turns":1,"type":"thread_rolled_back"}}`, false],
    [
      "readable reasoning, encrypted content first",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"g","content":[{"type":"reasoning_text","text":"hm"}]}}`,
      false,
    ],
    ["a line whose type is given twice", `${T}"type":"event_msg","payload":{},"type":"response_item"}`, false],
    ["a torn event", `${T}"type":"event_msg","payload":{"type":"token_co`, false],
    [
      "a torn event, the next line written onto it",
      `${T}"type":"event_msg","payload":{"ty${T}"type":"response_item","payload":{"type":"message","role":"user","content":[]}}`,
      false,
    ],
    ["a CRLF line (JSON whitespace after the object)", `${T}"type":"event_msg","payload":{}}\r`, true],
  ])("%s", (_, line, passedOver) => {
    expect(nothingToRead(bytes(line))).toBe(passedOver);
  });

  test("a torn event with the next line written onto it is reported, not passed over", () => {
    const text = `${readFileSync(join(DIR, "rollback.jsonl"), "utf8").split("\n")[0]}\n${T}"type":"event_msg","payload":{"ty${T}"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"lost"}]}}\n`;
    expect(codex.read(text, "m.jsonl").problems).toEqual([{ line: 2, reason: "not valid JSON (a torn or hand-edited line?)" }]);
  });

  test.each(["shapes.jsonl", "compaction.jsonl", "legacy-compaction.jsonl", "remote-compaction.jsonl", "rollback.jsonl", "torn.jsonl"])(
    "%s reads alike from text, bytes and small chunks",
    (name) => {
      const raw = new Uint8Array(readFileSync(join(DIR, name)));
      const fromText = codex.read(new TextDecoder().decode(raw), name);
      expect(codex.read(raw, name)).toEqual(fromText);
      const chunks = function* () {
        for (let at = 0; at < raw.length; at += 7) yield raw.slice(at, at + 7);
      };
      expect(codex.read(chunks(), name)).toEqual(fromText);
    },
  );
});
