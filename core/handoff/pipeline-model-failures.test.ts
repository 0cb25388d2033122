import { describe, expect, test } from "bun:test";
import { answer, deps, exampleInput, expectFailure, fakeModel, FULL_DOCUMENT } from "../../fixtures/handoff-pipeline.ts";
import { AgentError } from "../errors.ts";
import { CompletionError } from "../llm/types.ts";
import { planHandoffRequests, runHandoff } from "./pipeline.ts";

describe("runHandoff: model failures", () => {
  test("an endpoint that accepts only tool_choice auto gets the same request once more with auto", async () => {
    const model = fakeModel(new CompletionError("unsupported_parameter", "tool_choice must be auto", "tool_choice"), answer(FULL_DOCUMENT));
    const result = await runHandoff(exampleInput(), deps(model.complete));
    expect(model.requests.map((r) => r.tool_choice)).toEqual(["none", "auto"]);
    const [first] = planHandoffRequests(exampleInput()).requests;
    if (!first) throw new Error("the plan has no request");
    expect(model.requests[1]).toEqual({ ...first, tool_choice: "auto" });
    expect(result.requests).toBe(2);
    expect(result.document).toBe(FULL_DOCUMENT);
  });

  test("retries with auto only once", async () => {
    const model = fakeModel(
      new CompletionError("unsupported_parameter", "no", "tool_choice"),
      new CompletionError("unsupported_parameter", "still no", "tool_choice"),
    );
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", "still no");
    expect(model.requests).toHaveLength(2);
  });

  test("a context-length failure on the retry is a handoff failure too", async () => {
    const model = fakeModel(
      new CompletionError("unsupported_parameter", "no", "tool_choice"),
      new CompletionError("context_length", "the request is larger than the model's context window"),
    );
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", /context window/);
  });

  test("a context-length failure is a handoff failure with the endpoint's reason (when a smaller plan cannot help)", async () => {
    const model = fakeModel(new CompletionError("context_length", "the request is larger than the model's context window (128000 tokens)"));
    await expectFailure(
      runHandoff(exampleInput(), deps(model.complete)),
      "HANDOFF_FAILED",
      /the endpoint said: the request is larger than the model's context window \(128000 tokens\)/,
    );
    expect(model.requests).toHaveLength(1);
  });

  test("an AgentError from the port passes through unchanged", async () => {
    const model = fakeModel(new AgentError("HANDOFF_FAILED", "http://127.0.0.1:9/v1 answered 500"));
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", "http://127.0.0.1:9/v1 answered 500");
  });
});
