import { describe, expect, test } from "bun:test";
import {
  answer,
  deps,
  exampleInput,
  expectFailure,
  fakeModel,
  FULL_DOCUMENT,
  inputFor,
  readFixture,
} from "../../fixtures/handoff-pipeline.ts";
import { planHandoffRequests, runHandoff } from "./pipeline.ts";
import { renderInstruction } from "./prompt.ts";

const HEADER = JSON.stringify({
  type: "session",
  version: 3,
  id: "8e4f5061-7283-4d94-8ea5-c6d7e8f9a0b1",
  timestamp: "2026-11-29T09:00:00.000Z",
  cwd: "/w",
});
const userLine = (id: string, parentId: string | null) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2026-11-29T09:01:00.000Z",
    message: { role: "user", content: `hi from ${id}`, timestamp: 1 },
  });
const changeLine = (id: string, parentId: string | null) =>
  JSON.stringify({ type: "thinking_level_change", id, parentId, timestamp: "2026-11-29T09:01:00.000Z", thinkingLevel: "high" });

describe("runHandoff: the guard", () => {
  test.each([
    ["a header only", [HEADER]],
    ["one message", [HEADER, userLine("f1", null)]],
    ["one message among other entries", [HEADER, changeLine("f1", null), userLine("f2", "f1"), changeLine("f3", "f2")]],
  ])("refuses %s and never asks the model", async (_, lines) => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await expectFailure(
      runHandoff(inputFor(`${lines.join("\n")}\n`), deps(model.complete)),
      "NOTHING_TO_HAND_OFF",
      "Nothing to hand off (no messages yet)",
    );
    expect(model.requests).toHaveLength(0);
  });

  test("counts only the messages on the handed-off branch", async () => {
    const text = `${[HEADER, userLine("f1", null), userLine("f2", "f1"), changeLine("f3", null)].join("\n")}\n`;
    const model = fakeModel(answer(FULL_DOCUMENT));
    await expectFailure(runHandoff(inputFor(text), deps(model.complete)), "NOTHING_TO_HAND_OFF");
    expect(model.requests).toHaveLength(0);
  });
});

describe("runHandoff: the request", () => {
  test("is the one --dry-run shows (planHandoffRequests), ending with the instruction and the focus", async () => {
    const input = exampleInput({ focus: "quote the fields" });
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(input, deps(model.complete));
    expect(model.requests).toEqual(planHandoffRequests(input).requests);
    const last = model.requests[0]?.messages.at(-1);
    expect(last).toEqual({ role: "user", content: renderInstruction("quote the fields") });
    expect(last?.content).toEndWith("\n\nAdditional focus: quote the fields");
  });

  test("carries the branch's context and never an abandoned branch, a compacted-away turn or a !! command", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(inputFor(readFixture("sessions/v3-branches.jsonl"), { focus: "the config" }), deps(model.complete));
    const sent = JSON.stringify(model.requests[0]);
    // On the branch: the branch summary, the compaction summary, turns after it, the image.
    for (const kept of [
      "Tried a redis-backed limiter",
      "Added an in-memory limiter",
      "Keep it in memory. Run the tests.",
      "git status --short",
      "RATE_LIMIT",
      "data:image/png;base64,iVBORw0KGgo=",
    ]) {
      expect(sent).toContain(kept);
    }
    // The abandoned branch, the turns the compaction replaced, and the private `!!` run.
    for (const gone of [
      "back it with redis",
      "npm install ioredis",
      "Add rate limiting to POST /login",
      "Reading the server first.",
      "cat .env",
      "hunter2",
    ]) {
      expect(sent).not.toContain(gone);
    }
  });

  test("never carries a !! command's output (pi fixture)", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(exampleInput(), deps(model.complete));
    const sent = JSON.stringify(model.requests[0]);
    expect(sent).toContain("quote fields that contain commas");
    expect(sent).not.toContain("sk_live_do_not_send");
  });

  test("uses the given system prompt", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(exampleInput({ systemPrompt: "Be brief." }), deps(model.complete));
    expect(model.requests[0]?.messages[0]).toEqual({ role: "system", content: "Be brief." });
  });
});

describe("runHandoff: capturing the answer", () => {
  test.each([
    ["an empty answer", ""],
    ["a blank answer", "  \n\n "],
    ["a think block and nothing else", "<think>\nplanning the sections\n</think>\n"],
    ["an unclosed think block", "<think>I will write ## Goal next"],
  ])("%s fails as 'the model returned no text', not as cancelled", async (_, text) => {
    await expectFailure(runHandoff(exampleInput(), deps(fakeModel(answer(text)).complete)), "HANDOFF_FAILED", "the model returned no text");
  });

  test("a <think> answer gives the document after the think block", async () => {
    const result = await runHandoff(
      exampleInput(),
      deps(fakeModel(answer(`<think>\nThe user wants a handoff.\n</think>\n\n${FULL_DOCUMENT}`)).complete),
    );
    expect(result.document).toBe(FULL_DOCUMENT);
    expect(result.missingSections).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  test("warns when the model stopped at its output limit", async () => {
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT, { finishReason: "length" })).complete));
    expect(result.warnings.join("\n")).toContain("output limit");
  });

  test("names the model that answered, else the one asked for", async () => {
    expect((await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT)).complete))).model).toBe("gpt-4.1-mini-2025-04-14");
    expect((await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT, { model: undefined })).complete))).model).toBe(
      "gpt-4.1-mini",
    );
  });
});
