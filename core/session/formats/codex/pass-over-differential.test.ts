import { describe, expect, test } from "bun:test";
import { arrayField, isObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { nothingToRead, PASSED_OVER } from "./pass-over.ts";
import { readCodexRollout } from "./read.ts";

/**
 * What the full parse says about a line: whether it is whole JSON that holds nothing to read
 * (a passed-over type, not a rollback; or reasoning with no readable summary or content).
 */
function parsedHoldsNothing(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObject(value) || typeof value.type !== "string" || !isObject(value.payload)) return false;
  const payload = value.payload;
  if (PASSED_OVER.has(value.type)) return !(value.type === "event_msg" && payload.type === "thread_rolled_back");
  if (value.type !== "response_item" || payload.type !== "reasoning") return false;
  const readable = (field: string) => (arrayField(payload, field)?.length ?? 0) > 0;
  return !readable("summary") && !readable("content");
}

const T = '{"timestamp":"2026-11-30T09:00:00.000Z",';
const event = `${T}"type":"event_msg","payload":{"type":"token_count","info":{}}}`;
const reasoning = `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"gAAA"}}`;
const message = `${T}"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`;

describe("a line passed over unparsed is one the full parse finds nothing to read in (never a torn or broken one)", () => {
  const lines: [string, string][] = [
    ["an event", event],
    ["encrypted reasoning", reasoning],
    ["a message", message],
    ["world state holding \\u2028 and \\u2029", `${T}"type":"world_state","payload":{"note":"a\u2028b\u2029c"}}`],
    ["an event holding a raw U+2028 escaped", `${T}"type":"event_msg","payload":{"type":"agent_message","message":"a\\u2028b"}}`],
    ["an event with non-ASCII text", `${T}"type":"event_msg","payload":{"type":"agent_message","message":"café 日本語 🚀"}}`],
    ["a huge event (1 MB)", `${T}"type":"event_msg","payload":{"type":"agent_message","message":"${"x".repeat(1 << 20)}"}}`],
    ["huge encrypted reasoning (1 MB)", reasoning.replace("gAAA", `gAAA${"y".repeat(1 << 20)}`)],
    ["a byte-order mark before an event", `\ufeff${event}`],
    ["an event ending in CR", `${event}\r`],
    ["an event with a space before its end", `${event.slice(0, -1)} }`],
    ["a torn event", event.slice(0, -3)],
    ["a torn event with the next event written onto it", `${event.slice(0, 60)}${event}`],
    ["a torn reasoning with the next event written onto it", `${reasoning.slice(0, 90)}${event}`],
    ["an event missing its payload's value", `${T}"type":"event_msg","payload":}`],
    ["a rollback", `${T}"type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}`],
    [
      "reasoning with a summary",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"x"}]}}`,
    ],
    [
      "reasoning with content",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"content":[{"type":"reasoning_text","text":"x"}]}}`,
    ],
    ["an event with an ordinal", `${T}"ordinal":7,"type":"event_msg","payload":{"type":"task_started"}}`],
    ["a timestamp holding a quote escape", '{"timestamp":"2026\\"x","type":"event_msg","payload":{}}'],
    ["an empty line", ""],
    ["only a brace", "}"],
    [
      "an event with spaces and another key order",
      `{ "payload" : { "info" : { } , "type" : "token_count" } , "type" : "event_msg" , "timestamp" : "x" }`,
    ],
    [
      "an event whose text holds every escape",
      `${T}"type":"event_msg","payload":{"type":"agent_message","message":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude80"}}`,
    ],
    ["an event holding a bad escape", `${T}"type":"event_msg","payload":{"type":"agent_message","message":"a\\xb"}}`],
    ["an event holding a short \\u escape", `${T}"type":"event_msg","payload":{"type":"agent_message","message":"a\\u00"}}`],
    ["an event ending in an escaped quote", `${T}"type":"event_msg","payload":{"type":"agent_message","message":"a\\"}}`],
    ["an event with a number of every form", `${T}"type":"event_msg","payload":{"type":"token_count","n":[0,-1,1.5,2e10,-3.25E-2,1e+3]}}`],
    ["an event with a bad number", `${T}"type":"event_msg","payload":{"type":"token_count","n":01}}`],
    ["an event with a bare word", `${T}"type":"event_msg","payload":{"type":"token_count","n":nul}}`],
    ["an event with a trailing comma", `${T}"type":"event_msg","payload":{"type":"token_count",}}`],
    ["an event with a missing colon", `${T}"type":"event_msg","payload":{"type" "token_count"}}`],
    ["an event nested very deep", `${T}"type":"event_msg","payload":{"type":"x","n":${"[".repeat(5000)}${"]".repeat(5000)}}}`],
    ["an event with an array payload", `${T}"type":"event_msg","payload":[]}`],
    ["an event with no payload", `${T}"type":"event_msg"}`],
    ["a record with two payloads", `${T}"type":"world_state","payload":{},"payload":{}}`],
    [
      "reasoning with null summary and content",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":null,"content":null,"encrypted_content":"g"}}`,
    ],
    ["reasoning with no summary", `${T}"type":"response_item","payload":{"type":"reasoning","encrypted_content":"g"}}`],
    ["a line that is an array", `[${event}]`],
    ["two lines' objects on one", `${event}${event}`],
  ];

  test.each(lines)("%s", (_, text) => {
    const bytes = new TextEncoder().encode(text);
    // Passed over only if the parse agrees there is nothing to read; the other way round is allowed (it is just parsed).
    if (nothingToRead(bytes)) expect(parsedHoldsNothing(text)).toBe(true);
  });

  test("an event or encrypted reasoning passes over whole", () => {
    for (const line of [event, reasoning]) expect(nothingToRead(new TextEncoder().encode(line))).toBe(true);
  });

  // A hand-edited line with a `}` too many is not JSON: it is parsed and reported, never passed over as if whole.
  test("an event with one brace too many is reported, not passed over", () => {
    const text = `${event}}`;
    expect(nothingToRead(new TextEncoder().encode(text))).toBe(false);
    expect(parsedHoldsNothing(text)).toBe(false);
  });

  // Known gap, kept on purpose (see isWholeObject): a raw control character inside a string is
  // not looked for, as that would cost a look at every byte of encrypted reasoning. No writer or
  // crash leaves one, and the line holds nothing to read either way; only its warning is lost.
  test.failing.each([
    ["a raw tab inside a string", event.replace("token_count", "token\tcount")],
    ["a raw control byte inside encrypted content", reasoning.replace("gAAA", "gA\u0001AA")],
  ])("%s is reported, not passed over (known gap)", (_, text) => {
    expect(nothingToRead(new TextEncoder().encode(text)) && !parsedHoldsNothing(text)).toBe(false);
  });
});

