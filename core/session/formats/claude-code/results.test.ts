/**
 * Parallel tool calls: Claude Code 2.1.328 saves an answer a line per call and hangs each result
 * from the line holding its call (`sourceToolAssistantUUID`); the next answer hangs from one
 * result only. Claude Code re-attaches the others when it loads the file, so the context holds
 * every result, in file order, right after the answer, whatever shape the lines took.
 */
import { describe, expect, test } from "bun:test";
import {
  assistantLine,
  attachmentLine,
  jsonl,
  text,
  toolResult,
  toolUse,
  userLine,
  uuid,
  type Fields,
} from "../../../../fixtures/sessions/claude-code/builders.ts";
import { analyzeBranch } from "../../analyze.ts";
import { messageText } from "../../messages.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000e1", cwd: "/home/dev/shop" };
const id = (name: string) =>
  uuid(
    "7",
    parseInt(name.replace(/\D/g, ""), 10) + (name.startsWith("r") ? 100 : name.startsWith("x") ? 200 : name.startsWith("q") ? 300 : 0),
  );
const ref = (name: string | null) => (name === null ? null : id(name));

const prompt = userLine(place, id("u0"), null, 0, "Run the checks.");
/** A line of the answer `msg_A` holding one call. */
const call = (name: string, parent: string, n: number) =>
  assistantLine(place, id(name), ref(parent), 1, [toolUse(`t${n}`, "Bash", { command: `check ${n}` })], {
    messageId: "msg_A",
    stop: n === 3 ? "tool_use" : null,
  });
/** The result of call `n`, hanging from `parent`, naming the line that called it. */
const result = (n: number, parent: string, source: string | undefined, second = 2, fields: Fields = {}) =>
  userLine(place, id(`r${n}`), ref(parent), second, [toolResult(`t${n}`, n === 1 ? "Exit code 2\nlint failed" : `ok ${n}`, n === 1)], {
    ...(source === undefined ? {} : { sourceToolAssistantUUID: id(source) }),
    toolUseResult: n === 1 ? "Error: Exit code 2\nlint failed" : { stdout: `ok ${n}`, stderr: "", interrupted: false },
    ...fields,
  });
const answer = (parent: string) =>
  assistantLine(place, id("a9"), ref(parent), 3, [text("Lint failed; the rest passed.")], { messageId: "msg_B" });
const attachment = (name: string, parent: string) => attachmentLine(place, id(name), ref(parent), 2, { type: "total_tokens_reminder" });
const queuedPrompt = (name: string, parent: string) =>
  attachmentLine(place, id(name), ref(parent), 2, { type: "queued_command", prompt: "Also run the e2e suite.", commandMode: "prompt" });

const CASES: [string, Fields[], string[]][] = [
  [
    "each result from its own call line, the answer from the last (as 2.1.328 writes them)",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(1, "a1", "a1"), result(2, "a2", "a2"), answer("r2")],
    ["user", "assistant", "toolResult t1", "toolResult t2", "assistant"],
  ],
  [
    "results finished in the other order",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(2, "a2", "a2"), result(1, "a1", "a1"), answer("r1")],
    ["user", "assistant", "toolResult t2", "toolResult t1", "assistant"],
  ],
  [
    "three calls, Claude Code's attachments between the results",
    [
      prompt,
      call("a1", "u0", 1),
      call("a2", "a1", 2),
      call("a3", "a2", 3),
      result(3, "a3", "a3"),
      attachment("x1", "r3"),
      result(1, "a1", "a1"),
      attachment("x2", "r1"),
      result(2, "a2", "a2"),
      attachment("x3", "r2"),
      answer("x3"),
    ],
    ["user", "assistant", "toolResult t3", "toolResult t1", "toolResult t2", "assistant"],
  ],
  [
    "the answer hangs from a result that is not the last one",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(1, "a1", "a1"), result(2, "a2", "a2"), answer("r1")],
    ["user", "assistant", "toolResult t1", "toolResult t2", "assistant"],
  ],
  [
    "older versions: results chained one after another (unchanged)",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(1, "a2", undefined), result(2, "r1", undefined), answer("r2")],
    ["user", "assistant", "toolResult t1", "toolResult t2", "assistant"],
  ],
  [
    "a result whose parent is another result, its call named by sourceToolAssistantUUID",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(1, "a1", "a1"), result(2, "r1", "a2"), answer("r2")],
    ["user", "assistant", "toolResult t1", "toolResult t2", "assistant"],
  ],
  [
    "a result whose parent is not in the file: it follows the one answer holding its call",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(1, "a1", "a1"), result(2, "x9", undefined), answer("r2")],
    ["user", "assistant", "toolResult t1", "toolResult t2", "assistant"],
  ],
  [
    "the file ends on the results: the leaf is the last of them",
    [prompt, call("a1", "u0", 1), call("a2", "a1", 2), result(1, "a1", "a1"), result(2, "a2", "a2")],
    ["user", "assistant", "toolResult t1", "toolResult t2"],
  ],
  [
    "a prompt queued while the tools ran, hanging from the first result, comes after both",
    [
      prompt,
      call("a1", "u0", 1),
      call("a2", "a1", 2),
      result(1, "a1", "a1"),
      queuedPrompt("q1", "r1"),
      result(2, "a2", "a2"),
      answer("q1"),
    ],
    ["user", "assistant", "toolResult t1", "toolResult t2", "user", "assistant"],
  ],
  [
    "a hand-made loop (a call line hanging from its own result) is left as written: cut where it loops",
    [prompt, call("a1", "r2", 1), call("a2", "a1", 2), result(1, "a1", "a1"), result(2, "a2", "a2"), answer("r1")],
    ["assistant", "toolResult t1", "assistant"],
  ],
];

describe("every result of parallel tool calls reaches the context", () => {
  test.each(CASES)("%s", (_, lines, expected) => {
    const session = readClaudeCodeSession(jsonl(lines), `${place.sessionId}.jsonl`);
    const analysis = analyzeBranch(session);
    const seen = analysis.context.map((m) =>
      m.role === "toolResult" ? `toolResult ${m.toolCallId}` : m.role === "user" ? m.kind : m.role,
    );
    expect(seen).toEqual(expected);
  });

  test("the facts: the failed parallel call counts as failed, with its exit code", () => {
    const [, lines] = CASES[0] ?? ["", [], []];
    const analysis = analyzeBranch(readClaudeCodeSession(jsonl(lines), "s.jsonl"));
    expect(analysis.facts.commands.map((c) => `${c.command} → ${c.exitCode}${c.failed ? " failed" : ""}`)).toEqual([
      "check 1 → 2 failed",
      "check 2 → 0",
    ]);
    expect(analysis.context.filter((m) => m.role === "toolResult").map((m) => messageText(m))).toEqual([
      "Exit code 2\nlint failed",
      "ok 2",
    ]);
  });
});
