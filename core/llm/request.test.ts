import { describe, expect, test } from "bun:test";
import type { ContextMessage } from "../session/messages.ts";
import { buildRequest, type RequestInput } from "./request.ts";

const ask: ContextMessage = { role: "user", kind: "user", content: [{ type: "text", text: "Fix the export." }], entryId: "u1" };

const chatOnly: ContextMessage[] = [
  ask,
  { role: "assistant", content: [{ type: "text", text: "Fixed." }], provider: "openai", model: "gpt-5", stopReason: "stop", entryId: "a1" },
];

const withTools: ContextMessage[] = [
  ask,
  {
    role: "assistant",
    content: [
      { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/export.ts" } },
      { type: "toolCall", id: "c2", name: "bash", arguments: { command: "npm test" } },
    ],
    provider: "openai",
    model: "gpt-5",
    stopReason: "toolUse",
    entryId: "a1",
  },
  { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "export …" }], isError: false, entryId: "r1" },
  { role: "toolResult", toolCallId: "c2", toolName: "bash", content: [{ type: "text", text: "1 passing" }], isError: false, entryId: "r2" },
];

const request = (overrides: Partial<RequestInput> = {}) =>
  buildRequest({ model: "gpt-4.1-mini", systemPrompt: "SYSTEM", context: chatOnly, instruction: "INSTRUCTION", ...overrides });

describe("buildRequest", () => {
  test("sends the system prompt first, the context, then the instruction last", () => {
    expect(request().messages).toEqual([
      { role: "system", content: "SYSTEM" },
      { role: "user", content: "Fix the export." },
      { role: "assistant", content: "Fixed." },
      { role: "user", content: "INSTRUCTION" },
    ]);
  });

  test("asks for a stream with usage, for the given model", () => {
    const body = request();
    expect(body.model).toBe("gpt-4.1-mini");
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  test("declares no tools and no tool_choice when the history has no tool calls", () => {
    const body = request();
    expect("tools" in body).toBe(false);
    expect("tool_choice" in body).toBe(false);
  });

  test("stubs the history's tools by name and forbids calling them", () => {
    const body = request({ context: withTools });
    expect(body.tools?.map((t) => t.function.name)).toEqual(["bash", "read"]);
    expect(body.tool_choice).toBe("none");
  });

  test("uses tool_choice auto when asked", () => {
    expect(request({ context: withTools, toolChoice: "auto" }).tool_choice).toBe("auto");
  });

  test("puts extra turns between the context and the instruction", () => {
    const body = request({
      extraMessages: [
        { role: "assistant", content: "DRAFT" },
        { role: "user", content: "REPAIR" },
      ],
    });
    expect(body.messages.slice(-4).map((m) => m.content)).toEqual(["Fixed.", "DRAFT", "REPAIR", "INSTRUCTION"]);
  });

  test("sets max_tokens only when asked", () => {
    expect("max_tokens" in request()).toBe(false);
    expect(request({ maxOutputTokens: 4096 }).max_tokens).toBe(4096);
  });

  test("serialises to JSON without undefined keys", () => {
    expect(JSON.parse(JSON.stringify(request()))).toEqual({
      model: "gpt-4.1-mini",
      messages: [
        { role: "system", content: "SYSTEM" },
        { role: "user", content: "Fix the export." },
        { role: "assistant", content: "Fixed." },
        { role: "user", content: "INSTRUCTION" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
