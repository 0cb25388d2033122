import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../fixtures/secrets.ts";
import type { ChatRequest, Complete, Completion } from "../llm/types.ts";
import { analyzeBranch } from "../session/analyze.ts";
import { parseSession } from "../session/formats/pi/parse.ts";
import { OFFLINE_MODEL, runHandoff } from "./pipeline.ts";
import type { HandoffDeps, HandoffInput } from "./pipeline-types.ts";
import { REQUIRED_SECTIONS } from "./prompt.ts";
import { findMissingSections } from "./validate.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");
const SOURCE = "/home/me/sessions/source.jsonl";
/** A complete document that mentions none of the session's details. */
const VAGUE_DOCUMENT = REQUIRED_SECTIONS.map((s) => `## ${s}\nSome work was done.`).join("\n\n");

function inputFor(path: string, overrides: Partial<HandoffInput> = {}): HandoffInput {
  const session = parseSession(readFileSync(path, "utf8"), path);
  return { session, analysis: analyzeBranch(session), sourcePath: SOURCE, model: "m", provider: "openai", ...overrides };
}

function model(reply: (request: ChatRequest) => string): { complete: Complete; sent: ChatRequest[] } {
  const sent: ChatRequest[] = [];
  const complete: Complete = async (request): Promise<Completion> => {
    sent.push(request);
    return { text: reply(request), finishReason: "stop", usage: { inputTokens: 10, outputTokens: 5 }, model: "m" };
  };
  return { complete, sent };
}

function deps(complete: Complete): HandoffDeps {
  let n = 0;
  return {
    complete,
    now: () => new Date("2026-11-30T08:00:00.000Z"),
    newSessionId: () => "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b",
    newEntryId: () => `f${String(++n).padStart(7, "0")}`,
  };
}

const PLANTED = join(FIXTURES, "sessions", "planted-facts.jsonl");

