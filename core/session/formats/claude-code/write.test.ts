import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { offlineDocument } from "../../../../fixtures/offline/engine.ts";
import { ACKNOWLEDGEMENT } from "../../../handoff/wrap.ts";
import { wrapHandoffDocument } from "../../../handoff/wrap.ts";
import { analyzeBranch } from "../../analyze.ts";
import { restoredModel, type RestoredModel } from "../../restored-model.ts";
import type { NewSessionInput } from "../types.ts";
import { assistantLine, jsonl, text, userLine, uuid } from "../../../../fixtures/sessions/claude-code/builders.ts";
import { readClaudeCodeSession } from "./read.ts";
import { renderClaudeCodeSession } from "./write.ts";

const FIXTURES = join(import.meta.dir, "../../../../fixtures");
const SESSION_ID = "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b";
const WRAPPED = wrapHandoffDocument("## Goal\nShip it.");

function input(overrides: Partial<NewSessionInput> = {}): NewSessionInput {
  let n = 0;
  return {
    wrappedDocument: WRAPPED,
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId: SESSION_ID,
    newEntryId: () => `e${String(++n).padStart(7, "0")}`,
    timestamp: new Date("2026-11-30T08:00:00.000Z"),
    utcOffsetMinutes: 60,
    cwd: "/home/dev/shop",
    parentSession: "/home/dev/.claude/projects/-home-dev-shop/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
    model: { pi: { provider: "anthropic", modelId: "claude-opus-4-5" }, omp: "anthropic/claude-opus-4-5" },
    source: { format: "claude-code", agentVersion: "2.1.300", modelProvider: undefined },
    ...overrides,
  };
}

const DOC_UUID = "e0000001-e000-4002-a000-0003e0000004";
const ANSWER_UUID = "e0000005-e000-4006-a000-0007e0000008";
const MESSAGE_ID = "e0000009-e000-4010-a000-0011e0000012";

function expectedFile(fields: { version: string; model: string; cwd?: string }): string {
  const shared = `"isSidechain":false,"userType":"external",${fields.cwd === undefined ? "" : `"cwd":${JSON.stringify(fields.cwd)},`}"sessionId":"${SESSION_ID}","version":"${fields.version}"`;
  const synthetic = fields.model === "<synthetic>";
  return (
    `{"parentUuid":null,${shared},"type":"user","message":{"role":"user","content":${JSON.stringify(WRAPPED)}},"uuid":"${DOC_UUID}","timestamp":"2026-11-30T08:00:00.000Z"}\n` +
    `{"parentUuid":"${DOC_UUID}",${shared},"type":"assistant","message":{"id":"${MESSAGE_ID}","type":"message","role":"assistant","model":"${fields.model}",` +
    `"content":[{"type":"text","text":"${ACKNOWLEDGEMENT}"}],"stop_reason":"${synthetic ? "stop_sequence" : "end_turn"}","stop_sequence":${synthetic ? '""' : "null"},` +
    `"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"uuid":"${ANSWER_UUID}","timestamp":"2026-11-30T08:00:00.000Z"}\n`
  );
}

