import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch } from "../session/analyze.ts";
import type { AssistantBlock, ContextMessage, UserBlock } from "../session/messages.ts";
import { parseSession } from "../session/formats/pi/parse.ts";
import { chatCallId, chatMessagesAndTools, stubTools, toChatMessages } from "./messages.ts";
import type { ChatMessage } from "./types.ts";

const user = (content: UserBlock[], entryId = "u"): ContextMessage => ({ role: "user", kind: "user", content, entryId });
const assistant = (content: AssistantBlock[], entryId = "a"): ContextMessage => ({
  role: "assistant",
  content,
  provider: "openai",
  model: "gpt-5",
  stopReason: "stop",
  entryId,
});
const result = (toolCallId: string, content: UserBlock[], entryId = "r"): ContextMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "bash",
  content,
  isError: false,
  entryId,
});
const text = (t: string): UserBlock & AssistantBlock => ({ type: "text", text: t });
const image: UserBlock = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };
const call = (id: string, name: string, args: unknown = {}): AssistantBlock => ({ type: "toolCall", id, name, arguments: args });

describe("toChatMessages", () => {
  test.each<[string, ContextMessage, ChatMessage]>([
    [
      "a text-only user turn as a string, blocks joined with newlines",
      user([text("one"), text("two")]),
      { role: "user", content: "one\ntwo" },
    ],
    [
      "a user turn with an image as parts, the image as a data URL",
      user([text("Like this:"), image]),
      {
        role: "user",
        content: [
          { type: "text", text: "Like this:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ],
    [
      "a summary wrapper as a user turn",
      { role: "user", kind: "compactionSummary", content: [text("<summary>s</summary>")], entryId: "c" },
      { role: "user", content: "<summary>s</summary>" },
    ],
    [
      "an assistant's text without its thinking",
      assistant([{ type: "thinking", thinking: "hmm" }, text("Done.")]),
      { role: "assistant", content: "Done." },
    ],
    [
      "an assistant's tool calls with JSON arguments",
      assistant([text("Reading."), call("c1", "read", { path: "src/a.ts" })]),
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [{ id: "call00001", type: "function", function: { name: "read", arguments: '{"path":"src/a.ts"}' } }],
      },
    ],
    [
      "an assistant with only tool calls with null content",
      assistant([call("c1", "bash", { command: "ls" })]),
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call00001", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
      },
    ],
    [
      "a tool result as a tool message",
      result("c1", [text("3 pass"), text("0 fail")]),
      { role: "tool", tool_call_id: "call00001", content: "3 pass\n0 fail" },
    ],
    [
      "a tool result's image as a text note",
      result("c1", [text("Screenshot:"), image]),
      { role: "tool", tool_call_id: "call00001", content: "Screenshot:\n[image: image/png]" },
    ],
    ["an empty tool result as a note", result("c1", []), { role: "tool", tool_call_id: "call00001", content: "(no output)" }],
  ])("sends %s", (_, message, expected) => {
    // A lone tool result or call is fine here: pairing is buildContext's job, tested there.
    expect(toChatMessages([message])).toEqual([expected]);
  });

  test("keeps the order of a plain conversation", () => {
    const chat = toChatMessages([user([text("q1")]), assistant([text("a1")]), user([text("q2")]), assistant([text("a2")])]);
    expect(chat.map((m) => m.content)).toEqual(["q1", "a1", "q2", "a2"]);
  });

  test("moves a user message that sits between a tool call and its result to after the result", () => {
    const chat = toChatMessages([
      assistant([call("c1", "bash")]),
      user([text("by the way")]),
      result("c1", [text("ok")]),
      assistant([text("done")]),
    ]);
    expect(chat.map((m) => m.role)).toEqual(["assistant", "tool", "user", "assistant"]);
    expect(chat[2]?.content).toBe("by the way");
  });

  test("waits for every call of the turn before putting moved messages back, in their order", () => {
    const chat = toChatMessages([
      assistant([call("c1", "read"), call("c2", "bash")]),
      result("c1", [text("r1")]),
      user([text("first")]),
      user([text("second")]),
      result("c2", [text("r2")]),
    ]);
    expect(chat.map((m) => m.content)).toEqual([null, "r1", "r2", "first", "second"]);
  });
});

/** Fails unless every assistant turn with tool calls is followed directly by one result per call. */
function expectCallsAnsweredInPlace(chat: ChatMessage[]): void {
  for (const [i, message] of chat.entries()) {
    if (message.role !== "assistant" || !message.tool_calls) continue;
    const ids = message.tool_calls.map((c) => c.id);
    const following = chat
      .slice(i + 1, i + 1 + ids.length)
      .map((m) => (m.role === "tool" ? m.tool_call_id : `not a tool message: ${m.role}`));
    expect(following.sort()).toEqual([...ids].sort());
  }
  const answered = chat.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : []));
  const called = chat.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : []));
  expect(answered.sort()).toEqual(called.sort());
  // Every id in the form the strictest provider (Mistral) takes.
  for (const id of called) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
}

describe("tool call ids: exactly 9 letters and digits (Mistral refuses anything else), unique", () => {
  test.each([1, 2, 35, 36, 1295, 36 ** 5 - 1, 36 ** 5, 36 ** 5 + 1, 36 ** 9 - 1])("call %d", (n) => {
    expect(chatCallId(n)).toMatch(/^[a-zA-Z0-9]{9}$/);
  });

  test("no two calls share an id, either side of the 5-digit limit", () => {
    const around = [1, 2, 3, 36 ** 5 - 2, 36 ** 5 - 1, 36 ** 5, 36 ** 5 + 1, 48_427_560, 1_679_616, 60_466_176 + 35];
    const ids = around.map(chatCallId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a session's own ids, however long or odd, become short ones, a call and its result alike", () => {
    const odd = ["toolu_01ABCdef-ghi", "call_PTLP8xhu3uwZk4l3nlnrrJha", "2968-LWy3uasib", "x", "fc_ä/ü"];
    const context = odd.flatMap((id, i) => [assistant([call(id, "bash")], `a${i}`), result(id, [text("ok")], `r${i}`)]);
    const chat = toChatMessages(context);
    expectCallsAnsweredInPlace(chat);
    expect(chat.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : []))).toEqual([
      "call00001",
      "call00002",
      "call00003",
      "call00004",
      "call00005",
    ]);
  });
});

