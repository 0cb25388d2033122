/**
 * Claude Code's `custom-title` lines name the session (inspect's `title`); a `continued-in` line
 * with no conversation after it says the conversation went on in another session: one notice
 * naming that session.
 */
import { describe, expect, test } from "bun:test";
import { assistantLine, jsonl, text, userLine, uuid, type Fields } from "../../../../fixtures/sessions/claude-code/builders.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000b1", cwd: "/home/dev/shop" };
const u = (n: number) => uuid("b", n + 70);
const OTHER = "5a1b2c3d-0000-4000-8000-0000000000b2";
const turn = [
  userLine(place, u(1), null, 1, "Deploy the app."),
  assistantLine(place, u(2), u(1), 2, [text("Deploying.")], { messageId: "m1" }),
];
const later = [userLine(place, u(3), u(2), 3, "And the docs."), assistantLine(place, u(4), u(3), 4, [text("Done.")], { messageId: "m2" })];
const title = (customTitle: unknown, sessionId = place.sessionId): Fields => ({ type: "custom-title", customTitle, sessionId });
const continuedIn = (id: unknown): Fields => ({
  type: "continued-in",
  timestamp: "2026-11-30T09:00:05.000Z",
  sessionId: place.sessionId,
  continuedInSessionId: id,
});
const read = (lines: Fields[]) => readClaudeCodeSession(jsonl(lines), `${place.sessionId}.jsonl`);
const moved = (line: number, id: string) =>
  `line ${line}: this conversation continued in Claude Code session ${id}; this file holds it only up to then (hand off ${id}.jsonl, in the same project folder, for where it stands now)`;

describe("a Claude Code session's name", () => {
  test.each([
    ["one custom-title line", [title("Deploy fix"), ...turn], "Deploy fix"],
    ["renamed: the newest wins", [title("deploy"), ...turn, title("Deploy fix")], "Deploy fix"],
    ["a name with spaces around it", [...turn, title("  Deploy fix \n")], "Deploy fix"],
    ["another session's name (a forked file): not this one's", [title("parent", OTHER), ...turn], undefined],
    ["an empty name", [...turn, title("")], undefined],
    ["a name that is not a string", [...turn, title(42)], undefined],
    ["no name", turn, undefined],
  ])("%s", (_, lines, expected) => {
    expect(read(lines).title).toBe(expected);
  });
});

describe("a conversation that continued in another session", () => {
  test.each([
    ["a continued-in line after the conversation", [...turn, continuedIn(OTHER)], [moved(3, OTHER)]],
    ["two: the newest says where", [...turn, continuedIn(uuid("d", 1)), continuedIn(OTHER)], [moved(4, OTHER)]],
    ["the conversation went on here after it", [...turn, continuedIn(OTHER), ...later], []],
    ["an id that names no session", [...turn, continuedIn("../../etc/passwd")], []],
    ["this session's own id: nowhere else", [...turn, continuedIn(place.sessionId.toUpperCase())], []],
    ["no id", [...turn, continuedIn(undefined)], []],
    ["none", turn, []],
  ])("%s", (_, lines, expected) => {
    expect(read(lines).notices).toEqual(expected);
  });
});