/**
 * Lines the same JSON as a line read (a rollback, readable reasoning, a conversation line), or
 * one JSON.parse reads otherwise than its first bytes suggest, written as no serde would: other
 * key orders, spaces, `\u` escapes in keys and values, keys given twice (JSON.parse keeps the
 * last), payloads nested to look like the line's own. Each must be parsed: the full parse finds
 * something in every one of them.
 */
describe("a line holding something to read is never passed over, however it is written", () => {
  const rollback = '"payload":{"type":"thread_rolled_back","num_turns":1}';
  const readable =
    '{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA","content":[{"type":"reasoning_text","text":"THOUGHT"}]}';
  const user = '{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}';
  const lines: [string, string][] = [
    ["a rollback, num_turns first", `${T}"type":"event_msg","payload":{"num_turns":1,"type":"thread_rolled_back"}}`],
    ["a rollback with a space after the brace", `${T}"type":"event_msg","payload":{ "type":"thread_rolled_back","num_turns":1}}`],
    [
      "a rollback with spaces everywhere",
      `{ "timestamp" : "x" , "type" : "event_msg" , "payload" : { "type" : "thread_rolled_back" , "num_turns" : 1 } }`,
    ],
    ["a rollback spelled with an escape", `${T}"type":"event_msg","payload":{"type":"thread_rolled_\\u0062ack","num_turns":1}}`],
    ["a rollback whose type key is escaped", `${T}"type":"event_msg","payload":{"\\u0074ype":"thread_rolled_back","num_turns":1}}`],
    ["a rollback after a first payload", `${T}"type":"event_msg","payload":{"type":"x"},${rollback}}`],
    [
      "a rollback as the payload's second type",
      `${T}"type":"event_msg","payload":{"type":"token_count","type":"thread_rolled_back","num_turns":1}}`,
    ],
    ["a rollback, payload before type", `{"timestamp":"x",${rollback},"type":"event_msg"}`],
    ["a rollback, type last and escaped", `{"timestamp":"x",${rollback},"\\u0074ype":"event_msg"}`],
    ["readable reasoning, encrypted content first", `${T}"type":"response_item","payload":${readable}}`],
    [
      "readable reasoning, content first",
      `${T}"type":"response_item","payload":${readable.replace('"summary":[],', "")}}`.replace('"id":"rs_1",', '"id":"rs_1","summary":[],'),
    ],
    [
      "reasoning whose summary is given twice",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"summary":[{"type":"summary_text","text":"S"}]}}`,
    ],
    [
      "reasoning whose content key is escaped",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"\\u0063ontent":[{"type":"reasoning_text","text":"T"}]}}`,
    ],
    [
      "reasoning with a spaced summary",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary": [ {"type":"summary_text","text":"S"} ]}}`,
    ],
    [
      "reasoning with a second type: a message",
      `${T}"type":"response_item","payload":{"type":"reasoning","summary":[],"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`,
    ],
    [
      "an event whose line type is given again as response_item",
      `${T}"type":"event_msg","payload":{"type":"x"},"type":"response_item","payload":${user}}`,
    ],
    ["a second type only", `${T}"type":"event_msg","payload":${user},"type":"response_item"}`],
    ["a line type spelled with an escape", `${T}"type":"\\u0065vent_msg","payload":{"type":"thread_rolled_back","num_turns":1}}`],
    ["a line type key spelled with an escape", `{"timestamp":"x","type":"event_msg","\\u0074ype":"response_item","payload":${user}}`],
    [
      "a payload nested to look like the line (the real payload is a message)",
      `${T}"type":"response_item","payload":{"x":{"type":"reasoning","summary":[]},"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`,
    ],
    [
      "an event nested in a message",
      `${T}"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"{\\"type\\":\\"event_msg\\"}"}],"meta":{"type":"event_msg"}}}`,
    ],
    [
      "a message whose type value ends in an escaped quote",
      `${T}"type":"response_item","payload":{"type":"message\\"","role":"user","content":[]}}`,
    ],
    ["a world state line that is really a turn context", `${T}"type":"world_state","type":"turn_context","payload":{"model":"gpt-5"}}`],
  ];

  test.each(lines)("%s", (_, text) => {
    expect(parsedHoldsNothing(text)).toBe(false); // the table's own check: each line holds something
    expect(nothingToRead(new TextEncoder().encode(text))).toBe(false);
  });

  const meta = `${T}"type":"session_meta","payload":{"id":"0199a0a0-0000-7000-8000-000000000001","timestamp":"2026-11-30T09:00:00.000Z","cwd":"/home/dev/app","originator":"codex_cli_rs","cli_version":"0.169.0"}}`;
  const say = (role: string, text: string) =>
    `${T}"type":"response_item","payload":{"type":"message","role":"${role}","content":[{"type":"${role === "user" ? "input" : "output"}_text","text":"${text}"}]}}`;
  test.each([["as serde writes it", `${T}"type":"event_msg",${rollback}}`], ...lines.filter(([name]) => name.startsWith("a rollback"))])(
    "a rollback written %s drops the turn, from bytes and from text",
    (_, line) => {
      const rollout = [
        meta,
        say("user", "build it"),
        say("assistant", "built"),
        say("user", "DROPPED"),
        say("assistant", "dropping"),
        line,
        say("user", "test it"),
      ];
      const text = `${rollout.join("\n")}\n`;
      for (const input of [text, new TextEncoder().encode(text)]) {
        const analysis = analyzeBranch(readCodexRollout(input, "rb.jsonl"));
        expect(analysis.branchMessages).toBe(3);
        expect(JSON.stringify(analysis.context)).not.toContain("DROPPED");
      }
    },
  );
});

describe("a rollout whose last line was cut by a crash reports it, whatever byte the cut fell on", () => {
  const meta = `${T}"type":"session_meta","payload":{"id":"0199a0a0-0000-7000-8000-000000000001","timestamp":"2026-11-30T09:00:00.000Z","cwd":"/home/dev/app","originator":"codex_cli_rs","cli_version":"0.169.0"}}`;
  test.each([
    ["right after an inner brace", event.slice(0, -1)],
    ["inside a string", event.slice(0, 60)],
    ["encrypted reasoning, after an inner brace", reasoning.replace('"gAAA"}}', '"gAAA"}')],
  ])("%s", (_, torn) => {
    for (const bytes of [`${meta}\n${message}\n${torn}`, `${meta}\r\n${message}\r\n${torn}`]) {
      for (const input of [bytes, new TextEncoder().encode(bytes)]) {
        const session = readCodexRollout(input, "torn.jsonl");
        expect(session.problems).toEqual([{ line: 3, reason: "not valid JSON (a torn or hand-edited line?)" }]);
        expect(session.missingFinalNewline).toBe(true);
      }
    }
  });
});
