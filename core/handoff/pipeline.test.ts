import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentError, type ErrorCode } from "../errors.ts";
import { isObject, type JsonObject } from "../json.ts";
import { CompletionError, type ChatRequest, type Complete, type CompleteOptions, type Completion } from "../llm/types.ts";
import { analyzeBranch } from "../session/analyze.ts";
import { parseSession } from "../session/parse.ts";
import { renderNewSession, type Recording } from "./outputs.ts";
import { buildHandoffRequest, runHandoff, type HandoffDeps, type HandoffInput } from "./pipeline.ts";
import { REQUIRED_SECTIONS, renderInstruction } from "./prompt.ts";

const readFixture = (name: string) => readFileSync(join(import.meta.dir, "../../fixtures", name), "utf8");

/** A document with the given `## ` sections, each with a line of body. */
function documentWith(sections: readonly string[]): string {
  return sections.map((name) => `## ${name}\nAbout ${name.toLowerCase()}.`).join("\n\n");
}
const FULL_DOCUMENT = documentWith(REQUIRED_SECTIONS);
const WITHOUT_DECISIONS = documentWith(REQUIRED_SECTIONS.filter((s) => s !== "Key Decisions" && s !== "Next Steps"));

const answer = (text: string, extra: Partial<Completion> = {}): Completion => ({
  text,
  finishReason: "stop",
  usage: { inputTokens: 1000, outputTokens: 200 },
  model: "gpt-4.1-mini-2025-04-14",
  ...extra,
});

type Reply = Completion | Error | ((request: ChatRequest, options: CompleteOptions) => Completion);

/** A model that gives scripted replies in order and keeps a copy of every request it got. */
function fakeModel(...replies: Reply[]): { complete: Complete; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const complete: Complete = async (request, options) => {
    requests.push(structuredClone(request));
    const reply = replies[requests.length - 1];
    if (reply === undefined) throw new Error(`unexpected request #${requests.length}`);
    if (reply instanceof Error) throw reply;
    return typeof reply === "function" ? reply(request, options) : reply;
  };
  return { complete, requests };
}

/** The lines a recording appends, parsed; fails unless it is an append of JSON objects. */
function appendedLines(recording: Recording | undefined): JsonObject[] {
  if (recording?.mode !== "append") throw new Error(`expected an append, got ${JSON.stringify(recording)}`);
  return recording.text
    .trimEnd()
    .split("\n")
    .map((line) => {
      const value: unknown = JSON.parse(line);
      if (!isObject(value)) throw new Error(`not an object: ${line}`);
      return value;
    });
}

const NOW = new Date("2026-11-30T08:00:00.000Z");
const NEW_SESSION_ID = "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b";

function deps(complete: Complete, overrides: Partial<HandoffDeps> = {}): HandoffDeps {
  let n = 0;
  return {
    complete,
    now: () => NOW,
    newSessionId: () => NEW_SESSION_ID,
    newEntryId: () => `e${String(++n).padStart(7, "0")}`,
    ...overrides,
  };
}

function inputFor(text: string, overrides: Partial<HandoffInput> = {}, leafId?: string): HandoffInput {
  const session = parseSession(text);
  return {
    session,
    analysis: analyzeBranch(session, { leafId }),
    sourcePath: "/home/me/sessions/source.jsonl",
    model: "gpt-4.1-mini",
    provider: "openai",
    // These tests are about the model engine's document; facts have their own tests below.
    facts: false,
    ...overrides,
  };
}
const exampleInput = (overrides: Partial<HandoffInput> = {}) => inputFor(readFixture("example.jsonl"), overrides);

/** The AgentError a promise rejects with; fails the test when it resolves or throws anything else. */
async function rejectionOf(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error("expected the handoff to fail, and it succeeded");
}

async function expectFailure(promise: Promise<unknown>, code: ErrorCode, message?: string | RegExp): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error.code).toBe(code);
  if (typeof message === "string") expect(error.message).toBe(message);
  else if (message) expect(error.message).toMatch(message);
}

const HEADER = JSON.stringify({ type: "session", version: 3, id: "8e4f5061-7283-4d94-8ea5-c6d7e8f9a0b1", timestamp: "2026-11-29T09:00:00.000Z", cwd: "/w" });
const userLine = (id: string, parentId: string | null) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-11-29T09:01:00.000Z", message: { role: "user", content: `hi from ${id}`, timestamp: 1 } });
const changeLine = (id: string, parentId: string | null) =>
  JSON.stringify({ type: "thinking_level_change", id, parentId, timestamp: "2026-11-29T09:01:00.000Z", thinkingLevel: "high" });

describe("runHandoff: the guard", () => {
  test.each([
    ["a header only", [HEADER]],
    ["one message", [HEADER, userLine("f1", null)]],
    ["one message among other entries", [HEADER, changeLine("f1", null), userLine("f2", "f1"), changeLine("f3", "f2")]],
  ])("refuses %s and never asks the model", async (_, lines) => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await expectFailure(runHandoff(inputFor(`${lines.join("\n")}\n`), deps(model.complete)), "NOTHING_TO_HAND_OFF", "Nothing to hand off (no messages yet)");
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
  test("is the one buildHandoffRequest shows, ending with the instruction and the focus", async () => {
    const input = exampleInput({ focus: "quote the fields" });
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(input, deps(model.complete));
    expect(model.requests).toEqual([buildHandoffRequest(input)]);
    const last = model.requests[0]?.messages.at(-1);
    expect(last).toEqual({ role: "user", content: renderInstruction("quote the fields") });
    expect(last?.content).toEndWith("\n\nAdditional focus: quote the fields");
  });

  test("carries the branch's context and never an abandoned branch, a compacted-away turn or a !! command", async () => {
    const model = fakeModel(answer(FULL_DOCUMENT));
    await runHandoff(inputFor(readFixture("sessions/v3-branches.jsonl"), { focus: "the config" }), deps(model.complete));
    const sent = JSON.stringify(model.requests[0]);
    // On the branch: the branch summary, the compaction summary, turns after it, the image.
    for (const kept of ["Tried a redis-backed limiter", "Added an in-memory limiter", "Keep it in memory. Run the tests.", "git status --short", "RATE_LIMIT", "data:image/png;base64,iVBORw0KGgo="]) {
      expect(sent).toContain(kept);
    }
    // The abandoned branch, the turns the compaction replaced, and the private `!!` run.
    for (const gone of ["back it with redis", "npm install ioredis", "Add rate limiting to POST /login", "Reading the server first.", "cat .env", "hunter2"]) {
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
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(`<think>\nThe user wants a handoff.\n</think>\n\n${FULL_DOCUMENT}`)).complete));
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
    expect((await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT, { model: undefined })).complete))).model).toBe("gpt-4.1-mini");
  });
});

