import { describe, expect, test } from "bun:test";
import { promptTokens } from "../../fixtures/fake-openai.ts";
import { AgentError } from "../errors.ts";
import { CompletionError, type ChatRequest, type Complete, type Completion } from "../llm/types.ts";
import type { ContextMessage } from "../session/messages.ts";
import { workSession } from "./condense/condense.testing.ts";
import { MAX_HALVINGS, planDocumentRequests, writeDocumentWithModel } from "./llm-engine.ts";
import type { ModelEngineInput } from "./llm-engine-types.ts";
import { REQUIRED_SECTIONS } from "./prompt.ts";

const DOCUMENT = REQUIRED_SECTIONS.map((name) => `## ${name}\nAbout ${name.toLowerCase()}.`).join("\n\n");

/** A model behind a window like a real endpoint's: refuses prompts that, with max_tokens, exceed it. */
function endpoint(window: number, answer: (request: ChatRequest, index: number) => string = () => DOCUMENT) {
  const requests: ChatRequest[] = [];
  const refused: number[] = [];
  const complete: Complete = async (request) => {
    requests.push(structuredClone(request));
    const asked = promptTokens(request) + (request.max_tokens ?? 0);
    if (asked > window) {
      refused.push(requests.length - 1);
      throw new CompletionError(
        "context_length",
        `the request is larger than the model's context window (maximum context length is ${window} tokens, you asked for ${asked})`,
      );
    }
    const completion: Completion = {
      text: answer(request, requests.length - 1),
      finishReason: "stop",
      usage: { inputTokens: 10, outputTokens: 2 },
      model: "m-1",
    };
    return completion;
  };
  return { complete, requests, refused };
}

const lastText = (request: ChatRequest | undefined) => String(request?.messages.at(-1)?.content ?? "");
const isNotesRequest = (request: ChatRequest | undefined) =>
  String(request?.messages[0]?.content ?? "").startsWith("You keep running notes");
