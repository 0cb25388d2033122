/**
 * Reading hand-written Gemini CLI sessions: the lines folded as Gemini loads them (records.ts),
 * then rebuilt as it sends them (messages.ts). One table of files and what Gemini would resume.
 */
import { describe, expect, test } from "bun:test";
import { isObject } from "../../../json.ts";
import { writeOfflineDocument } from "../../../handoff/offline/index.ts";
import { analyzeBranch } from "../../analyze.ts";
import { readGeminiSession } from "./read.ts";
import { sessionContext } from "./write.ts";

const META = {
  sessionId: "5e551011-0000-4000-8000-000000000001",
  projectHash: "ab",
  startTime: "2026-12-01T10:00:00.000Z",
  lastUpdated: "2026-12-01T10:00:00.000Z",
  kind: "main",
};
const user = (id: string, text: string) => ({ id, timestamp: "2026-12-01T10:00:01.000Z", type: "user", content: [{ text }] });
const model = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  timestamp: "2026-12-01T10:00:02.000Z",
  type: "gemini",
  content: text,
  thoughts: [],
  ...extra,
});
const file = (...lines: unknown[]) => lines.map((l) => `${typeof l === "string" ? l : JSON.stringify(l)}\n`).join("");

/** What the session says, turn by turn: `role: text`, `call name`, `result id: text`. */
function said(text: string): string[] {
  return readGeminiSession(text, "s.jsonl").entries.flatMap((entry) => {
    if (entry.type === "custom_message") return [`handoff: ${String(entry.data.content).slice(0, 21)}`];
    const message = isObject(entry.data.message) ? entry.data.message : {};
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    if (message.role === "toolResult") return [`result ${message.toolCallId}: ${blocks[0]?.text}${message.isError ? " (error)" : ""}`];
    return blocks.map((b) => (b.type === "toolCall" ? `call ${b.name}` : `${message.role}: ${b.text ?? b.thinking}`));
  });
}

const CALL = {
  id: "read__1",
  name: "read_file",
  args: { file_path: "a.txt" },
  status: "success",
  result: [{ functionResponse: { id: "read__1", name: "read_file", response: { output: "A" } } }],
};

describe("a Gemini CLI session as Gemini resumes it", () => {
  test.each<[string, string, string[]]>([
    ["the metadata, a question and its answer", file(META, user("u1", "Hi?"), model("g1", "Hello.")), ["user: Hi?", "assistant: Hello."]],
    [
      "its own context and commands are not sent",
      file(META, user("c", sessionContext("/w")), user("u0", "/stats"), user("u1", "Hi?"), model("g1", "Hello.")),
      ["user: Hi?", "assistant: Hello."],
    ],
    [
      "info, error and warning messages are not sent",
      file(
        META,
        user("u1", "Hi?"),
        { id: "i", type: "info", content: "Switched model" },
        { id: "e", type: "error", content: "quota" },
        model("g1", "Hello."),
      ),
      ["user: Hi?", "assistant: Hello."],
    ],
    [
      "a message written again replaces the first where it stood",
      file(META, user("u1", "Hi?"), model("g1", ""), user("u2", "More?"), model("g1", "Hello.")),
      ["user: Hi?", "assistant: Hello.", "user: More?"],
    ],
    [
      "$rewindTo drops that message and every later one",
      file(
        META,
        user("u1", "Hi?"),
        model("g1", "Hello."),
        user("u2", "Wrong"),
        model("g2", "No."),
        { $rewindTo: "u2" },
        user("u3", "Right"),
        model("g3", "Yes."),
      ),
      ["user: Hi?", "assistant: Hello.", "user: Right", "assistant: Yes."],
    ],
    [
      "$rewindTo an id no message has drops them all",
      file(META, user("u1", "Hi?"), model("g1", "Hello."), { $rewindTo: "gone" }, user("u3", "Again"), model("g3", "Yes.")),
      ["user: Again", "assistant: Yes."],
    ],
    [
      "$set.messages replaces the whole list",
      file(META, user("u1", "Old"), model("g1", "Old."), { $set: { messages: [user("u2", "New"), model("g2", "New.")] } }),
      ["user: New", "assistant: New."],
    ],
    [
      "a resume's metadata line and context later in the file change nothing said",
      file(
        META,
        user("u1", "Hi?"),
        model("g1", "Hello."),
        { ...META, startTime: "2026-12-01T10:05:00.000Z" },
        { $set: { sessionId: META.sessionId } },
        user("u2", "Next"),
      ),
      ["user: Hi?", "assistant: Hello.", "user: Next"],
    ],
    [
      "a call and its result, written again by a resume, read once",
      file(
        META,
        user("u1", "Read a"),
        model("g1", "", { toolCalls: [CALL] }),
        { id: "g1_response", type: "user", content: CALL.result },
        { id: "r1", type: "user", content: CALL.result },
        model("g2", "A it is."),
      ),
      ["user: Read a", "call read_file", "result read__1: A", "assistant: A it is."],
    ],
    [
      "a failed call's error",
      file(
        META,
        user("u1", "Run"),
        model("g1", "", {
          toolCalls: [
            {
              id: "sh",
              name: "run_shell_command",
              args: {},
              status: "error",
              result: [{ functionResponse: { id: "sh", name: "run_shell_command", response: { error: "denied" } } }],
            },
          ],
        }),
      ),
      ["user: Run", "call run_shell_command", "result sh: denied (error)"],
    ],
    [
      "thoughts, when the content has none of its own",
      file(META, user("u1", "Hi?"), model("g1", "Hello.", { thoughts: [{ subject: "Plan", description: "greet" }] })),
      ["user: Hi?", "assistant: **Plan** greet", "assistant: Hello."],
    ],
    [
      "our handoff document is the handoff it opens with",
      file(META, user("c", sessionContext("/w")), user("d", "<handoff-context>\n# Doc\n</handoff-context>"), model("a", "ok")),
      ["handoff: <handoff-context>\n# D", "assistant: ok"],
    ],
  ])("%s", (_, text, expected) => {
    expect(said(text)).toEqual(expected);
  });

  test("the id, start and folder; unusable lines named, the rest read", () => {
    const session = readGeminiSession(file(META, "{torn", [1], user("c", sessionContext("/home/me/app")), user("u1", "Hi?")), "s.jsonl");
    expect([session.header.id, session.header.timestamp, session.header.cwd]).toEqual([META.sessionId, META.startTime, "/home/me/app"]);
    expect(session.problems).toEqual([
      { line: 2, reason: "not valid JSON (a torn or hand-edited line?)" },
      { line: 3, reason: "not a JSON object" },
    ]);
  });

  test.each([
    ["an empty file", "", "s.jsonl: not a Gemini CLI session: the file is empty"],
    [
      "no metadata line",
      file(user("u1", "Hi?")),
      's.jsonl:1: not a Gemini CLI session: no metadata line (one with a string "sessionId" and "projectHash")',
    ],
  ])("%s is not a session", (_, text, message) => {
    expect(() => readGeminiSession(text, "s.jsonl")).toThrow(message);
  });
});