describe("runHandoff: model failures", () => {
  test("an endpoint that accepts only tool_choice auto gets the same request once more with auto", async () => {
    const model = fakeModel(new CompletionError("tool_choice_unsupported", "tool_choice must be auto"), answer(FULL_DOCUMENT));
    const result = await runHandoff(exampleInput(), deps(model.complete));
    expect(model.requests.map((r) => r.tool_choice)).toEqual(["none", "auto"]);
    expect(model.requests[1]).toEqual({ ...buildHandoffRequest(exampleInput()), tool_choice: "auto" });
    expect(result.requests).toBe(2);
    expect(result.document).toBe(FULL_DOCUMENT);
  });

  test("retries with auto only once", async () => {
    const model = fakeModel(new CompletionError("tool_choice_unsupported", "no"), new CompletionError("tool_choice_unsupported", "still no"));
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", "still no");
    expect(model.requests).toHaveLength(2);
  });

  test("a context-length failure on the retry is a handoff failure too", async () => {
    const model = fakeModel(new CompletionError("tool_choice_unsupported", "no"), new CompletionError("context_length", "the request is larger than the model's context window"));
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", /context window/);
  });

  test("a context-length failure is a handoff failure with the endpoint's reason (when a smaller plan cannot help)", async () => {
    const model = fakeModel(new CompletionError("context_length", "the request is larger than the model's context window (128000 tokens)"));
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", /the endpoint said: the request is larger than the model's context window \(128000 tokens\)/);
    expect(model.requests).toHaveLength(1);
  });

  test("an AgentError from the port passes through unchanged", async () => {
    const model = fakeModel(new AgentError("HANDOFF_FAILED", "http://127.0.0.1:9/v1 answered 500"));
    await expectFailure(runHandoff(exampleInput(), deps(model.complete)), "HANDOFF_FAILED", "http://127.0.0.1:9/v1 answered 500");
  });
});

describe("runHandoff: missing sections", () => {
  test("strict: one repair request that ends with the draft and a repair instruction, then success", async () => {
    const model = fakeModel(answer(WITHOUT_DECISIONS), answer(FULL_DOCUMENT));
    const input = exampleInput({ strict: true });
    const result = await runHandoff(input, deps(model.complete));
    expect(model.requests).toHaveLength(2);
    const first = buildHandoffRequest(input);
    const repair = model.requests[1];
    expect(repair?.messages.slice(0, -2)).toEqual(first.messages);
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
    const model = fakeModel(new CompletionError("tool_choice_unsupported", "auto only"), answer(WITHOUT_DECISIONS), answer(FULL_DOCUMENT));
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

describe("runHandoff: the result", () => {
  test("returns the new session to write: fixed ids and time, the source as parent, the source's cwd", async () => {
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(result.newSession.sessionId).toBe(NEW_SESSION_ID);
    expect(result.newSession.fileName).toBe(`2026-11-30T08-00-00-000Z_${NEW_SESSION_ID}.jsonl`);
    expect(result.newSession.content).toBe(
      renderNewSession({ sessionId: NEW_SESSION_ID, entryId: "e0000001", timestamp: NOW, cwd: "/home/me/app", parentSession: "/home/me/sessions/source.jsonl", document: FULL_DOCUMENT }),
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
    const input = inputFor(readFixture("sessions/v3-branches.jsonl"), { record: true, focus: "the config", provider: "openrouter" }, "c0000019");
    const result = await runHandoff(input, deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    const [instruction, document, ...rest] = appendedLines(result.recording);
    expect(rest).toEqual([]);
    expect(instruction).toMatchObject({ parentId: "c0000019", message: { role: "user", content: [{ type: "text", text: renderInstruction("the config") }] } });
    expect(document).toMatchObject({
      parentId: instruction?.id,
      message: { role: "assistant", content: [{ type: "text", text: FULL_DOCUMENT }], provider: "openrouter", model: "gpt-4.1-mini-2025-04-14" },
    });
  });

  test("recorded entry ids never reuse an id the session has", async () => {
    const input = exampleInput({ record: true });
    const existing = [...input.analysis.tree.byId.keys()];
    const ids = ["a0000011", "a0000002", "a0000011", "f0000001", "f0000001", "f0000002", "f0000003"];
    const result = await runHandoff(input, deps(fakeModel(answer(FULL_DOCUMENT)).complete, { newEntryId: () => ids.shift() ?? "exhausted" }));
    const recordedIds = appendedLines(result.recording).map((line) => line.id);
    expect(recordedIds).toEqual(["f0000001", "f0000002"]);
    for (const id of recordedIds) expect(existing).not.toContain(id);
  });
});