const allText = (request: ChatRequest | undefined) =>
  (request?.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");

const large: ContextMessage[] = workSession({ rounds: 120, requestEvery: 6, resultChars: 3000 });
const input = (overrides: Partial<ModelEngineInput> = {}): ModelEngineInput => ({
  context: large,
  model: "m",
  contextWindow: 16_000,
  ...overrides,
});

describe("writeDocumentWithModel: condensing", () => {
  test("a context that fits takes one request and reports nothing condensed", async () => {
    const model = endpoint(128_000);
    const result = await writeDocumentWithModel(input({ context: large.slice(0, 12), contextWindow: 128_000 }), {
      complete: model.complete,
    });
    expect(model.requests).toHaveLength(1);
    expect(result.condensed).toBeNull();
    expect(result.document).toBe(DOCUMENT);
  });

  test("folds oldest first, each notes request carrying the notes so far; the handoff request carries the last notes", async () => {
    const model = endpoint(16_000, (request, i) => (isNotesRequest(request) ? `## Goal\nNOTES-AFTER-PART-${i + 1}` : DOCUMENT));
    const result = await writeDocumentWithModel(input(), { complete: model.complete });
    const notesRequests = model.requests.filter(isNotesRequest);
    expect(notesRequests.length).toBeGreaterThan(2);
    expect(model.requests).toHaveLength(notesRequests.length + 1);
    expect(lastText(notesRequests[0])).toContain("there are no notes yet");
    for (let i = 1; i < notesRequests.length; i++) expect(lastText(notesRequests[i])).toContain(`NOTES-AFTER-PART-${i}\n</notes>`);
    expect(allText(model.requests.at(-1))).toContain(`NOTES-AFTER-PART-${notesRequests.length}\n</notes>`);
    expect(model.refused).toEqual([]);
    expect(result.requests).toBe(model.requests.length);
    expect(result.usage).toEqual({ inputTokens: 10 * model.requests.length, outputTokens: 2 * model.requests.length });
    expect(result.condensed).toMatchObject({
      contextWindow: 16_000,
      halvings: 0,
      notesRequests: notesRequests.length,
      requests: model.requests.length,
    });
    expect(result.condensed?.messagesFolded).toBeGreaterThan(0);
    expect(result.condensed?.tokensAfter).toBeLessThan(result.condensed?.tokensBefore ?? 0);
  });

  test("sends exactly the requests --dry-run plans, the first one byte for byte", async () => {
    const model = endpoint(16_000);
    await writeDocumentWithModel(input(), { complete: model.complete });
    const planned = planDocumentRequests(input());
    expect(model.requests).toHaveLength(planned.requests.length);
    expect(model.requests[0]).toEqual(planned.requests[0]);
    expect(planned.lines.at(-1)).toContain("placeholder notes");
  });

  test("when the endpoint's window is smaller than we were told, halves the budget and succeeds", async () => {
    const model = endpoint(7_000);
    const result = await writeDocumentWithModel(input(), { complete: model.complete });
    expect(model.refused.length).toBeGreaterThan(0);
    expect(model.refused.length).toBeLessThanOrEqual(MAX_HALVINGS);
    expect(result.condensed?.halvings).toBe(model.refused.length);
    expect(result.requests).toBe(model.requests.length);
    // After the last refusal, nothing more was refused.
    expect(model.requests.slice((model.refused.at(-1) ?? 0) + 1).every((r) => promptTokens(r) + (r.max_tokens ?? 0) <= 7_000)).toBe(true);
  });

  test("a context that fit by our estimate but not the endpoint's is condensed on the retries", async () => {
    const model = endpoint(5_000);
    const result = await writeDocumentWithModel(input({ context: large.slice(0, 40), contextWindow: 128_000 }), {
      complete: model.complete,
    });
    expect(model.refused[0]).toBe(0);
    expect(model.requests[0]?.max_tokens).toBeUndefined();
    expect(result.condensed?.halvings).toBe(model.refused.length);
    expect(result.condensed?.messagesFolded).toBeGreaterThan(0);
  });

  test(`gives up after ${MAX_HALVINGS} halvings, saying what was tried`, async () => {
    const model = endpoint(2_600);
    const error = await writeDocumentWithModel(input({ contextWindow: 64_000 }), { complete: model.complete }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentError);
    if (!(error instanceof AgentError)) return;
    expect(error.code).toBe("HANDOFF_FAILED");
    expect(model.refused).toHaveLength(MAX_HALVINGS + 1);
    expect(error.message).toMatch(
      /^the endpoint refused 4 requests of ~[\d,]+, ~[\d,]+, ~[\d,]+ and ~[\d,]+ tokens \(our estimate\) as larger than the model's context window; --context-window is 64000/,
    );
    expect(error.message).toContain("maximum context length is 2600 tokens");
  });

  test("empty notes fail the run, naming the part", async () => {
    const model = endpoint(16_000, (request) => (isNotesRequest(request) ? "  " : DOCUMENT));
    await expect(writeDocumentWithModel(input(), { complete: model.complete })).rejects.toThrow(/no notes for part 1 of \d+/);
  });

  test("notes cut at their limit are a warning", async () => {
    const model = endpoint(16_000);
    const complete: Complete = async (request, options) => {
      const completion = await model.complete(request, options);
      return isNotesRequest(request) && model.requests.length === 2 ? { ...completion, finishReason: "length" } : completion;
    };
    const result = await writeDocumentWithModel(input(), { complete });
    expect(result.warnings).toEqual([
      expect.stringMatching(/^the notes on part 2 of \d+ reached their limit of 2000 tokens and may be cut short$/),
    ]);
  });

  test("an abort during a notes request stops the run before the next request", async () => {
    const controller = new AbortController();
    const model = endpoint(16_000, () => {
      controller.abort();
      return "## Goal\nnotes";
    });
    await expect(writeDocumentWithModel(input(), { complete: model.complete, signal: controller.signal })).rejects.toMatchObject({
      code: "CANCELLED",
    });
    expect(model.requests).toHaveLength(1);
  });

  test("strict: the repair request follows the condensed handoff request", async () => {
    const model = endpoint(16_000, (request) =>
      isNotesRequest(request) ? "## Goal\nnotes" : lastText(request).startsWith("Your document is missing") ? DOCUMENT : "## Goal\nonly",
    );
    const result = await writeDocumentWithModel(input({ strict: true }), { complete: model.complete });
    const [handoff, repair] = model.requests.slice(-2);
    expect(repair?.messages.slice(0, -2)).toEqual(handoff?.messages ?? []);
    expect(result.document).toBe(DOCUMENT);
  });
});
