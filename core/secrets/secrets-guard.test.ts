import { describe, expect, test } from "bun:test";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../fixtures/secrets.ts";
import { analyzeBranch } from "../session/analyze.ts";
import { parseSession } from "../session/formats/pi/parse.ts";
import { buildRequest } from "../llm/request.ts";
import type { ChatRequest, Completion } from "../llm/types.ts";
import type { ContextMessage } from "../session/messages.ts";
import { createSecretsGuard } from "./secrets-guard.ts";

/** A value as it appears inside JSON text (a private key's newlines become \\n). */
function inJson(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

async function secretsContext(): Promise<ContextMessage[]> {
  const session = parseSession(await Bun.file(SECRETS_SESSION).text(), SECRETS_SESSION);
  return analyzeBranch(session).context;
}

const requestFor = (context: readonly ContextMessage[]): ChatRequest =>
  buildRequest({ model: "m", systemPrompt: "sys", context, instruction: "write it" });

describe("the secrets guard", () => {
  test("a request built from the outgoing input carries no planted secret, and keeps its shape", async () => {
    const context = await secretsContext();
    const raw = requestFor(context);
    for (const { value } of PLANTED_SECRETS) expect(JSON.stringify(raw)).toContain(inJson(value));

    const guard = createSecretsGuard({ context });
    const sent = guard.request(requestFor(guard.outgoing().context));
    const text = JSON.stringify(sent);
    for (const { value } of PLANTED_SECRETS) expect(text).not.toContain(inJson(value));
    expect(sent.messages.map((m) => m.role)).toEqual(raw.messages.map((m) => m.role));
    expect(sent.tools).toEqual(raw.tools);
  });

  test("each planted secret gets its expected kind, once", async () => {
    const guard = createSecretsGuard({ context: await secretsContext() });
    guard.outgoing();
    const expected = new Set(PLANTED_SECRETS.map((s) => s.value));
    expect(guard.redacted).toBe(expected.size);
  });

  test("the port withholds the key from any request, and hands answers back redacted, never restored", async () => {
    const key = "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";
    const context = await secretsContext();
    const guard = createSecretsGuard({ context, withheld: [key] });
    const [first] = PLANTED_SECRETS;
    let seen = "";
    const complete = guard.port(async (sent): Promise<Completion> => {
      seen = JSON.stringify(sent);
      // A model that writes a secret it was never shown, and an endpoint that echoes the key.
      return { text: `## Critical Context\n${first?.value} and ${key}`, finishReason: "stop", usage: undefined, model: undefined };
    });
    const completion = await complete(
      requestFor([{ role: "user", kind: "user", content: [{ type: "text", text: `use ${key}` }], entryId: "u" }]),
      {},
    );
    expect(seen).toContain("use [withheld]");
    expect(seen).not.toContain(key);
    expect(completion.text).toBe(`## Critical Context\n[REDACTED:${first?.kind}:1] and [withheld]`);
    // Restoring is a separate, final step, and never brings the key back.
    expect(guard.restore(completion.text)).toBe(`## Critical Context\n${first?.value} and [withheld]`);
  });
});

/** One token of each provider kind, one per line, as a `write` call would carry a `.env` file. */
const PROVIDER_TOKENS = [
  "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc",
  "sk-ant-api03-Zx9_Cv8-Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhAA",
  "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue",
  "glpat-Xk2_9vLm-Qr7TzWc1Nb4",
  "AKIAQ3VX7LM2RT5ZW4NB",
  "AIzaSyB3x9Lk2_Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf-Q",
  "xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2",
  "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  "npm_Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8",
];
const CALL_ID = "toolu_ghp_9Zx8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Qw0Er9Ty8Ui";
const TOOL_NAME = "ghp_1Ab2Cd3Ef4Gh5Ij6Kl7Mn8Op9Qr0St1Uv2Wx";

function toolCallContext(): ContextMessage[] {
  return [
    { role: "user", kind: "user", content: [{ type: "text", text: "write the env file" }], entryId: "u1" },
    {
      role: "assistant",
      content: [
        {
          type: "toolCall",
          id: CALL_ID,
          name: "write",
          arguments: { path: ".env", content: `${PROVIDER_TOKENS.join("\n")}\n`, db: { password: "hashed" } },
        },
        { type: "toolCall", id: "call_2", name: TOOL_NAME, arguments: {} },
      ],
      provider: "openai",
      model: "gpt-5",
      stopReason: "toolUse",
      entryId: "a1",
    },
    {
      role: "toolResult",
      toolCallId: CALL_ID,
      toolName: "write",
      content: [{ type: "text", text: "written" }],
      isError: false,
      entryId: "r1",
    },
    {
      role: "toolResult",
      toolCallId: "call_2",
      toolName: TOOL_NAME,
      content: [{ type: "text", text: "ok" }],
      isError: false,
      entryId: "r2",
    },
  ];
}

describe("tool calls", () => {
  test("arguments are redacted where their strings are: a token at the start of a line goes too", () => {
    const guard = createSecretsGuard({ context: toolCallContext() });
    const sent = JSON.stringify(guard.request(requestFor(guard.outgoing().context)));
    for (const token of PROVIDER_TOKENS) expect(sent).not.toContain(token);
    // A value under a secret's key is a secret even when it reads as a word.
    expect(sent).not.toContain("hashed");
    expect(guard.redacted).toBe(PROVIDER_TOKENS.length + 2);
  });

  test("ids are sent renumbered, a call and its result alike; names are redacted and stay valid tool names", () => {
    const guard = createSecretsGuard({ context: toolCallContext() });
    const sent = guard.request(requestFor(guard.outgoing().context));
    const text = JSON.stringify(sent);
    expect(text).not.toContain(CALL_ID);
    expect(text).not.toContain(TOOL_NAME);
    const calls = sent.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []));
    const results = sent.messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : []));
    expect(calls.map((c) => c.id)).toEqual(["call00001", "call00002"]);
    expect(results).toEqual(["call00001", "call00002"]);
    const names = [...calls.map((c) => c.function.name), ...(sent.tools ?? []).map((t) => t.function.name)];
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(calls.map((c) => c.function.name)).toEqual(["write", "_REDACTED_github-token_2_"]);
    // Arguments stay valid JSON with their structure.
    expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual({
      path: ".env",
      content: expect.stringContaining("[REDACTED:openai-key:1]\n[REDACTED:anthropic-key:1]\n"),
      db: { password: "[REDACTED:password:1]" },
    });
  });
});

