import { describe, expect, test } from "bun:test";
import type { ChatMessage, ChatRequest } from "../llm/types.ts";
import { mapRequestText, type TextMap } from "./outgoing-strings.ts";

/** A map that replaces `SECRET` wherever it stands, and counts what it was asked. */
function replacing(): TextMap & { asked: string[] } {
  const asked: string[] = [];
  const map = (text: string) => {
    asked.push(text);
    return text.replaceAll("SECRET", "[x]");
  };
  return { asked, text: map, assigned: (_key, value) => map(value), opaque: map };
}

const call = (id: string, name: string, args: string) => ({ id, type: "function" as const, function: { name, arguments: args } });

const MESSAGES: [string, ChatMessage][] = [
  ["system", { role: "system", content: "be brief" }],
  ["developer", { role: "developer", content: "be brief" }],
  ["user text", { role: "user", content: "fix it" }],
  ["assistant text", { role: "assistant", content: "done" }],
  ["assistant, no text", { role: "assistant", content: null }],
  [
    "assistant, calls",
    {
      role: "assistant",
      content: "reading",
      tool_calls: [call("call1", "read", '{"path":"a.ts"}'), call("call2", "bash", '{"command":"ls"}')],
    },
  ],
  ["assistant, no calls left", { role: "assistant", content: "x", tool_calls: [] }],
  ["tool result", { role: "tool", tool_call_id: "call1", content: "file text" }],
];

const request = (messages: ChatMessage[]): ChatRequest => ({ model: "m", messages, stream: true });

describe("a request's messages whose strings all stay are passed on as themselves", () => {
  test.each(MESSAGES)("%s", (_name, message) => {
    const sent = mapRequestText(request([message]), replacing());
    expect(sent.messages[0]).toBe(message);
  });

  test("a user's parts are copied, as ever", () => {
    const message: ChatMessage = { role: "user", content: [{ type: "text", text: "look" }] };
    const sent = mapRequestText(request([message]), replacing());
    expect(sent.messages[0]).not.toBe(message);
    expect(sent.messages[0]).toEqual(message);
  });
});

describe("a message with one string changed is made anew, every call with it", () => {
  const CHANGED: [string, ChatMessage, ChatMessage][] = [
    ["system", { role: "system", content: "SECRET" }, { role: "system", content: "[x]" }],
    ["user text", { role: "user", content: "a SECRET" }, { role: "user", content: "a [x]" }],
    ["assistant text", { role: "assistant", content: "SECRET" }, { role: "assistant", content: "[x]" }],
    [
      "one call's arguments",
      { role: "assistant", content: "r", tool_calls: [call("c1", "read", '{"p":"a"}'), call("c2", "bash", '{"c":"echo SECRET"}')] },
      { role: "assistant", content: "r", tool_calls: [call("c1", "read", '{"p":"a"}'), call("c2", "bash", '{"c":"echo [x]"}')] },
    ],
    [
      "a name no tool may have",
      { role: "assistant", content: null, tool_calls: [call("c1", "my tool!", "{}")] },
      { role: "assistant", content: null, tool_calls: [call("c1", "my_tool_", "{}")] },
    ],
    [
      "a call's id",
      { role: "assistant", content: null, tool_calls: [call("SECRET", "read", "{}")] },
      { role: "assistant", content: null, tool_calls: [call("[x]", "read", "{}")] },
    ],
    ["a tool result", { role: "tool", tool_call_id: "c1", content: "SECRET" }, { role: "tool", tool_call_id: "c1", content: "[x]" }],
    ["a tool result's id", { role: "tool", tool_call_id: "SECRET", content: "ok" }, { role: "tool", tool_call_id: "[x]", content: "ok" }],
  ];
  test.each(CHANGED)("%s", (_name, message, expected) => {
    const sent = mapRequestText(request([message]), replacing());
    expect(sent.messages[0]).not.toBe(message);
    expect(sent.messages[0]).toEqual(expected);
  });

  test("the strings are asked in the order they stand: content, then each call's id, name and arguments, then the model", () => {
    const map = replacing();
    mapRequestText(
      request([{ role: "assistant", content: "t", tool_calls: [call("c1", "read", '{"p":"a"}'), call("c2", "bash", '{"c":"b"}')] }]),
      map,
    );
    // A map that changes something is asked the arguments' whole text too (what reading them may have lost).
    expect(map.asked).toEqual(["t", "c1", "read", "p", "a", '{"p":"a"}', "c2", "bash", "c", "b", '{"c":"b"}', "m"]);
  });
});
