import { describe, expect, test } from "bun:test";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../fixtures/secrets.ts";
import { analyzeBranch } from "../session/analyze.ts";
import { parseSession } from "../session/parse.ts";
import { buildRequest } from "../llm/request.ts";
import type { ChatRequest, Completion } from "../llm/types.ts";
import { createRedactor } from "./redact.ts";
import { redactRequest, withRedaction } from "./redact-request.ts";

/** A value as it appears inside JSON text (a private key's newlines become \\n). */
function inJson(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** Every string in a value, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(strings);
}

async function secretsRequest(): Promise<ChatRequest> {
  const session = parseSession(await Bun.file(SECRETS_SESSION).text(), SECRETS_SESSION);
  return buildRequest({ model: "m", systemPrompt: "sys", context: analyzeBranch(session).context, instruction: "write it" });
}

describe("redacting a request", () => {
  test("no planted secret survives, and the request keeps its shape", async () => {
    const request = await secretsRequest();
    const before = JSON.stringify(request);
    for (const { value } of PLANTED_SECRETS) expect(before).toContain(inJson(value));

    const redactor = createRedactor();
    const redacted = redactRequest(request, redactor);
    const after = JSON.stringify(redacted);
    for (const { value } of PLANTED_SECRETS) expect(after).not.toContain(inJson(value));
    expect(redactor.count).toBeGreaterThanOrEqual(new Set(PLANTED_SECRETS.map((s) => s.value)).size);
    expect(redacted.messages.map((m) => m.role)).toEqual(request.messages.map((m) => m.role));
    expect(redacted.tools).toEqual(request.tools);
    // The input is not changed.
    expect(JSON.stringify(request)).toBe(before);
  });

  test("each planted secret gets its expected kind, and restoring every text gives back the request", async () => {
    const request = await secretsRequest();
    const redactor = createRedactor();
    const redacted = redactRequest(request, redactor);
    const expected: Record<string, number> = {};
    for (const { kind } of PLANTED_SECRETS) expected[kind] = (expected[kind] ?? 0) + 1;
    expect(redactor.kinds).toEqual(expected);
    expect(redactor.count).toBe(PLANTED_SECRETS.length);
    expect(strings(redacted).map((s) => redactor.restore(s))).toEqual(strings(request));
  });

  test("the answer comes back with the originals restored", async () => {
    const request = await secretsRequest();
    const redactor = createRedactor();
    let seen = "";
    const complete = withRedaction(async (sent): Promise<Completion> => {
      seen = JSON.stringify(sent);
      // A model that quotes every placeholder it was shown.
      const placeholders = [...new Set(seen.match(/\[REDACTED:[a-z0-9-]+:\d+\]/g) ?? [])];
      return { text: `## Critical Context\n${placeholders.join("\n")}`, finishReason: "stop", usage: undefined, model: undefined };
    }, redactor);
    const completion = await complete(request, {});
    for (const { value } of PLANTED_SECRETS) {
      expect(seen).not.toContain(inJson(value));
      expect(completion.text).toContain(value);
    }
  });
});