describe("tool-call arguments a request carries, the key withheld from each string and number in them", () => {
  /** [key, arguments as sent to the guard, as they leave]. */
  const CASES: [key: string, args: string, sent: string][] = [
    ["sk-test-abcdefgh", '{"c":"ls -la","n":3}', '{"c":"ls -la","n":3}'],
    ["sk-test-abcdefgh", '{"c":"echo sk-test-abcdefgh"}', '{"c":"echo [withheld]"}'],
    // Escaped in the JSON text: only a reader of its strings sees the key.
    ["sk-test-abcdefgh", '{"c":"echo \\u0073k-test-abcdefgh"}', '{"c":"echo [withheld]"}'],
    ["sk-test-abcdefgh", '{"c":"echo sk-test-\\u200babcdefgh"}', '{"c":"echo [withheld]"}'],
    // The key as an argument's name, not its value.
    ["sk-test-abcdefgh", '{"sk-test-abcdefgh":1}', '{"[withheld]":1}'],
    // A number is read and written again: its text need not hold the key its value reads as.
    ["100000", '{"n":1e5}', '{"n":"[withheld]"}'],
    ["Infinity", '{"n":1e999}', '{"n":"[withheld]"}'],
    ["-Infinity", "[-1e400]", '["[withheld]"]'],
    ["Infinity", '{"n":1e308}', '{"n":1e308}'],
    // A key with a quote, a line break or a tab, JSON-escaped twice in a string (JSON quoted in JSON),
    // stands in the arguments escaped three times: its strings must still be read.
    ['pa"ss-abcdefgh', String.raw`{"c":"echo pa\\\\\\\"ss-abcdefgh"}`, '{"c":"echo [withheld]"}'],
    ["pa\nss-abcdefgh", String.raw`{"c":"x=pa\\\\nss-abcdefgh"}`, '{"c":"x=[withheld]"}'],
    ["pa\tss-abcdefgh", String.raw`{"pa\\\\tss-abcdefgh":1}`, '{"[withheld]":1}'],
    // What reading drops or writes another way is in the text only: the value is written again.
    ["sk-test-abcdefgh", '{"c":"echo sk-test-abcdefgh","c":"ls"}', '{"c":"ls"}'],
    ["sk-test-abcdefgh", '{"sk-test-abcdefgh":1,"sk-test-abcdefgh":2}', '{"[withheld]":2}'],
    ["123456789012", '{"n":123456789012345678901234}', '{"n":1.2345678901234569e+23}'],
    ["1e21", '{"n":1e21}', '{"n":1e+21}'],
    ["sk-test-abcdefgh", '{"c":"ls","c":"pwd"}', '{"c":"ls","c":"pwd"}'],
    // The text holds the key's characters only where its value does not read as the key: kept as it is.
    ["1e+21", String.raw`{"x1e+21 \u00781e+21":100000}`, String.raw`{"x1e+21 \u00781e+21":100000}`],
  ];
  test.each(CASES)("with %p withheld, %p leaves as %p", (key, args, sent) => {
    const guard = createSecretsGuard({ context: [], withheld: [key] });
    const request: ChatRequest = {
      model: "m",
      stream: true,
      messages: [
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: args } }] },
      ],
    };
    const [message] = guard.request(request).messages;
    expect(message?.role === "assistant" ? message.tool_calls?.[0]?.function.arguments : undefined).toBe(sent);
  });
});