describe("Session Facts, whatever the engine", () => {
  test("a model document that leaves out the planted facts still carries them", async () => {
    const { complete } = model(() => VAGUE_DOCUMENT);
    const result = await runHandoff(inputFor(PLANTED), deps(complete));
    expect(result.document.startsWith(`${VAGUE_DOCUMENT}\n\n## Session Facts\n`)).toBe(true);
    for (const fact of [
      "`src/api/checkout.ts`", // the file edited early
      "`bun test test/checkout.test.ts` — exit 1, failed", // the command that failed
      '"Never touch src/payments/stripe.ts, it is shared with the billing service."', // the first message's rule
      "> Now make the limit configurable with the RATE_LIMIT_PER_MINUTE environment variable (default 10), and document it in README.md.",
      `Source session: \`${SOURCE}\``,
    ]) {
      expect(result.document).toContain(fact);
    }
    expect(findMissingSections(result.document)).toEqual([]);
  });

  test("the same facts reach the new session and the recorded answer", async () => {
    const { complete } = model(() => VAGUE_DOCUMENT);
    const result = await runHandoff(inputFor(PLANTED, { record: true }), deps(complete));
    expect(result.newSession.content).toContain(JSON.stringify(result.document).slice(1, -1));
    expect(result.recording?.mode === "append" && result.recording.text).toContain(JSON.stringify(result.document).slice(1, -1));
  });

  test("a Session Facts section the model wrote itself is replaced, not doubled", async () => {
    const { complete } = model(() => `${VAGUE_DOCUMENT}\n\n## Session Facts\n- invented by the model`);
    const result = await runHandoff(inputFor(PLANTED), deps(complete));
    expect(result.document.match(/^## Session Facts$/gm)).toHaveLength(1);
    expect(result.document).not.toContain("invented by the model");
  });

  test("facts: false leaves the document as the engine wrote it", async () => {
    const { complete } = model(() => VAGUE_DOCUMENT);
    const result = await runHandoff(inputFor(PLANTED, { facts: false }), deps(complete));
    expect(result.document).toBe(VAGUE_DOCUMENT);
  });
});

describe("the offline engine", () => {
  test("sends nothing and writes all six sections plus the facts, the same bytes every time", async () => {
    const { complete, sent } = model(() => "unused");
    const first = await runHandoff(inputFor(PLANTED, { engine: "offline", record: true }), deps(complete));
    const second = await runHandoff(inputFor(PLANTED, { engine: "offline", record: true }), deps(complete));
    expect(sent).toHaveLength(0);
    expect(first.document).toBe(second.document);
    expect(findMissingSections(first.document)).toEqual([]);
    expect(first.document).toContain("## Session Facts");
    expect(first).toMatchObject({ model: OFFLINE_MODEL, requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, redacted: 0 });
  });

  test("the rule the user stated is in both the document and its Session Facts (one reading of the branch serves both)", async () => {
    const { complete } = model(() => "unused");
    const result = await runHandoff(inputFor(PLANTED, { engine: "offline" }), deps(complete));
    const [body, facts] = result.document.split("\n## Session Facts\n");
    const rule = "Never touch src/payments/stripe.ts, it is shared with the billing service.";
    expect(body).toContain(rule);
    expect(facts).toContain(`"${rule}"`);
  });
});

describe("secrets", () => {
  const enc = (value: string) => JSON.stringify(value).slice(1, -1);

  test("never reach the model; the document comes back with them restored", async () => {
    // A model that quotes back every placeholder it was shown.
    const { complete, sent } = model((request) => {
      const seen = [...new Set(JSON.stringify(request).match(/\[REDACTED:[a-z0-9-]+:\d+\]/g) ?? [])];
      return `${VAGUE_DOCUMENT}\n\nSecrets in play: ${seen.join(" ")}`;
    });
    const result = await runHandoff(inputFor(SECRETS_SESSION, { facts: false }), deps(complete));
    const wire = JSON.stringify(sent);
    for (const { value } of PLANTED_SECRETS) {
      expect(wire).not.toContain(enc(value));
      expect(result.document).toContain(value);
    }
    expect(result.redacted).toBeGreaterThanOrEqual(new Set(PLANTED_SECRETS.map((s) => s.value)).size);
  });

  test("redact: false sends the session as it is", async () => {
    const { complete, sent } = model(() => VAGUE_DOCUMENT);
    const result = await runHandoff(inputFor(SECRETS_SESSION, { redact: false }), deps(complete));
    const first = PLANTED_SECRETS[0];
    expect(first && JSON.stringify(sent)).toContain(first ? enc(first.value) : "");
    expect(result.redacted).toBe(0);
  });
});

describe("withheld strings (the API key)", () => {
  test("never come back through the document or the model name the endpoint reports", async () => {
    const key = "sk-test-withheld-0123456789";
    const complete: Complete = async () => ({
      text: `${VAGUE_DOCUMENT}\n\nUse ${key} again.`,
      finishReason: "stop",
      usage: undefined,
      model: `model-${key}`,
    });
    const result = await runHandoff(inputFor(PLANTED, { withheld: [key], record: true }), deps(complete));
    expect(result.document).toContain("Use [withheld] again.");
    expect(result.model).toBe("model-[withheld]");
    expect(JSON.stringify(result)).not.toContain(key);
  });

  test("never reach the model entries we write, though the session named a model with it", async () => {
    const key = "sk-test-withheld-0123456789";
    const complete: Complete = async () => ({ text: VAGUE_DOCUMENT, finishReason: "stop", usage: undefined, model: "m" });
    const session = parseSession(readFileSync(PLANTED, "utf8").replaceAll('"model":"gpt-5"', `"model":"gpt-5-${key}"`));
    const input = { ...inputFor(PLANTED), session, analysis: analyzeBranch(session), withheld: [key], record: true };
    expect(JSON.stringify(input.analysis.branch.entries)).toContain(key);
    const result = await runHandoff(input, deps(complete));
    const recording = result.recording;
    const recorded =
      recording === undefined || recording.mode === "skip" ? "" : recording.mode === "append" ? recording.text : recording.turn;
    const written = `${result.newSession.content}${recorded}`;
    expect(written).toContain('"modelId":"gpt-5-[withheld]"');
    expect(written).not.toContain(key);
  });
});
