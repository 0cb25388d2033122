import { describe, expect, test } from "bun:test";
import { answer, deps, exampleInput, fakeModel, FULL_DOCUMENT } from "../../fixtures/handoff-pipeline.ts";
import { AgentError } from "../errors.ts";
import { runHandoff } from "./pipeline.ts";

const PLACEHOLDER = "<asked of the endpoint when run>";

describe("runHandoff: a model the endpoint is still being asked for", () => {
  test("the request, the plan and the result carry the model it named, not the placeholder", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT, { model: undefined }));
    const planned: unknown[] = [];
    const result = await runHandoff(
      exampleInput({ model: PLACEHOLDER }),
      deps(model.complete, { modelAsked: Promise.resolve("served-model"), onPlan: (plan) => planned.push(plan) }),
    );
    expect(model.requests.map((r) => r.model)).toEqual(["served-model"]);
    expect(result.model).toBe("served-model");
    expect(planned).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain(PLACEHOLDER);
  });

  test("a name that comes later: nothing is sent until it comes, and the request carries it", async () => {
    let name: (model: string) => void = () => {};
    const modelAsked = new Promise<string>((resolve) => {
      name = resolve;
    });
    const model = fakeModel(answer(FULL_DOCUMENT, { model: undefined }));
    const running = runHandoff(exampleInput({ model: PLACEHOLDER }), deps(model.complete, { modelAsked }));
    await Bun.sleep(1);
    expect(model.requests).toHaveLength(0);
    name("late-model");
    expect((await running).model).toBe("late-model");
    expect(model.requests.map((r) => r.model)).toEqual(["late-model"]);
  });

  test("an endpoint that could not name one fails the run with its own error, and nothing is sent", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    const refused = new AgentError("USAGE", "no model given, and the endpoint serves 2 models; choose one with --model: a, b");
    await expect(
      runHandoff(exampleInput({ model: PLACEHOLDER }), deps(model.complete, { modelAsked: Promise.reject(refused) })),
    ).rejects.toBe(refused);
    expect(model.requests).toHaveLength(0);
  });
});