describe("short texts that recur (tool names, keys, short messages)", () => {
  test("each occurrence is mapped as the first was: one placeholder per secret, wherever and however often it recurs", () => {
    const secretKey = "api_key=Zq8vLm3Rt7Wx2Kp9";
    const context: ContextMessage[] = [1, 2, 3].flatMap((n): ContextMessage[] => [
      { role: "user", kind: "user", content: [{ type: "text", text: secretKey }], entryId: `u${n}` },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: `c${n}`, name: secretKey, arguments: { [secretKey]: "x", note: secretKey, path: "a.ts" } }],
        provider: "openai",
        model: "gpt-5",
        stopReason: "toolUse",
        entryId: `a${n}`,
      },
      {
        role: "toolResult",
        toolCallId: `c${n}`,
        toolName: secretKey,
        content: [{ type: "text", text: "ok" }],
        isError: false,
        entryId: `r${n}`,
      },
    ]);
    const guard = createSecretsGuard({ context });
    const text = JSON.stringify(guard.outgoing().context);
    expect(text).not.toContain("Zq8vLm3Rt7Wx2Kp9");
    expect(text.split("api_key=[REDACTED:api-key:1]").length - 1).toBe(15);
    expect(guard.redacted).toBe(1);
    expect(guard.restore(JSON.stringify(guard.outgoing().context))).toBe(JSON.stringify(context));
  });
});

