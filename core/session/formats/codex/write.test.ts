import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { wrapHandoffDocument } from "../../../handoff/wrap.ts";
import { isAgentError } from "../../../errors.ts";
import { isObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { parseSession } from "../pi/parse.ts";
import { restoredModel } from "../../restored-model.ts";
import type { NewSessionInput } from "../types.ts";
import { codex } from "./index.ts";
import { localFileTime } from "./write.ts";

const NOW = new Date("2026-11-30T23:30:05.123Z");
const SESSION_ID = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
const DOCUMENT = "## Goal\nShip rate limiting.\n\n## Next Steps\n1. run the tests";
const WRAPPED = wrapHandoffDocument(DOCUMENT);

function input(overrides: Partial<NewSessionInput> = {}): NewSessionInput {
  return {
    wrappedDocument: WRAPPED,
    sessionId: SESSION_ID,
    newEntryId: () => "00000000",
    timestamp: NOW,
    utcOffsetMinutes: 0,
    cwd: "/home/me/app",
    parentSession: "/home/me/.pi/agent/sessions/x.jsonl",
    model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
    source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
    acknowledgement: "I have read the handoff document.",
    ...overrides,
  };
}

const lines = (content: string): unknown[] =>
  content
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("a new Codex session", () => {
  test("is session_meta, the document as the user's input_text, and its user_message event, each with a timestamp", () => {
    const file = codex.renderNewSession(input());
    const iso = NOW.toISOString();
    expect(lines(file.content)).toEqual([
      {
        timestamp: iso,
        type: "session_meta",
        payload: { id: SESSION_ID, timestamp: iso, cwd: "/home/me/app", originator: "agent-handoff", cli_version: "0.169.0" },
      },
      {
        timestamp: iso,
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: WRAPPED }] },
      },
      { timestamp: iso, type: "event_msg", payload: { type: "user_message", message: WRAPPED, images: [] } },
    ]);
    expect(file.content.endsWith("}\n")).toBe(true);
    expect(file.sessionId).toBe(SESSION_ID);
  });

  test.each([
    [
      "a pi source: no provider (Codex refuses one it is not configured with), the tested version",
      { format: "pi", agentVersion: undefined, modelProvider: "openai" },
      undefined,
      "0.169.0",
    ],
    ["a Claude Code source: the same", { format: "claude-code", agentVersion: "2.1.328", modelProvider: undefined }, undefined, "0.169.0"],
    [
      "a Codex source: its provider and its version",
      { format: "codex", agentVersion: "0.170.2", modelProvider: "azure" },
      "azure",
      "0.170.2",
    ],
    [
      "a Codex source that named neither: none, the tested version",
      { format: "codex", agentVersion: undefined, modelProvider: undefined },
      undefined,
      "0.169.0",
    ],
  ] as const)("%s", (_, source, provider, version) => {
    const [meta] = lines(codex.renderNewSession(input({ source: { ...source } })).content);
    const payload = isObject(meta) && isObject(meta.payload) ? meta.payload : {};
    expect({ cli_version: payload.cli_version, has_provider: "model_provider" in payload, model_provider: payload.model_provider }).toEqual(
      {
        cli_version: version,
        has_provider: provider !== undefined,
        model_provider: provider,
      },
    );
  });

  test.each([
    [0, "rollout-2026-11-30T23-30-05"],
    [60, "rollout-2026-12-01T00-30-05"],
    [-300, "rollout-2026-11-30T18-30-05"],
    [330, "rollout-2026-12-01T05-00-05"],
  ])("is named by the local time (UTC%+d minutes) and the id", (offset, prefix) => {
    expect(codex.renderNewSession(input({ utcOffsetMinutes: offset })).fileName).toBe(`${prefix}-${SESSION_ID}.jsonl`);
  });

  test("local time keeps seconds and drops milliseconds; an offset that is not a number counts as UTC", () => {
    expect(localFileTime(new Date("2026-01-02T03:04:05.999Z"), 0)).toBe("2026-01-02T03-04-05");
    expect(localFileTime(new Date("2026-01-02T03:04:05.999Z"), Number.NaN)).toBe("2026-01-02T03-04-05");
  });

  test("refuses a source without a working directory (Codex needs one), naming why", () => {
    let error: unknown;
    try {
      codex.renderNewSession(input({ cwd: undefined }));
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error) && error.code === "USAGE" && error.message.includes("working directory")).toBe(true);
  });

  test("keeps any text of the document byte for byte (quotes, newlines, non-ASCII, a closing tag)", () => {
    const text = wrapHandoffDocument('say "hi"\n\tcafé 🚀 </handoff-context> \\n \u2028');
    const [, item, event] = lines(codex.renderNewSession(input({ wrappedDocument: text })).content);
    expect(item).toMatchObject({ payload: { content: [{ text }] } });
    expect(event).toMatchObject({ payload: { message: text } });
  });
});

describe("round trip: a pi session handed off into Codex and read back", () => {
  const source = parseSession(readFileSync(join(import.meta.dir, "../../../../fixtures/sessions/v3-branches.jsonl")), "v3-branches.jsonl");
  const branch = analyzeBranch(source).branch.entries;
  const file = codex.renderNewSession(input({ cwd: source.header.cwd, model: restoredModel(branch) }));
  const back = codex.read(file.content, file.fileName);
  const analysis = analyzeBranch(back);

  test("is a Codex session with the new id, the source's cwd and no unusable line", () => {
    expect([back.format, back.header.id, back.header.cwd, back.problems]).toEqual(["codex", SESSION_ID, source.header.cwd, []]);
  });

  test("its context is exactly the document, as the previous handoff (never a user request)", () => {
    expect(analysis.context).toEqual([{ role: "user", kind: "custom", content: [{ type: "text", text: WRAPPED }], entryId: "00000001" }]);
    expect(analysis.facts.lastUserRequest).toBeUndefined();
  });
});
