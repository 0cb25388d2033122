import { describe, expect, test } from "bun:test";
import { promptTokens } from "../../fixtures/fake-openai.ts";
import { isAgentError } from "../errors.ts";
import { CompletionError, type ChatRequest, type Complete } from "../llm/types.ts";
import type { ContextMessage } from "../session/messages.ts";
import { estimateRequestTokens } from "./condense/budget.ts";
import { workSession } from "./condense/condense.testing.ts";
import { planDocumentRequests, writeDocumentWithModel } from "./llm-engine.ts";
import type { ModelEngineInput } from "./llm-engine-types.ts";
import { REQUIRED_SECTIONS } from "./prompt.ts";
import { checkRunPlan, describeRunPlan, type RunPlan } from "./run-plan.ts";

const DOCUMENT = REQUIRED_SECTIONS.map((name) => `## ${name}\nAbout ${name.toLowerCase()}.`).join("\n\n");

/** A model that answers every request with `answer`, refusing prompts over `window` as a real endpoint does. */
function endpoint(answer = DOCUMENT, window = Number.POSITIVE_INFINITY) {
  const requests: ChatRequest[] = [];
  const complete: Complete = async (request) => {
    requests.push(request);
    if (promptTokens(request) + (request.max_tokens ?? 0) > window) throw new CompletionError("context_length", "too large");
    return { text: answer, finishReason: "stop", usage: { inputTokens: 1, outputTokens: 1 }, model: undefined };
  };
  return { complete, requests };
}

const large: ContextMessage[] = workSession({ rounds: 120, requestEvery: 6, resultChars: 3000 });
const small = large.slice(0, 12);
const input = (context: readonly ContextMessage[], overrides: Partial<ModelEngineInput> = {}): ModelEngineInput => ({
  context,
  model: "m",
  contextWindow: 16_000,
  ...overrides,
});

/** Runs the engine, returning what it told before sending, what it sent, and how it ended. */
async function run(engineInput: ModelEngineInput, model = endpoint()) {
  const told: { plan: RunPlan; sentBefore: number }[] = [];
  const outcome = await writeDocumentWithModel(engineInput, {
    complete: model.complete,
    onPlan: (plan) => told.push({ plan, sentBefore: model.requests.length }),
  }).then(
    () => "done",
    (error: unknown) => (isAgentError(error) ? `${error.code}: ${error.message}` : String(error)),
  );
  return { told, sent: model.requests, outcome };
}

describe("the plan a run is checked against", () => {
  test.each([
    ["one request", small],
    ["a condensed session", large],
  ])("%s: told once, before the first request, the same plan the dry run shows", async (_, context) => {
    const planned = planDocumentRequests(input(context)).plan;
    const { told, sent, outcome } = await run(input(context));
    expect(outcome).toBe("done");
    expect(told).toEqual([{ plan: planned, sentBefore: 0 }]);
    expect(sent).toHaveLength(planned.requests);
    // Notes count at their limit in the plan, so what went is never more than planned.
    const sentTokens = sent.reduce((sum, r) => sum + estimateRequestTokens(r), 0);
    expect(sentTokens).toBeLessThanOrEqual(planned.inputTokens);
    if (planned.requests === 1) expect(sentTokens).toBe(planned.inputTokens);
  });

  test.each([
    ["one request", small],
    ["a condensed session", large],
  ])("%s: a limit one token under the plan sends nothing; the plan's own size is allowed", async (_, context) => {
    const { plan } = planDocumentRequests(input(context));
    const under = await run(input(context, { inputLimit: { tokens: plan.inputTokens - 1, setBy: "--max-input-tokens X" } }));
    expect(under.sent).toHaveLength(0);
    expect(under.told).toHaveLength(0);
    expect(under.outcome).toBe(
      `USAGE: the handoff would send ~${plan.inputTokens.toLocaleString("en-US")} input tokens (${plan.requests} request${plan.requests === 1 ? "" : "s"} to m), more than --max-input-tokens X allows; nothing was sent`,
    );
    const at = await run(input(context, { inputLimit: { tokens: plan.inputTokens, setBy: "--max-input-tokens X" } }));
    expect(at.outcome).toBe("done");
    expect(at.sent).toHaveLength(plan.requests);
  });

  test("a --strict repair the limit has no room for is not sent: the run fails naming the limit", async () => {
    const { plan } = planDocumentRequests(input(small));
    const model = endpoint("## Goal\nonly this");
    const { sent, outcome } = await run(input(small, { strict: true, inputLimit: { tokens: plan.inputTokens + 10, setBy: "L" } }), model);
    expect(sent).toHaveLength(1);
    expect(outcome).toMatch(
      /^HANDOFF_FAILED: a repair request \(--strict\) would send ~[\d,]+ more input tokens, ~[\d,]+ in all, more than L allows; it was not sent$/,
    );
    // With room for it, the repair goes.
    const roomy = await run(
      input(small, { strict: true, inputLimit: { tokens: plan.inputTokens * 3, setBy: "L" } }),
      endpoint("## Goal\nonly this"),
    );
    expect(roomy.sent).toHaveLength(2);
  });

  test("after the endpoint refuses a request as too large, a smaller plan that would pass the limit is not sent", async () => {
    const { plan } = planDocumentRequests(input(small, { contextWindow: 128_000 }));
    // The endpoint's real window is smaller than the one we were told: the first request is refused.
    const model = endpoint(DOCUMENT, Math.floor(plan.inputTokens / 2));
    const { sent, outcome } = await run(
      input(small, { contextWindow: 128_000, inputLimit: { tokens: plan.inputTokens, setBy: "L" } }),
      model,
    );
    expect(sent).toHaveLength(1);
    expect(outcome).toMatch(
      /^HANDOFF_FAILED: the smaller plan made after the endpoint refused a request as too large would send ~[\d,]+ more input tokens, ~[\d,]+ in all, more than L allows; it was not sent$/,
    );
  });
});

describe("the plan in words", () => {
  test.each<[RunPlan, Parameters<typeof describeRunPlan>[1], string]>([
    [{ requests: 1, inputTokens: 1234 }, { model: "gpt-4.1-mini" }, "plan: 1 request to gpt-4.1-mini, ~1,234 input tokens"],
    [{ requests: 20, inputTokens: 1_900_000 }, { model: "m" }, "plan: 20 requests to m, ~1,900,000 input tokens"],
    [
      { requests: 1, inputTokens: 5 },
      { agent: "claude-code" },
      "plan: 1 run of claude-code, ~5 input tokens (it adds its own instructions and uses its own model)",
    ],
    [
      { requests: 3, inputTokens: 5 },
      { agent: "codex" },
      "plan: 3 runs of codex, ~5 input tokens (it adds its own instructions and uses its own model)",
    ],
  ])("%j to %j", (plan, to, line) => {
    expect(describeRunPlan(plan, to)).toBe(line);
  });

  test("no limit, or a limit the plan is within, refuses nothing", () => {
    expect(() => checkRunPlan({ requests: 2, inputTokens: 10 }, { model: "m" }, undefined)).not.toThrow();
    expect(() => checkRunPlan({ requests: 2, inputTokens: 10 }, { model: "m" }, { tokens: 10, setBy: "L" })).not.toThrow();
    expect(() => checkRunPlan({ requests: 2, inputTokens: 11 }, { agent: "pi" }, { tokens: 10, setBy: "L" })).toThrow(
      "the handoff would send ~11 input tokens (2 runs of pi), more than L allows; nothing was sent",
    );
  });
});