describe("every value under a secret's key, whatever its type and depth", () => {
  /** [what, the arguments, the secrets in them]. */
  const CASES: [name: string, args: Record<string, unknown>, secrets: string[]][] = [
    ["a number", { password: 48213975 }, ["48213975"]],
    ["an array of strings", { api_key: ["Hunter2isMyPass8", "Hunter2isMyPass7"] }, ["Hunter2isMyPass8", "Hunter2isMyPass7"]],
    ["an object", { secret: { value: "Hunter2isMyPass9" } }, ["Hunter2isMyPass9"]],
    ["an object in an array in an object", { auth_token: { list: [{ v: "Tk5Deep77x" }, 31415926] } }, ["Tk5Deep77x", "31415926"]],
    ["a number in an array", { pin: 1, passwords: [7, 1234567] }, ["1234567"]],
    [
      "the attacker's three together",
      { password: 48213975, api_key: ["Hunter2isMyPass8"], secret: { value: "Hunter2isMyPass9" } },
      ["48213975", "Hunter2isMyPass8", "Hunter2isMyPass9"],
    ],
  ];

  const contextWith = (args: Record<string, unknown>): ContextMessage[] => [
    { role: "user", kind: "user", content: [{ type: "text", text: "configure it" }], entryId: "u1" },
    {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "configure", arguments: args }],
      provider: "openai",
      model: "gpt-5",
      stopReason: "toolUse",
      entryId: "a1",
    },
    {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "configure",
      content: [{ type: "text", text: "done" }],
      isError: false,
      entryId: "r1",
    },
  ];

  test.each(CASES)("%s: not sent, and back in the document", (_name, args, secrets) => {
    const guard = createSecretsGuard({ context: contextWith(args) });
    const sent = JSON.stringify(guard.request(requestFor(guard.outgoing().context)));
    for (const secret of secrets) expect(sent).not.toContain(secret);
    const placeholders = sent.match(/\[REDACTED:[a-z-]+:\d+\]/g) ?? [];
    expect(placeholders.length).toBeGreaterThanOrEqual(secrets.length);
    const restored = guard.restore(placeholders.join(" "));
    for (const secret of secrets) expect(restored).toContain(secret);
  });

  test("values under other keys keep their type; booleans and null stay", () => {
    const args = { path: "src/a.ts", lines: [1, 2, 3], max_tokens: 100, tokens: 5120, enabled: true, password: null, token: false };
    const guard = createSecretsGuard({ context: contextWith(args) });
    const sent = guard.request(requestFor(guard.outgoing().context));
    const calls = sent.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []));
    expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual(args);
    expect(guard.redacted).toBe(0);
  });
});

describe("what a document is written from (forDocument)", () => {
  const TOKEN = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";
  const KEY = "Zq8localproxykey44LmNp0wXyQ7";
  const context: ContextMessage[] = [
    { role: "user", kind: "user", content: [{ type: "text", text: `deploy with ${TOKEN}` }], entryId: "e1" },
  ];
  const facts = {
    cwd: "/home/me/app",
    filesRead: [`/home/me/app/${TOKEN}.txt`],
    filesModified: [],
    filesDeleted: [],
    commands: [{ command: `curl -H "Authorization: token ${TOKEN}" ${KEY}`, exitCode: 0, by: "tool" as const, failed: false }],
    models: ["openai/gpt-5"],
    lastUserRequest: `deploy with ${TOKEN} and ${KEY}`,
  };

  test("facts and cwd are redacted with the context's placeholders, the key withheld; restore gives them back", () => {
    const guard = createSecretsGuard({ context, withheld: [KEY] });
    const sources = guard.forDocument(facts, "/home/me/app");
    expect(sources.context).toEqual(guard.outgoing().context);
    expect(sources.facts.lastUserRequest).toBe("deploy with [REDACTED:github-token:1] and [withheld]");
    expect(sources.facts.commands).toEqual([
      { command: 'curl -H "Authorization: token [REDACTED:github-token:1]" [withheld]', exitCode: 0, by: "tool", failed: false },
    ]);
    expect(sources.facts.filesRead).toEqual(["/home/me/app/[REDACTED:github-token:1].txt"]);
    expect(sources.cwd).toBe("/home/me/app");
    expect(sources.facts.filesRead.map(guard.restore)).toEqual(facts.filesRead);
  });

  test("with --no-redact: only the key is withheld", () => {
    const sources = createSecretsGuard({ context, withheld: [KEY], redact: false }).forDocument(facts, undefined);
    expect(sources.facts.lastUserRequest).toBe(`deploy with ${TOKEN} and [withheld]`);
  });
});
