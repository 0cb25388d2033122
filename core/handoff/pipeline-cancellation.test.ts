import { describe, expect, test } from "bun:test";
import { answer, deps, exampleInput, expectFailure, fakeModel, FULL_DOCUMENT, WITHOUT_DECISIONS } from "../../fixtures/handoff-pipeline.ts";
import { runHandoff } from "./pipeline.ts";

describe("runHandoff: cancellation", () => {
  test("an aborted signal cancels before anything is sent", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    const controller = new AbortController();
    controller.abort();
    await expectFailure(runHandoff(exampleInput(), deps(model.complete, { signal: controller.signal })), "CANCELLED", "Handoff cancelled");
    expect(model.requests).toHaveLength(0);
  });

  test.each([
    ["a full document", FULL_DOCUMENT],
    ["partial text", "## Goal\nMake the exp"],
    ["no text", ""],
  ])("an abort during the request cancels, even when the port returns %s", async (_, text) => {
    const controller = new AbortController();
    const model = fakeModel(() => {
      controller.abort();
      return answer(text);
    });
    await expectFailure(runHandoff(exampleInput(), deps(model.complete, { signal: controller.signal })), "CANCELLED");
  });

  test("passes the signal to the port", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const model = fakeModel((_, options) => {
      seen = options.signal;
      return answer(FULL_DOCUMENT);
    });
    await runHandoff(exampleInput(), deps(model.complete, { signal: controller.signal }));
    expect(seen).toBe(controller.signal);
  });

  test("an abort before the repair request cancels it", async () => {
    const controller = new AbortController();
    const model = fakeModel(() => {
      controller.abort();
      return answer(WITHOUT_DECISIONS);
    }, answer(FULL_DOCUMENT));
    await expectFailure(runHandoff(exampleInput({ strict: true }), deps(model.complete, { signal: controller.signal })), "CANCELLED");
    expect(model.requests).toHaveLength(1);
  });
});
