import { describe, expect, test } from "bun:test";
import type { JsonObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { parseSession } from "./parse.ts";
import { restoredModel } from "../../restored-model.ts";
import type { Entry, Session } from "../../types.ts";
import type { Recording, RecordingInput } from "../types.ts";
import { renderRecording, sessionFileName } from "./write.ts";
import { applyRewrite, DOCUMENT, idsFrom, NEW_SESSION_ID, NOW, parseLines, readFixture } from "../../../../fixtures/outputs.ts";

describe("sessionFileName", () => {
  test.each([
    [new Date("2026-11-30T08:15:42.123Z"), NEW_SESSION_ID, `2026-11-30T08-15-42-123Z_${NEW_SESSION_ID}.jsonl`],
    [new Date("2027-01-02T03:04:05.000Z"), "abc", "2027-01-02T03-04-05-000Z_abc.jsonl"],
  ])("names %p and %s as %s", (timestamp, id, name) => {
    expect(sessionFileName(timestamp, id)).toBe(name);
  });
});

const INSTRUCTION = "Write a handoff document.\n\nAdditional focus: the parser";

function recordingFor(session: Session, leafId: string | undefined, overrides: Partial<RecordingInput> = {}): Recording {
  const input: RecordingInput = {
    session,
    leafId,
    instruction: INSTRUCTION,
    document: DOCUMENT,
    provider: "openrouter",
    model: "qwen/qwen3-coder",
    api: "openai-completions",
    finishReason: "stop",
    usage: { inputTokens: 1200, outputTokens: 340 },
    timestamp: NOW,
    newEntryId: idsFrom("9a000001", "9a000002", "9a000003"),
    restore: restoredModel(analyzeBranch(session, { leafId }).branch.entries),
    ...overrides,
  };
  return renderRecording(input);
}

/** The recording's text, failing the test when the mode is not the expected one. */
function textOf(recording: Recording, mode: "append"): string {
  if (recording.mode !== mode) throw new Error(`expected ${mode}, got ${JSON.stringify(recording)}`);
  return recording.text;
}

/** The whole file a rewrite leaves: the source's own lines upgraded, then the turn. */
function rewrittenText(recording: Recording, sourceText: string): string {
  if (recording.mode !== "rewrite") throw new Error(`expected a rewrite, got ${JSON.stringify(recording)}`);
  return applyRewrite(recording, sourceText);
}

/** What of an entry must survive a rewrite: its place in the tree and every field. */
const essence = (entry: Entry) => ({ type: entry.type, id: entry.id, parentId: entry.parentId, data: entry.data });

/**
 * Checks the recorded lines: the instruction, then the document, chained from `leafId`, then
 * the model entry that puts back `model` (the one the branch resumed with before).
 */
function expectRecordedTurn(lines: JsonObject[], leafId: string | null, model: JsonObject): void {
  expect(lines).toHaveLength(3);
  const [user, assistant, modelChange] = lines;
  expect(user).toEqual({
    type: "message",
    id: "9a000001",
    parentId: leafId,
    timestamp: NOW.toISOString(),
    message: { role: "user", content: [{ type: "text", text: INSTRUCTION }], timestamp: NOW.getTime() },
  });
  expect(assistant).toMatchObject({
    type: "message",
    id: "9a000002",
    parentId: "9a000001",
    timestamp: NOW.toISOString(),
    message: {
      role: "assistant",
      content: [{ type: "text", text: DOCUMENT }],
      provider: "openrouter",
      model: "qwen/qwen3-coder",
      usage: { input: 1200, output: 340, totalTokens: 1540 },
      stopReason: "stop",
      timestamp: NOW.getTime(),
    },
  });
  expect(modelChange).toEqual({ type: "model_change", id: "9a000003", parentId: "9a000002", timestamp: NOW.toISOString(), ...model });
}

const EXAMPLE_MODEL = { provider: "openai", modelId: "gpt-5", model: "openai/gpt-5" };

describe("renderRecording", () => {
  test("a version 3 source gets exactly three appended lines, chained from the leaf", () => {
    const session = parseSession(readFixture("example.jsonl"));
    const text = textOf(recordingFor(session, "a0000011"), "append");
    expectRecordedTurn(parseLines(text), "a0000011", EXAMPLE_MODEL);
  });

  test.each([
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "stop"],
    ["content_filter", "stop"],
  ])("a completion that finished with %p is recorded with stopReason %p", (finishReason, stopReason) => {
    const session = parseSession(readFixture("example.jsonl"));
    const [, answer] = parseLines(textOf(recordingFor(session, "a0000011", { finishReason }), "append"));
    expect(answer).toMatchObject({ message: { role: "assistant", stopReason } });
  });

  test.each(["openai-completions", "offline"] as const)("the answer names the api it came through: %p", (api) => {
    const session = parseSession(readFixture("example.jsonl"));
    const [, answer] = parseLines(textOf(recordingFor(session, "a0000011", { api }), "append"));
    expect(answer).toMatchObject({ message: { role: "assistant", api } });
  });

  test("chains from the given leaf, not the last entry, when another branch was handed off", () => {
    const session = parseSession(readFixture("sessions/v3-branches.jsonl"));
    const text = textOf(recordingFor(session, "c0000019"), "append");
    expectRecordedTurn(parseLines(text), "c0000019", EXAMPLE_MODEL);
  });

  test("the appended source reads back with the turn as its new branch", () => {
    const source = readFixture("example.jsonl");
    const before = parseSession(source);
    const after = parseSession(source + textOf(recordingFor(before, "a0000011"), "append"));
    expect(after.problems).toEqual([]);
    expect(after.entries.slice(0, -3).map(essence)).toEqual(before.entries.map(essence));
    expect(
      analyzeBranch(after)
        .branch.entries.slice(-4)
        .map((e) => e.id),
    ).toEqual(["a0000011", "9a000001", "9a000002", "9a000003"]);
  });

  test("a version 3 source without a final newline gets one before the turn", () => {
    const source = readFixture("example.jsonl").slice(0, -1);
    const session = parseSession(source);
    const text = textOf(recordingFor(session, "a0000011"), "append");
    expect(text.startsWith("\n{")).toBe(true);
    expectRecordedTurn(parseLines(text.slice(1)), "a0000011", EXAMPLE_MODEL);
    expect(parseSession(source + text).problems).toEqual([]);
  });

  test("a version 3 source with a final newline gets no blank line", () => {
    const text = textOf(recordingFor(parseSession(readFixture("example.jsonl")), "a0000011"), "append");
    expect(text.startsWith("{")).toBe(true);
  });

  test.each([["sessions/v1.jsonl"], ["sessions/v2.jsonl"]])("%s is rewritten as version 3 with every entry kept, then the turn", (name) => {
    const before = parseSession(readFixture(name));
    const leafId = before.entries.at(-1)?.id;
    const text = rewrittenText(recordingFor(before, leafId), readFixture(name));
    const lines = parseLines(text);
    expect(lines[0]).toEqual({ ...before.header.raw, version: 3 });
    for (const line of lines.slice(1)) {
      expect(typeof line.id).toBe("string");
      expect("parentId" in line).toBe(true);
    }

    const after = parseSession(text);
    expect(after.version).toBe(3);
    expect(after.versionFound).toBe(3);
    expect(after.problems).toEqual([]);
    expect(after.entries).toHaveLength(before.entries.length + 3);
    expect(after.entries.slice(0, -3).map(essence)).toEqual(before.entries.map(essence));
    expectRecordedTurn(
      lines.slice(-3),
      leafId ?? null,
      name.includes("v1") ? { provider: "anthropic", modelId: "claude-sonnet-4-5", model: "anthropic/claude-sonnet-4-5" } : EXAMPLE_MODEL,
    );
  });

  test("a version 1 rewrite keeps what the branch sends to a model", () => {
    const before = parseSession(readFixture("sessions/v1.jsonl"));
    const text = rewrittenText(recordingFor(before, before.entries.at(-1)?.id), readFixture("sessions/v1.jsonl"));
    const after = parseSession(text);
    const leaf = before.entries.at(-1)?.id;
    expect(analyzeBranch(after, { leafId: leaf }).context).toEqual(analyzeBranch(before).context);
  });

  test("a version 1 source with an unusable line is not rewritten, and says why", () => {
    const lines = readFixture("sessions/v1.jsonl").split("\n");
    const torn = [...lines.slice(0, 3), '{"type":"message","timestamp":"2026-11-29T09:0', ...lines.slice(3)].join("\n");
    const session = parseSession(torn);
    expect(session.version).toBe(1);
    const recording = recordingFor(session, session.entries.at(-1)?.id);
    expect(recording.mode).toBe("skip");
    if (recording.mode === "skip") expect(recording.reason).toContain("version 1 with 1 unusable line");
  });
});
