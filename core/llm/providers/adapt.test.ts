import { describe, expect, test } from "bun:test";
import { buildRequest } from "../request.ts";
import { CompletionError, type ChatMessage, type ChatRequest, type Complete, type Completion } from "../types.ts";
import { createProviderPort, fallbackFor } from "./adapt.ts";
import { PROFILES } from "./choose.ts";

const DONE: Completion = { text: "ok", finishReason: "stop", usage: undefined, model: undefined };

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { ...buildRequest({ model: "m", systemPrompt: "rules", context: [], instruction: "go", maxOutputTokens: 500 }), ...extra };
}

/** An endpoint that refuses any request carrying one of `refused` (a field, or `role:<role>`). */
function strictEndpoint(refused: string[]): { complete: Complete; sent: ChatRequest[] } {
  const sent: ChatRequest[] = [];
  const complete: Complete = async (r) => {
    sent.push(structuredClone(r));
    for (const field of refused) {
      if (field.startsWith("role:") && r.messages.some((m) => m.role === field.slice(5)))
        throw new CompletionError("unsupported_parameter", `role ${field.slice(5)} refused`, "messages[0].role");
      if (field === "tool_choice=none" && r.tool_choice === "none")
        throw new CompletionError("unsupported_parameter", "auto only", "tool_choice");
      if (field in r) throw new CompletionError("unsupported_parameter", `${field} refused`, field);
    }
    return DONE;
  };
  return { complete, sent };
}

describe("fallbackFor: the documented alternative, or leaving the parameter out", () => {
  test.each([
    ["max_tokens", request(), { max_completion_tokens: 500 }, ["max_tokens"]],
    [
      "max_completion_tokens",
      request({ max_tokens: undefined, max_completion_tokens: 500 }),
      { max_tokens: 500 },
      ["max_completion_tokens"],
    ],
    ["stream_options.include_usage", request(), {}, ["stream_options"]],
    ["reasoning_effort", request({ reasoning_effort: "low" }), {}, ["reasoning_effort"]],
    ["temperature", Object.assign(request(), { temperature: 0 }), {}, ["temperature"]],
  ])("%s", (param, before, added, removed) => {
    const fix = fallbackFor(before, param, new Set());
    if (!fix) throw new Error("no fallback");
    const after = fix.apply(before);
    expect(after).toMatchObject(added);
    for (const field of removed) expect(field in after).toBe(false);
    expect(after.messages).toEqual(before.messages);
  });

  test("the instructions' role: system becomes developer, developer becomes system", () => {
    const withSystem = request();
    const fix = fallbackFor(withSystem, "messages[0].role", new Set());
    expect(fix?.apply(withSystem).messages[0]?.role).toBe("developer");
    const withDeveloper = { ...withSystem, messages: [{ role: "developer" as const, content: "rules" }, ...withSystem.messages.slice(1)] };
    expect(fallbackFor(withDeveloper, "messages[0].role", new Set())?.apply(withDeveloper).messages[0]?.role).toBe("system");
  });

  test.each([
    ["model", request()],
    ["messages", request()],
    ["stream", request()],
    ["a field we never sent", request()],
    ["messages[1].role", request()],
  ])("nothing to try for %s", (param, before) => {
    expect(fallbackFor(before, param, new Set())).toBeUndefined();
  });

  test.each<[string, ChatMessage["role"][]]>([
    ["messages[].role", ["system", "user", "assistant", "tool", "assistant", "user"]],
    ["messages[].reasoning_content", ["system", "user", "assistant", "tool", "user"]],
  ])("a rule about the turns: %s", (param, roles) => {
    const before: ChatRequest = {
      ...request(),
      messages: [
        { role: "system", content: "rules" },
        { role: "user", content: "run it" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call00001", type: "function", function: { name: "bash", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call00001", content: "ok" },
        { role: "user", content: "go" },
      ],
    };
    const after = fallbackFor(before, param, new Set())?.apply(before);
    expect(after?.messages.map((m) => m.role)).toEqual(roles);
    const assistants = after?.messages.filter((m) => m.role === "assistant") ?? [];
    for (const m of assistants) expect(m.reasoning_content).toBe(param === "messages[].reasoning_content" ? "" : undefined);
  });

  test("a parameter already tried has no second fallback", () => {
    expect(fallbackFor(request(), "max_tokens", new Set(["output-limit"]))).toBeUndefined();
  });
});

describe("createProviderPort", () => {
  test("a refused parameter: sent once more without it, said once, and left out of every later request", async () => {
    const endpoint = strictEndpoint(["stream_options"]);
    const notices: string[] = [];
    const port = createProviderPort(endpoint.complete, { profile: PROFILES.generic, notice: (line) => notices.push(line) });
    const first = await port(request(), {});
    await port(request(), {});
    expect(endpoint.sent.map((r) => "stream_options" in r)).toEqual([true, false, false]);
    expect(first.resent).toBe(1);
    expect(notices).toEqual([
      "the endpoint refused `stream_options` (stream_options refused); leaving `stream_options` out, for the rest of this run",
    ]);
  });

  test("two refusals in a row, each fixed once (Mistral refuses stream_options and max_completion_tokens)", async () => {
    const endpoint = strictEndpoint(["stream_options", "max_completion_tokens"]);
    const port = createProviderPort(endpoint.complete, { profile: PROFILES.generic });
    await port(request({ max_tokens: undefined, max_completion_tokens: 500 }), {});
    expect(endpoint.sent).toHaveLength(3);
    expect(endpoint.sent[2]).toMatchObject({ max_tokens: 500 });
    expect("stream_options" in (endpoint.sent[2] ?? {})).toBe(false);
  });

  test("refused again after its fallback: the endpoint's error, no third attempt", async () => {
    const endpoint = strictEndpoint(["max_tokens", "max_completion_tokens"]);
    const port = createProviderPort(endpoint.complete, { profile: PROFILES.generic });
    await expect(port(request(), {})).rejects.toThrow("max_completion_tokens refused");
    expect(endpoint.sent).toHaveLength(2);
  });

  test("every request is shaped by the profile first", async () => {
    const endpoint = strictEndpoint([]);
    const port = createProviderPort(endpoint.complete, { profile: PROFILES.openai });
    await port({ ...request(), model: "gpt-5" }, {});
    expect(endpoint.sent[0]).toMatchObject({ max_completion_tokens: 500, reasoning_effort: "low" });
    expect(endpoint.sent[0]?.messages[0]?.role).toBe("developer");
  });

  test("other failures pass through untouched", async () => {
    const failure = new CompletionError("context_length", "too long");
    const port = createProviderPort(() => Promise.reject(failure), { profile: PROFILES.generic });
    await expect(port(request(), {})).rejects.toBe(failure);
  });
});
