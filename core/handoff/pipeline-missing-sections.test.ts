import { describe, expect, test } from "bun:test";
import {
  answer,
  deps,
  documentWith,
  exampleInput,
  expectFailure,
  fakeModel,
  FULL_DOCUMENT,
  rejectionOf,
  WITHOUT_DECISIONS,
} from "../../fixtures/handoff-pipeline.ts";
import { CompletionError } from "../llm/types.ts";
import { planHandoffRequests, runHandoff } from "./pipeline.ts";

describe("runHandoff: missing sections", () => {
  test("strict: one repair request that ends with the draft and a repair instruction, then success", async () => {
    const model = fakeModel(answer(WITHOUT_DECISIONS), answer(FULL_DOCUMENT));
    const input = exampleInput({ strict: true });
    const result = await runHandoff(input, deps(model.complete));
    expect(model.requests).toHaveLength(2);
    const [first] = planHandoffRequests(input).requests;
    const repair = model.requests[1];
    expect(repair?.messages.slice(0, -2)).toEqual(first?.messages);
    expect(repair?.messages.at(-2)).toEqual({ role: "assistant", content: WITHOUT_DECISIONS });
    const instruction = repair?.messages.at(-1);
    expect(instruction?.role).toBe("user");
    expect(instruction?.content).toContain("## Key Decisions, ## Next Steps");
    expect(result.document).toBe(FULL_DOCUMENT);
    expect(result.missingSections).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.requests).toBe(2);
  });

  test("strict: still missing after the repair fails, naming the sections, after exactly one repair", async () => {
    const model = fakeModel(answer(WITHOUT_DECISIONS), answer(documentWith(["Goal", "Progress"])));
    const error = await rejectionOf(runHandoff(exampleInput({ strict: true }), deps(model.complete)));
    expect(error.code).toBe("HANDOFF_FAILED");
    expect(error.message).toBe(
      'the document still lacks "## Constraints & Preferences", "## Key Decisions", "## Critical Context", "## Next Steps" after a repair request (--strict)',
    );
    expect(model.requests).toHaveLength(2);
  });

  test("strict: an empty repair answer fails as no text", async () => {
    const model = fakeModel(answer(WITHOUT_DECISIONS), answer(""));
    await expectFailure(runHandoff(exampleInput({ strict: true }), deps(model.complete)), "HANDOFF_FAILED", "the model returned no text");
  });

  test("strict: a complete document needs no repair", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(exampleInput({ strict: true }), deps(model.complete));
    expect(model.requests).toHaveLength(1);
  });

  test("strict: the repair keeps tool_choice auto once the endpoint asked for it", async () => {
    const model = fakeModel(
      new CompletionError("unsupported_parameter", "auto only", "tool_choice"),
      answer(WITHOUT_DECISIONS),
      answer(FULL_DOCUMENT),
    );
    const result = await runHandoff(exampleInput({ strict: true }), deps(model.complete));
    expect(model.requests.map((r) => r.tool_choice)).toEqual(["none", "auto", "auto"]);
    expect(result.requests).toBe(3);
  });

  test("not strict: a warning names the missing sections and nothing is repaired", async () => {
    const model = fakeModel(answer(WITHOUT_DECISIONS));
    const result = await runHandoff(exampleInput(), deps(model.complete));
    expect(model.requests).toHaveLength(1);
    expect(result.document).toBe(WITHOUT_DECISIONS);
    expect(result.missingSections).toEqual(["Key Decisions", "Next Steps"]);
    expect(result.warnings).toEqual(['the document lacks "## Key Decisions", "## Next Steps"']);
  });
});
