import { describe, expect, test } from "bun:test";
import {
  answer,
  appendedLines,
  deps,
  exampleInput,
  fakeModel,
  FULL_DOCUMENT,
  inputFor,
  NEW_SESSION_ID,
  NOW,
  readFixture,
  WITHOUT_DECISIONS,
} from "../../fixtures/handoff-pipeline.ts";
import { renderNewSession } from "../session/formats/pi/write.ts";
import { idsFrom } from "../../fixtures/outputs.ts";
import { runHandoff } from "./pipeline.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "./wrap.ts";
import { renderInstruction } from "./prompt.ts";

describe("runHandoff: the result", () => {
  test("returns the new session to write: fixed ids and time, the source as parent, the source's cwd", async () => {
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(result.newSession.sessionId).toBe(NEW_SESSION_ID);
    expect(result.newSession.fileName).toBe(`2026-11-30T08-00-00-000Z_${NEW_SESSION_ID}.jsonl`);
    expect(result.newSession.content).toBe(
      renderNewSession({
        wrappedDocument: wrapHandoffDocument(FULL_DOCUMENT),
        acknowledgement: ACKNOWLEDGEMENT,
        sessionId: NEW_SESSION_ID,
        newEntryId: idsFrom("e0000001", "e0000002", "e0000003"),
        timestamp: NOW,
        utcOffsetMinutes: 0,
        cwd: "/home/me/app",
        parentSession: "/home/me/sessions/source.jsonl",
        model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
        source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
      }).content,
    );
    expect(result.recording).toBeUndefined();
  });

  test("sums usage across the first and the repair request", async () => {
    const model = fakeModel(
      answer(WITHOUT_DECISIONS, { usage: { inputTokens: 1000, outputTokens: 150 } }),
      answer(FULL_DOCUMENT, { usage: { inputTokens: 1300, outputTokens: 220 } }),
    );
    const result = await runHandoff(exampleInput({ strict: true, record: true }), deps(model.complete));
    expect(result.usage).toEqual({ inputTokens: 2300, outputTokens: 370 });
    expect(appendedLines(result.recording)[1]).toMatchObject({ message: { usage: { input: 2300, output: 370, totalTokens: 2670 } } });
  });

  test("counts no usage for a request that reported none", async () => {
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT, { usage: undefined })).complete));
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  test("records the instruction and the document from the handed-off leaf", async () => {
    const input = inputFor(
      readFixture("sessions/v3-branches.jsonl"),
      { record: true, focus: "the config", provider: "openrouter" },
      "c0000019",
    );
    const result = await runHandoff(input, deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    const [instruction, document, model, ...rest] = appendedLines(result.recording);
    expect(rest).toEqual([]);
    // The branch at c0000019 resumes with openai/gpt-5 (its model_change, then its answers): it still does after.
    expect(model).toMatchObject({
      type: "model_change",
      parentId: document?.id,
      provider: "openai",
      modelId: "gpt-5",
      model: "openai/gpt-5",
    });
    expect(instruction).toMatchObject({
      parentId: "c0000019",
      message: { role: "user", content: [{ type: "text", text: renderInstruction("the config") }] },
    });
    expect(document).toMatchObject({
      parentId: instruction?.id,
      message: {
        role: "assistant",
        content: [{ type: "text", text: FULL_DOCUMENT }],
        provider: "openrouter",
        model: "gpt-4.1-mini-2025-04-14",
      },
    });
  });

  test("records how the model stopped: an answer cut at its output limit says length", async () => {
    const result = await runHandoff(
      exampleInput({ record: true }),
      deps(fakeModel(answer(FULL_DOCUMENT, { finishReason: "length" })).complete),
    );
    expect(appendedLines(result.recording)[1]).toMatchObject({ message: { api: "openai-completions", stopReason: "length" } });
    const finished = await runHandoff(exampleInput({ record: true }), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(appendedLines(finished.recording)[1]).toMatchObject({ message: { api: "openai-completions", stopReason: "stop" } });
  });

  test("after a repair request, the stop reason recorded is the repair's", async () => {
    const model = fakeModel(answer(WITHOUT_DECISIONS, { finishReason: "length" }), answer(FULL_DOCUMENT));
    const result = await runHandoff(exampleInput({ strict: true, record: true }), deps(model.complete));
    expect(appendedLines(result.recording)[1]).toMatchObject({ message: { stopReason: "stop" } });
  });

  test("the offline engine's answer is recorded with api offline, sent through no endpoint", async () => {
    const model = fakeModel();
    const result = await runHandoff(exampleInput({ engine: "offline", record: true }), deps(model.complete));
    expect(model.requests).toEqual([]);
    expect(appendedLines(result.recording)[1]).toMatchObject({ message: { api: "offline", stopReason: "stop", model: "offline" } });
  });

  test("recorded entry ids never reuse an id the session has", async () => {
    const input = exampleInput({ record: true });
    const existing = [...input.analysis.tree.byId.keys()];
    const ids = ["a0000011", "a0000002", "a0000011", "f0000001", "f0000001", "f0000002", "f0000003", "f0000004", "n1", "n2", "n3"];
    const result = await runHandoff(
      input,
      deps(fakeModel(answer(FULL_DOCUMENT)).complete, { newEntryId: () => ids.shift() ?? "exhausted" }),
    );
    const recordedIds = appendedLines(result.recording).map((line) => line.id);
    expect(recordedIds).toEqual(["f0000001", "f0000002", "f0000003"]);
    for (const id of recordedIds) expect(existing).not.toContain(id);
  });
});
