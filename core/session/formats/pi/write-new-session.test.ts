import { describe, expect, test } from "bun:test";
import { analyzeBranch } from "../../analyze.ts";
import { parseSession } from "./parse.ts";
import { restoredModel, type RestoredModel } from "../../restored-model.ts";
import { renderNewSession } from "./write.ts";
import type { NewSessionInput } from "../types.ts";
import { DOCUMENT, expectGolden, idsFrom, NEW_SESSION_ID, NOW, parseLines, SOURCE_PATH } from "../../../../fixtures/outputs.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "../../../handoff/wrap.ts";

/** The model a pi session on openai/gpt-5 resumes with, in both agents' terms. */
const GPT5: RestoredModel = { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" };

/** The input the pipeline gives, with what a test changes. */
function inputWith(overrides: Partial<NewSessionInput>): NewSessionInput {
  return {
    wrappedDocument: wrapHandoffDocument("x"),
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId: NEW_SESSION_ID,
    newEntryId: idsFrom("a1", "a2", "a3"),
    timestamp: NOW,
    utcOffsetMinutes: 0,
    cwd: "/w",
    parentSession: SOURCE_PATH,
    model: GPT5,
    source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
    ...overrides,
  };
}

describe("renderNewSession", () => {
  const written = renderNewSession(
    inputWith({
      wrappedDocument: wrapHandoffDocument(DOCUMENT),
      newEntryId: idsFrom("5e6f7a8b", "5e6f7a8c", "5e6f7a8d"),
      cwd: "/home/me/app",
    }),
  );
  const content = written.content;

  test("is named as pi and omp name session files, by the time and the new id", () => {
    expect(written).toMatchObject({ fileName: `2026-11-30T08-15-42-123Z_${NEW_SESSION_ID}.jsonl`, sessionId: NEW_SESSION_ID });
  });

  test("matches the golden file byte for byte", () => {
    expectGolden("new-session.jsonl", content);
  });

  test("is a header, the handoff message, an acknowledgement whose usage has a cost, and the source's model", () => {
    const [header, message, ack, model, ...rest] = parseLines(content);
    expect(rest).toEqual([]);
    expect(header).toEqual({
      type: "session",
      version: 3,
      id: NEW_SESSION_ID,
      timestamp: NOW.toISOString(),
      cwd: "/home/me/app",
      parentSession: SOURCE_PATH,
    });
    expect(message).toEqual({
      type: "custom_message",
      id: "5e6f7a8b",
      parentId: null,
      timestamp: NOW.toISOString(),
      customType: "handoff",
      content: `<handoff-context>\n${DOCUMENT}\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.`,
      display: true,
    });
    expect(ack).toEqual({
      type: "message",
      id: "5e6f7a8c",
      parentId: "5e6f7a8b",
      timestamp: NOW.toISOString(),
      message: {
        role: "assistant",
        content: [{ type: "text", text: ACKNOWLEDGEMENT }],
        api: "offline",
        provider: "agent",
        model: "handoff",
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "stop",
        timestamp: NOW.getTime(),
      },
    });
    expect(model).toEqual({
      type: "model_change",
      id: "5e6f7a8d",
      parentId: "5e6f7a8c",
      timestamp: NOW.toISOString(),
      provider: "openai",
      modelId: "gpt-5",
      model: "openai/gpt-5",
    });
  });

  const GPT51 = { provider: "openai", modelId: "gpt-5.1" };
  test.each([
    ["a pi session", GPT5, GPT5],
    [
      "an omp session whose explicit model differs from its last answer's",
      { pi: GPT51, omp: "anthropic/claude-opus-4-5" },
      { pi: GPT51, omp: "anthropic/claude-opus-4-5" },
    ],
    ["a model only omp sees: pi gets it too", { pi: undefined, omp: "openai/gpt-5.1" }, { pi: GPT51, omp: "openai/gpt-5.1" }],
    ["a model only pi sees: omp gets it too", { pi: GPT51, omp: undefined }, { pi: GPT51, omp: "openai/gpt-5.1" }],
  ])("resumes in both agents with the source's model: %s", (_, model: RestoredModel, resumed: RestoredModel) => {
    const text = renderNewSession(inputWith({ model })).content;
    expect(restoredModel(analyzeBranch(parseSession(text)).branch.entries)).toEqual(resumed);
  });

  test("a source that names no model gets no model entry: the acknowledgement is the last line", () => {
    const text = renderNewSession(inputWith({ model: { pi: undefined, omp: undefined } })).content;
    expect(parseLines(text).map((l) => l.type)).toEqual(["session", "custom_message", "message"]);
  });

  test("omits cwd when the source has none", () => {
    const text = renderNewSession(inputWith({ cwd: undefined })).content;
    expect(text.split("\n")[0]).not.toContain("cwd");
  });

  test("reads back as a session whose context is the handoff message, then the acknowledgement", () => {
    const session = parseSession(content);
    expect(session.problems).toEqual([]);
    expect(session.header.parentSession).toBe(SOURCE_PATH);
    const { context } = analyzeBranch(session);
    expect(context.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(context[0]?.content).toEqual([{ type: "text", text: wrapHandoffDocument(DOCUMENT) }]);
    expect(context[1]?.content).toEqual([{ type: "text", text: ACKNOWLEDGEMENT }]);
  });
});