describe("toChatMessages on real sessions", () => {
  test.each([["example.jsonl"], ["sessions/v1.jsonl"], ["sessions/v2.jsonl"], ["sessions/v3-branches.jsonl"], ["sessions/omp.jsonl"]])(
    "%s: every tool call is answered right after it",
    (name) => {
      const session = parseSession(readFileSync(join(import.meta.dir, "../../fixtures", name), "utf8"));
      const chat = toChatMessages(analyzeBranch(session).context);
      expect(chat.some((m) => m.role === "tool")).toBe(true);
      expectCallsAnsweredInPlace(chat);
    },
  );
});

describe("stubTools", () => {
  test("declares each tool the history called once, sorted, with open parameters", () => {
    const tools = stubTools([assistant([call("c1", "read"), call("c2", "bash")]), result("c1", []), assistant([call("c3", "read")])]);
    expect(tools.map((t) => t.function.name)).toEqual(["bash", "read"]);
    for (const tool of tools) {
      expect(tool.type).toBe("function");
      expect(tool.function.parameters).toEqual({ type: "object", properties: {} });
    }
  });

  test("declares nothing for a history without tool calls", () => {
    expect(stubTools([user([text("hi")]), assistant([text("hello")])])).toEqual([]);
  });
});

describe("chatMessagesAndTools: the messages and the tools in one pass", () => {
  const contexts: [string, ContextMessage[]][] = [
    ["an empty context", []],
    ["no tool calls", [user([text("hi")]), assistant([text("hello")])]],
    [
      "calls answered in place, a name twice",
      [
        assistant([call("c1", "read"), call("c2", "bash")]),
        result("c1", []),
        result("c2", []),
        assistant([call("c3", "read")]),
        result("c3", []),
      ],
    ],
    [
      "a user turn between a call and its result (moved after it)",
      [assistant([call("c1", "bash")]), user([text("meanwhile")]), result("c1", [text("done")])],
    ],
    ["a call never answered, a turn after it", [assistant([call("c1", "edit")]), user([text("later")])]],
    [
      "names that are not valid tool names",
      [assistant([call("c1", "mcp.server/tool"), call("c2", "[REDACTED:api-key:1]"), call("c3", "")])],
    ],
  ];
  const fixtures = ["example.jsonl", "sessions/v3-branches.jsonl", "sessions/omp.jsonl"].map((name): [string, ContextMessage[]] => [
    name,
    analyzeBranch(parseSession(readFileSync(join(import.meta.dir, "../../fixtures", name), "utf8"))).context,
  ]);
  test.each([...contexts, ...fixtures])("%s: what toChatMessages and stubTools give, after the messages already there", (_, context) => {
    const first: ChatMessage = { role: "system", content: "rules" };
    const { messages, tools } = chatMessagesAndTools([first], context);
    expect({ messages, tools }).toEqual({ messages: [first, ...toChatMessages(context)], tools: stubTools(context) });
  });
});

describe("tool names and joined text as the request carries them", () => {
  const long = "a".repeat(64);
  test.each([
    ["a valid name", "read_file-2", "read_file-2"],
    ["exactly 64 characters", long, long],
    ["65 characters: cut to 64", `${long}b`, long],
    ["other characters become _", "mcp.server/tool name", "mcp_server_tool_name"],
    ["a redacted name", "[REDACTED:api-key:1]", "_REDACTED_api-key_1_"],
    ["an empty name", "", "tool"],
    ["a name of non-ASCII letters", "ツール", "___"],
  ])("%s", (_what, name, sent) => {
    const [message] = toChatMessages([assistant([call("c1", name)])]);
    expect(message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call00001", type: "function", function: { name: sent, arguments: "{}" } }],
    });
    expect(stubTools([assistant([call("c1", name)])]).map((t) => t.function.name)).toEqual([sent]);
  });

  test.each([
    ["one text block", [text("a")], "a"],
    ["texts joined by line breaks", [text("a"), text(""), text("b")], "a\n\nb"],
  ])("a user message of %s is one string", (_what, blocks, sent) => {
    expect(toChatMessages([user(blocks)])).toEqual([{ role: "user", content: sent }]);
  });

  test("texts around tool calls: joined, the calls in order", () => {
    expect(toChatMessages([assistant([text("a"), call("x", "bash"), text("b"), call("y", "read")])])).toEqual([
      {
        role: "assistant",
        content: "a\nb",
        tool_calls: [
          { id: "call00001", type: "function", function: { name: "bash", arguments: "{}" } },
          { id: "call00002", type: "function", function: { name: "read", arguments: "{}" } },
        ],
      },
    ]);
  });

  test("a tool result of texts and an image: one string, the image named; none at all: (no output)", () => {
    const [, withImage] = toChatMessages([assistant([call("x", "bash")]), result("x", [text("a"), image, text("b")])]);
    expect(withImage).toEqual({ role: "tool", tool_call_id: "call00001", content: "a\n[image: image/png]\nb" });
    const [, empty] = toChatMessages([assistant([call("x", "bash")]), result("x", [])]);
    expect(empty).toEqual({ role: "tool", tool_call_id: "call00001", content: "(no output)" });
  });
});