describe("a new Claude Code session: the document, then an acknowledgement", () => {
  const piModel: RestoredModel = { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" };
  test.each([
    [
      "from Claude Code: its version, and its model (the one that session resumes with)",
      input(),
      { version: "2.1.300", model: "claude-opus-4-5", cwd: "/home/dev/shop" },
    ],
    [
      "from pi: the tested version, and <synthetic> (the user's default model)",
      input({ source: { format: "pi", agentVersion: undefined, modelProvider: undefined }, model: piModel }),
      { version: "2.1.328", model: "<synthetic>", cwd: "/home/dev/shop" },
    ],
    [
      "from pi on Anthropic: still <synthetic>, a pi provider's model may not be this user's Claude Code's",
      input({ source: { format: "pi", agentVersion: undefined, modelProvider: undefined } }),
      { version: "2.1.328", model: "<synthetic>", cwd: "/home/dev/shop" },
    ],
    [
      "from Claude Code with no model on its branch: <synthetic>",
      input({ model: { pi: undefined, omp: undefined } }),
      { version: "2.1.300", model: "<synthetic>", cwd: "/home/dev/shop" },
    ],
    [
      "from Claude Code, a model id that is not a Claude model's (a hand-edited file): <synthetic>",
      input({ model: { pi: { provider: "anthropic", modelId: 'claude-x\n"}' }, omp: undefined } }),
      { version: "2.1.300", model: "<synthetic>", cwd: "/home/dev/shop" },
    ],
    [
      "from Codex: the tested version (a Codex version is not Claude Code's)",
      input({ source: { format: "codex", agentVersion: "0.169.0", modelProvider: "openai" }, model: piModel }),
      { version: "2.1.328", model: "<synthetic>", cwd: "/home/dev/shop" },
    ],
    ["from a stream with no cwd: no cwd field", input({ cwd: undefined }), { version: "2.1.300", model: "claude-opus-4-5" }],
  ])("%s", (_why, given, expected) => {
    expect(renderClaudeCodeSession(given)).toEqual({
      content: expectedFile(expected),
      fileName: `${SESSION_ID}.jsonl`,
      sessionId: SESSION_ID,
    });
  });
});

test("a Claude Code source on a cloud's model id (Bedrock, Vertex) names no Anthropic model: <synthetic>", () => {
  const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000b1", cwd: "/home/dev/shop" };
  const lines = jsonl([
    userLine(place, uuid("1", 1), null, 1, "Hi."),
    assistantLine(place, uuid("1", 2), uuid("1", 1), 2, [text("Hello.")], {
      messageId: "msg_1",
      model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    }),
  ]);
  const branch = analyzeBranch(readClaudeCodeSession(lines, "cloud.jsonl"));
  expect(branch.facts.models).toEqual(["us.anthropic.claude-sonnet-4-5-20250929-v1:0"]);
  const file = renderClaudeCodeSession(input({ model: restoredModel(branch.branch.entries) }));
  expect(file.content).toBe(expectedFile({ version: "2.1.300", model: "<synthetic>", cwd: "/home/dev/shop" }));
});

test("a Claude Code branch ending in Claude Code's own filler resumes with the model of the answer before it, as Claude Code does", () => {
  const path = join(FIXTURES, "sessions/claude-code/notes.jsonl");
  const model = restoredModel(analyzeBranch(readClaudeCodeSession(readFileSync(path), path)).branch.entries);
  expect(model).toEqual({ pi: { provider: "anthropic", modelId: "claude-opus-4-5" }, omp: "anthropic/claude-opus-4-5" });
  expect(renderClaudeCodeSession(input({ model })).content).toContain('"model":"claude-opus-4-5"');
});

describe("handed off and read back: the context is the document and the acknowledgement", () => {
  const roundTrip = (given: NewSessionInput) => {
    const file = renderClaudeCodeSession(given);
    const session = readClaudeCodeSession(file.content, `/tmp/${file.fileName}`);
    const analysis = analyzeBranch(session);
    return { session, context: analysis.context.map((m) => ({ role: m.role, content: m.content })), models: analysis.facts.models };
  };

  test("a pi session, handed off by the offline engine", () => {
    const path = join(FIXTURES, "sessions/v3-branches.jsonl");
    const document = offlineDocument(readFileSync(path, "utf8"), path);
    const wrapped = wrapHandoffDocument(document);
    const back = roundTrip(
      input({ wrappedDocument: wrapped, source: { format: "pi", agentVersion: undefined, modelProvider: undefined } }),
    );
    expect(back.context).toEqual([
      { role: "user", content: [{ type: "text", text: wrapped }] },
      { role: "assistant", content: [{ type: "text", text: ACKNOWLEDGEMENT }] },
    ]);
    // `<synthetic>` names no model: none is listed.
    expect(back.models).toEqual([]);
    expect(back.session.header).toMatchObject({ id: SESSION_ID, cwd: "/home/dev/shop", agentVersion: "2.1.328" });
  });

  test("the real Claude Code transcript: the new session resumes with the source's model", () => {
    const path = join(FIXTURES, "real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl");
    const source = readClaudeCodeSession(readFileSync(path), path);
    const model = restoredModel(analyzeBranch(source).branch.entries);
    const back = roundTrip(
      input({ model, source: { format: "claude-code", agentVersion: source.header.agentVersion, modelProvider: undefined } }),
    );
    expect(back.context.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(back.models).toEqual(["anthropic/claude-sonnet-4-5"]);
    expect(back.session.header.agentVersion).toBe("2.1.328");
  });
});
