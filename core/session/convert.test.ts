import { describe, expect, test } from "bun:test";
import { convertEntry } from "./convert.ts";
import type { Entry } from "./types.ts";

/** An assistant entry whose one block is a tool call with these arguments. */
function callWith(args: unknown): Entry {
  const call: Record<string, unknown> = { type: "toolCall", id: "c1", name: "edit" };
  if (args !== undefined) call.arguments = args;
  return { type: "message", id: "e1", parentId: null, line: 2, data: { message: { role: "assistant", content: [call] } } };
}

function argumentsOf(entry: Entry): unknown {
  const message = convertEntry(entry);
  const block = message?.role === "assistant" ? message.content[0] : undefined;
  return block?.type === "toolCall" ? block.arguments : "no tool call";
}

/** `depth` objects (or arrays) one inside the next, around a string. */
function nested(depth: number, array = false): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = array ? [value] : { a: value, n: i };
  return value;
}

const NOTE = { note: "arguments nested more than 1000 levels deep were left out" };

describe("a tool call's arguments, as they can be sent", () => {
  // [case, the arguments in the file, what is sent ("same": the arguments themselves)]
  const CASES: [string, unknown, unknown][] = [
    ["a flat object of strings", { path: "a.ts", oldText: "x", newText: "y" }, "same"],
    ["objects and arrays inside", { edits: [{ old: "a", new: "b" }, null, 3], opts: { dry: true } }, "same"],
    ["none", undefined, {}],
    ["null", null, {}],
    ["a string", "ls -la", "same"],
    ["1000 objects deep (the deepest kept)", nested(1000), "same"],
    ["1001 objects deep", nested(1001), NOTE],
    ["1000 arrays deep", nested(1000, true), "same"],
    ["1001 arrays deep", nested(1001, true), NOTE],
    ["too deep in the second of two branches", { a: nested(10), b: nested(1000) }, NOTE],
  ];

  test.each(CASES)("%s", (_name, args, expected) => {
    const sent = argumentsOf(callWith(args));
    if (expected === "same") expect(sent).toBe(args);
    else expect(sent).toEqual(expected);
  });
});

describe("a message's content blocks", () => {
  const entry = (role: string, content: unknown, extra: Record<string, unknown> = {}): Entry => ({
    type: "message",
    id: "e1",
    parentId: null,
    line: 2,
    data: { message: { role, content, ...extra } },
  });
  const blocksOf = (role: string, content: unknown): unknown => {
    const message = convertEntry(entry(role, content, role === "toolResult" ? { toolCallId: "c1" } : {}));
    return message?.content;
  };

  // [case, the content in the file, the blocks of a user message, of a tool result, of an assistant turn]
  const CASES: [string, unknown, unknown[], unknown[]][] = [
    ["a string", "hi", [{ type: "text", text: "hi" }], [{ type: "text", text: "hi" }]],
    ["no content", undefined, [], []],
    ["an object, not an array", { type: "text", text: "x" }, [], []],
    ["things that are no blocks", [null, "x", 3, ["y"], { text: "no type" }], [], []],
    [
      "text that is not a string",
      [
        { type: "text", text: 5 },
        { type: "text", text: "ok" },
      ],
      [{ type: "text", text: "ok" }],
      [{ type: "text", text: "ok" }],
    ],
    [
      "thinking",
      [
        { type: "thinking", thinking: "hmm" },
        { type: "thinking", thinking: 1 },
      ],
      [],
      [{ type: "thinking", thinking: "hmm" }],
    ],
    [
      "tool calls with and without an id and a name",
      [
        { type: "toolCall", id: "c1", name: "ls", arguments: { path: "." } },
        { type: "toolCall", id: 2, name: "ls" },
        { type: "toolCall", id: "c3" },
      ],
      [],
      [{ type: "toolCall", id: "c1", name: "ls", arguments: { path: "." } }],
    ],
    [
      "images: inline, without data, a blob not on this machine",
      [
        { type: "image", data: "iVBOR", mimeType: "image/png" },
        { type: "image", mimeType: "image/png" },
        { type: "image", data: `blob:sha256:${"a".repeat(64)}` },
      ],
      [
        { type: "image", data: "iVBOR", mimeType: "image/png" },
        { type: "text", text: "[image not available: image/png blob aaaaaaaaaaaa is not on this machine]" },
      ],
      [],
    ],
    [
      "a kind we do not send",
      [
        { type: "audio", data: "x" },
        { type: "text", text: "after" },
      ],
      [{ type: "text", text: "after" }],
      [{ type: "text", text: "after" }],
    ],
  ];

  test.each(CASES)("%s", (_name, content, user, assistant) => {
    expect(blocksOf("user", content)).toEqual(user);
    expect(blocksOf("toolResult", content)).toEqual(user);
    expect(blocksOf("assistant", content)).toEqual(assistant);
  });
});
