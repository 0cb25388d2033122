import { describe, expect, test } from "bun:test";
import { assistantLine, type Fields, jsonl, text, userLine, uuid } from "../../../../fixtures/sessions/claude-code/builders.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000c4", cwd: "/home/dev/shop" };

/** Three turns; `change` breaks the second line (the assistant's answer) or, with `onUser`, the first. */
function transcript(change: (line: Fields) => void, onUser = false): string {
  const lines = [
    userLine(place, uuid("c", 1), null, 1, "Rename cart.ts."),
    assistantLine(place, uuid("c", 2), uuid("c", 1), 2, [text("Renamed.")], { messageId: "msg_1" }),
    userLine(place, uuid("c", 3), uuid("c", 2), 3, "Thanks."),
  ];
  const broken = lines[onUser ? 0 : 1];
  if (broken) change(broken);
  return jsonl(lines);
}

describe("a Claude Code conversation line with a field of the wrong type is reported, with its number", () => {
  test.each([
    ["uuid a number", (l: Fields) => Object.assign(l, { uuid: 5 }), false, '"uuid" is not a string'],
    ["uuid an object", (l: Fields) => Object.assign(l, { uuid: { id: "x" } }), false, '"uuid" is not a string'],
    ["parentUuid a number", (l: Fields) => Object.assign(l, { parentUuid: 7 }), false, '"parentUuid" is neither a string nor null'],
    ["parentUuid false", (l: Fields) => Object.assign(l, { parentUuid: false }), false, '"parentUuid" is neither a string nor null'],
    ["isSidechain a string", (l: Fields) => Object.assign(l, { isSidechain: "true" }), false, '"isSidechain" is neither true nor false'],
    [
      "message a string",
      (l: Fields) => Object.assign(l, { message: "Renamed." }),
      false,
      'an "assistant" line whose "message" is not an object',
    ],
    ["message missing", (l: Fields) => delete l.message, false, 'an "assistant" line whose "message" is not an object'],
    [
      "content a number",
      (l: Fields) => Object.assign(l, { message: { role: "user", content: 42 } }),
      true,
      'a "user" line whose message "content" is neither text nor a list of blocks',
    ],
    [
      "content null",
      (l: Fields) => Object.assign(l, { message: { role: "assistant", content: null } }),
      false,
      'an "assistant" line whose message "content" is neither text nor a list of blocks',
    ],
  ])("%s", (_why, change, onUser, reason) => {
    const session = readClaudeCodeSession(transcript(change, onUser), "shapes.jsonl");
    const line = onUser ? 1 : 2;
    expect(session.problems).toEqual([{ line, reason }]);
    expect(session.malformedLines).toEqual([line]);
    // The other lines are read as they are.
    expect(session.entries.map((entry) => entry.line)).toEqual([1, 2, 3].filter((n) => n !== line));
  });

  test.each([
    ["a root: parentUuid null", (l: Fields) => Object.assign(l, { parentUuid: null })],
    ["no isSidechain at all", (l: Fields) => delete l.isSidechain],
    ["content as plain text", (l: Fields) => Object.assign(l, { message: { role: "assistant", content: "Renamed." } })],
  ])("well-formed: %s", (_why, change) => {
    expect(readClaudeCodeSession(transcript(change), "shapes.jsonl").problems).toEqual([]);
  });
});
