import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { GITHUB, GITHUB_2, OPENAI } from "../../fixtures/redact-samples.ts";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../fixtures/secrets.ts";
import { buildRequest } from "../llm/request.ts";
import { analyzeBranch } from "../session/analyze.ts";
import { parseSession } from "../session/parse.ts";
import { createRedactor, redactValue, type Redactor } from "./redact.ts";

describe("redactValue", () => {
  test("redacts every string in a request body and leaves the input untouched", () => {
    const body = {
      model: "gpt-5",
      messages: [
        { role: "user", content: `my key is ${OPENAI}` },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: `export TOKEN=${GITHUB}` }) } }] },
        { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: `DB_PASSWORD=hunter22` }] },
      ],
      stream: true,
      max_tokens: 1000,
    };
    const before = structuredClone(body);
    const redactor = createRedactor();
    const out = redactValue(body, redactor);
    expect(body).toEqual(before);
    expect(JSON.stringify(out)).toBe(
      JSON.stringify(before)
        .replace(OPENAI, "[REDACTED:openai-key:1]")
        .replace(GITHUB, "[REDACTED:github-token:1]")
        .replace("hunter22", "[REDACTED:password:1]"),
    );
  });

  test("numbers placeholders in document order", () => {
    const out = redactValue({ messages: [{ content: [{ text: `first ${GITHUB}` }] }, { content: `second ${GITHUB_2}` }] }, createRedactor());
    expect(out).toEqual({ messages: [{ content: [{ text: "first [REDACTED:github-token:1]" }] }, { content: "second [REDACTED:github-token:2]" }] });
  });

  test("a string under a key that names a secret is redacted whole", () => {
    const out = redactValue({ apiKey: "plain words 12", password: "${PW}", db: { client_secret: "abc 123" }, max_tokens: "4096" }, createRedactor());
    expect(out).toEqual({ apiKey: "[REDACTED:api-key:1]", password: "${PW}", db: { client_secret: "[REDACTED:secret:1]" }, max_tokens: "4096" });
  });

  test("image data URLs pass through untouched", () => {
    const url = "data:image/png;base64,iVBORw0KGgo/AKIAQ3VX7LM2RT5ZW4NB/password=abc123";
    expect(redactValue([{ type: "image_url", image_url: { url } }], createRedactor())).toEqual([{ type: "image_url", image_url: { url } }]);
  });

  test("keeps numbers, booleans, null, key order and a __proto__ key as data", () => {
    const input: unknown = JSON.parse('{"b":1,"a":[true,null,2.5],"__proto__":{"x":"y"}}');
    const out = redactValue(input, createRedactor());
    expect(JSON.stringify(out)).toBe('{"b":1,"a":[true,null,2.5],"__proto__":{"x":"y"}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  test("walks 200,000 levels of nesting without overflowing the stack", () => {
    const depth = 200_000;
    const deep: unknown = JSON.parse(`${"[".repeat(depth)}"token=${GITHUB}"${"]".repeat(depth)}`);
    let node: unknown = redactValue(deep, createRedactor());
    for (let i = 0; i < depth; i++) node = Array.isArray(node) ? node[0] : undefined;
    expect(node).toBe("token=[REDACTED:github-token:1]");
  });
});

describe("the planted-secrets fixture", () => {
  const session = parseSession(readFileSync(SECRETS_SESSION, "utf8"), SECRETS_SESSION);
  const analysis = analyzeBranch(session);

  /** Every string in a value, however deep. */
  function strings(value: unknown): string[] {
    if (typeof value === "string") return [value];
    if (typeof value !== "object" || value === null) return [];
    return Object.values(value).flatMap(strings);
  }

  function leaks(value: unknown): string[] {
    const all = strings(value).join("\n");
    return PLANTED_SECRETS.filter((s) => all.includes(s.value) || all.includes(JSON.stringify(s.value).slice(1, -1))).map((s) => s.kind);
  }

  test("every planted secret reaches the context unredacted (so the fixture tests something)", () => {
    expect(analysis.context.length).toBeGreaterThan(10);
    expect(leaks(analysis.context).length).toBe(PLANTED_SECRETS.length);
  });

  test("none is left in the redacted request body, and each gets its expected kind", () => {
    const request = buildRequest({ model: "m", systemPrompt: "s", context: analysis.context, instruction: "hand off" });
    const redactor: Redactor = createRedactor();
    const out = redactValue(request, redactor);
    expect(leaks(out)).toEqual([]);
    const expected: Record<string, number> = {};
    for (const { kind } of PLANTED_SECRETS) expected[kind] = (expected[kind] ?? 0) + 1;
    expect(redactor.kinds).toEqual(expected);
    expect(redactor.count).toBe(PLANTED_SECRETS.length);
    // Restoring every string gives back the request as it was.
    expect(strings(out).map((s) => redactor.restore(s))).toEqual(strings(request));
  });

  test("redacting the context messages themselves (tool arguments as objects) also leaves nothing", () => {
    expect(leaks(redactValue(analysis.context, createRedactor()))).toEqual([]);
  });
});
