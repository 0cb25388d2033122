import { describe, expect, test } from "bun:test";
import { answer, deps, exampleInput, expectFailure, fakeModel, FULL_DOCUMENT } from "../../fixtures/handoff-pipeline.ts";
import { PROFILES } from "../llm/providers/choose.ts";
import { CompletionError } from "../llm/types.ts";
import { planHandoffRequests, runHandoff } from "./pipeline.ts";

describe("runHandoff through a provider profile", () => {
  test("a reasoning model on OpenAI: the dry run and the request sent agree, shaped as OpenAI documents", async () => {
    const input = exampleInput({ model: "gpt-5-mini", profile: PROFILES.openai, maxOutputTokens: 2000 });
    const [planned] = planHandoffRequests(input).requests;
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(input, deps(model.complete));
    expect(model.requests[0]).toEqual(planned);
    // The cap is on the document; the model thinks within the same limit, so it gets room for both.
    expect(planned).toMatchObject({ max_completion_tokens: 2000 + 8192, reasoning_effort: "low" });
    expect(planned && "max_tokens" in planned).toBe(false);
    expect(planned?.messages[0]?.role).toBe("developer");
  });

  test("an ordinary model keeps its cap as it was given", () => {
    const [planned] = planHandoffRequests(
      exampleInput({ model: "gpt-4.1-mini", profile: PROFILES.openai, maxOutputTokens: 2000 }),
    ).requests;
    expect(planned).toMatchObject({ max_completion_tokens: 2000 });
    expect(planned?.messages[0]?.role).toBe("system");
  });

  test("a reasoning model in a small window: the room to think is a quarter of the window, on top of the cap", () => {
    const input = exampleInput({ model: "deepseek-reasoner", profile: PROFILES.deepseek, contextWindow: 6000, maxOutputTokens: 500 });
    expect(planHandoffRequests(input).requests.at(-1)?.max_tokens).toBe(500 + 1500);
  });

  test("reasoning tokens are added up across requests, when the provider counts them", async () => {
    const model = fakeModel(
      new CompletionError("unsupported_parameter", "refused", "stream_options"),
      answer(FULL_DOCUMENT, { usage: { inputTokens: 10, outputTokens: 30, reasoningTokens: 25 } }),
    );
    const result = await runHandoff(exampleInput(), deps(model.complete));
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 30, reasoningTokens: 25 });
    expect(result.requests).toBe(2);
  });

  test("no reasoning count: no reasoningTokens field", async () => {
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect("reasoningTokens" in result.usage).toBe(false);
  });

  test("an answer that spent the whole limit thinking says so, with the limit", async () => {
    const model = fakeModel(answer("", { finishReason: "length", usage: { inputTokens: 10, outputTokens: 2000, reasoningTokens: 2000 } }));
    await expectFailure(
      runHandoff(exampleInput({ maxOutputTokens: 2000 }), deps(model.complete)),
      "HANDOFF_FAILED",
      "the model used its whole output limit (2,000 of them reasoning) and returned no text; raise --max-output-tokens (the limit sent was 2,000)",
    );
  });

  test("each change after a refusal is told to deps.notice", async () => {
    const notices: string[] = [];
    const model = fakeModel(
      new CompletionError("unsupported_parameter", "http://x/v1 answered 400 Unsupported parameter: 'max_tokens'", "max_tokens"),
      answer(FULL_DOCUMENT),
    );
    await runHandoff(exampleInput({ maxOutputTokens: 900 }), deps(model.complete, { notice: (line) => notices.push(line) }));
    expect(model.requests[1]).toMatchObject({ max_completion_tokens: 900 });
    expect(notices).toEqual([
      "the endpoint refused `max_tokens` (http://x/v1 answered 400 Unsupported parameter: 'max_tokens'); sending the output limit as `max_completion_tokens` instead, for the rest of this run",
    ]);
  });
});