/** A `gemini` message running `command`, its result's `output` as Gemini wrote it. */
function shellRun(command: string, output: string, status = "success") {
  const id = "run_shell_command__1";
  const response = { id, name: "run_shell_command", response: { output } };
  return model("g1", "", {
    toolCalls: [{ id, name: "run_shell_command", args: { command }, status, result: [{ functionResponse: response }] }],
  });
}
const wrap = (text: string) => `<untrusted_context>\n${text}\n</untrusted_context>`;

describe("Session Facts of a Gemini shell command: the exit code its result states", () => {
  test.each<[string, string, string, string, number | null, boolean]>([
    ["exit 0", "npm test", wrap("Output: 3 pass\nProcess Group PGID: 7"), "success", 0, false],
    ["a non-zero exit is a failure", "npm test", wrap("Output: 1 fail\nExit Code: 1\nProcess Group PGID: 7"), "success", 1, true],
    ["exit 2 of a build", "tsc -p .", wrap("Output: (empty)\nExit Code: 2\nProcess Group PGID: 7"), "success", 2, true],
    ["killed by a signal: no code", "sleep 100", wrap("Output: (empty)\nSignal: 15\nProcess Group PGID: 7"), "success", null, false],
    [
      "cancelled by the user: no code",
      "npm test",
      wrap("Command was cancelled by user before it could complete. There was no output before it was cancelled."),
      "cancelled",
      null,
      false,
    ],
    [
      "its output says Exit Code, Gemini does not",
      "cat log",
      wrap("Output: Exit Code: 9\nend\nProcess Group PGID: 7"),
      "success",
      0,
      false,
    ],
  ])("%s", (_, command, output, status, exitCode, failed) => {
    const session = readGeminiSession(file(META, user("u1", "Run it."), shellRun(command, output, status)), "s.jsonl");
    const { facts } = analyzeBranch(session);
    expect(facts.commands.map((c) => ({ command: c.command, exitCode: c.exitCode, failed: c.failed }))).toEqual([
      { command, exitCode, failed },
    ]);
  });
});

test("the offline document names a failed Gemini command's errors, not Gemini's own Exit Code line", () => {
  const output = wrap("Output: src/a.test.ts:\nerror: expected 2, got 3\n1 fail\nExit Code: 1\nProcess Group PGID: 7");
  const { context, facts } = analyzeBranch(
    readGeminiSession(file(META, user("u1", "Run the tests."), shellRun("npm test", output)), "s.jsonl"),
  );
  const document = writeOfflineDocument({ context, facts, cwd: "/w" });
  expect(document).toContain("- `npm test` → exit 1, failed: `error: expected 2, got 3`");
  expect(document).not.toContain("Exit Code");
});
