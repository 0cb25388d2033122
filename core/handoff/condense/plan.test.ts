import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { toolPairingProblems } from "../../../fixtures/sessions/checks.ts";
import { AgentError } from "../../errors.ts";
import { analyzeBranch } from "../../session/analyze.ts";
import { parseSession } from "../../session/formats/pi/parse.ts";
import type { ChatRequest } from "../../llm/types.ts";
import { messageText, type ContextMessage } from "../../session/messages.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "../prompt.ts";
import { estimateRequestTokens } from "./budget.ts";
import { assistantMessage, filler, toolResultMessage, userMessage, userRequests, workSession } from "./condense.testing.ts";
import { condenseLightly } from "./light.ts";
import { planCondensation, type CondensePlan } from "./plan.ts";
import { buildFinalRequest, buildNotesRequest } from "./condensed-requests.ts";
import { findLatestRequest } from "./turns.ts";

const SETUP = { model: "m", systemPrompt: DEFAULT_SYSTEM_PROMPT, instruction: renderInstruction() };
const plan = (context: readonly ContextMessage[], contextWindow: number) => planCondensation({ ...SETUP, context, contextWindow });

/** Notes as long as the plan allows them to be, the worst case every limit is planned for. */
const fullNotes = (p: CondensePlan) => "n".repeat(p.notesReserve * 4);

/** Every request of a plan, notes at their limit, in the order they are sent. */
function requestsOf(p: CondensePlan): ChatRequest[] {
  const notes = fullNotes(p);
  const requests = p.chunks.map((_, i) => buildNotesRequest(SETUP, p, i, i === 0 ? undefined : notes));
  requests.push(buildFinalRequest(SETUP, p, p.chunks.length > 0 ? notes : undefined));
  return requests;
}

/** All the text a request carries, message by message. */
function texts(request: ChatRequest | undefined): string[] {
  return (request?.messages ?? []).map((m) =>
    typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => (p.type === "text" ? p.text : "")).join("\n"),
  );
}

const reaches = (requests: readonly ChatRequest[], text: string) => requests.some((r) => texts(r).some((t) => t.includes(text)));

/** The checks every plan must pass, whatever its input. */
function expectSound(p: CondensePlan, context: readonly ContextMessage[]): void {
  const requests = requestsOf(p);
  // Each request fits what was planned for it, with notes at their limit.
  requests.forEach((request, i) => {
    const limit = i < p.chunks.length ? p.budget.notesPromptLimit : p.budget.promptLimit;
    const answer = i < p.chunks.length ? p.notesReserve : p.budget.outputReserve;
    expect(estimateRequestTokens(request)).toBeLessThanOrEqual(limit);
    expect(estimateRequestTokens(request) + answer).toBeLessThanOrEqual(p.budget.contextWindow);
  });
  // No chunk and no recent part separates a tool call from its result.
  for (const part of [...p.chunks, p.recent]) expect(toolPairingProblems(part)).toEqual([]);
  // Nothing is lost or reordered: the parts, in order, are the context's messages.
  expect([...p.chunks.flat(), ...p.recent].map((m) => m.entryId)).toEqual(context.map((m) => m.entryId));
  // The latest user request reaches the last request verbatim; every user request reaches one.
  const latest = context[findLatestRequest(context)];
  if (latest) expect(texts(requests.at(-1)).some((t) => t.includes(messageText(latest)))).toBe(true);
  // (Only one that alone is larger than a chunk is cut, with a marker; its start still arrives.)
  const cut = new Set(
    p.chunks
      .flat()
      .filter((m) => messageText(m).includes("characters cut from the middle of this message"))
      .map((m) => m.entryId),
  );
  for (const message of context) {
    if (message.role !== "user" || message.kind !== "user") continue;
    const text = messageText(message);
    expect(reaches(requests, cut.has(message.entryId) ? text.slice(0, 200) : text)).toBe(true);
  }
}

describe("planCondensation: a context that fits", () => {
  test("goes whole, in one request, untouched", () => {
    const context = workSession({ rounds: 10, requestEvery: 3, resultChars: 500 });
    const p = plan(context, 128_000);
    expect(p.mode).toBe("whole");
    expect(p.recent).toBe(context);
    expect(p.chunks).toEqual([]);
    expectSound(p, context);
  });
});

describe("planCondensation: stage 1", () => {
  // 27 tool results of 2000 tokens, five of them 8000: about 85,000 tokens in all.
  const context = workSession({ rounds: 20, requestEvery: 4, resultChars: 8000 });
  const p = plan(context, 64_000);

  test("cuts tool results to the loosest cap that fits, and no further", () => {
    expect(p.mode).toBe("shortened");
    expect(p.toolResultCap).toBe(1000);
    expect(p.light.toolResultsShortened).toBe(27);
    const looser = condenseLightly(context, 2000, findLatestRequest(context));
    expect(estimateRequestTokens(buildFinalRequest(SETUP, { ...p, recent: looser.context }, undefined))).toBeGreaterThan(
      p.budget.promptLimit,
    );
    expectSound(p, context);
  });

  test("each cut result keeps head and tail and says how much was cut", () => {
    const results = p.recent.filter((m) => m.role === "toolResult");
    for (const result of results) {
      const text = messageText(result);
      const original = messageText(context.find((m) => m.entryId === result.entryId) ?? result);
      const match =
        /\n\[… ([\d,]+) of ([\d,]+) characters cut from the middle of this tool result to fit the model's context window …\]\n/.exec(text);
      expect(match).not.toBeNull();
      expect(Number(match?.[2]?.replace(/,/g, ""))).toBe(original.length);
      expect(original.startsWith(text.slice(0, match?.index))).toBe(true);
      expect(text.length).toBeLessThan(4000 + 200);
    }
  });

  test("what people typed is never cut", () => {
    expect(userRequests(p.recent)).toEqual(userRequests(context));
  });

  test("reasoning goes; images become placeholders, except in the latest request", () => {
    const withImages = [
      userMessage("u1", "Here is the broken layout.", 2),
      assistantMessage("a1", "", [{ id: "c1", name: "read", arguments: { path: "a.css" } }], "the grid is off"),
      toolResultMessage("t1", "c1", "read", filler(60_000, "css")),
      userMessage("u2", "And now it looks like this.", 1),
      assistantMessage("a2", "I see the overflow.", [], "check the flex basis"),
    ];
    const shortened = plan(withImages, 16_000);
    expect(shortened.mode).toBe("shortened");
    expect(shortened.light).toEqual({ toolResultsShortened: 1, imagesReplaced: 2, reasoningDropped: 2 });
    const [first, , , latest] = shortened.recent;
    expect(first?.content.map((b) => b.type)).toEqual(["text", "text", "text"]);
    expect(first === undefined ? "" : messageText(first)).toContain("[image left out to fit the model's context window: image/png]");
    expect(latest?.content.map((b) => b.type)).toEqual(["text", "image"]);
    expect(shortened.recent.every((m) => m.content.every((b) => b.type !== "thinking"))).toBe(true);
  });
});

describe("planCondensation: stage 2", () => {
  const context = workSession({ rounds: 120, requestEvery: 6, resultChars: 3000 });

  test("folds the oldest turns into chunks that fit, keeps the latest turns verbatim", () => {
    const p = plan(context, 16_000);
    expect(p.mode).toBe("folded");
    expect(p.chunks.length).toBeGreaterThan(2);
    expect(p.recent.length).toBeGreaterThan(0);
    expect(p.foldedMessages).toBe(p.chunks.flat().length);
    expect(p.latestRequest).toBeUndefined();
    expectSound(p, context);
  });

  test("never separates a call from its result, also when every turn reuses the same call ids", () => {
    const reused = workSession({ rounds: 90, requestEvery: 5, resultChars: 3000, reuseIds: true });
    expectSound(plan(reused, 12_000), reused);
  });

  test("quotes the latest request in the handoff request when the work after it is too long to keep", () => {
    const late = [
      ...workSession({ rounds: 6, requestEvery: 3, resultChars: 400 }),
      userMessage("latest", "LATEST: port the whole parser to streams, and do not touch the public API"),
      ...workSession({ rounds: 60, requestEvery: 1000, resultChars: 4000 })
        .slice(1)
        .map((m) => ({ ...m, entryId: `late-${m.entryId}` })),
    ];
    const p = plan(late, 16_000);
    expect(p.mode).toBe("folded");
    expect(p.latestRequest).toBe("LATEST: port the whole parser to streams, and do not touch the public API");
    expect(texts(requestsOf(p).at(-1)).join("\n")).toContain(
      "<latest-request>\nLATEST: port the whole parser to streams, and do not touch the public API\n</latest-request>",
    );
    expectSound(p, late);
  });

  test("a user message larger than a chunk is cut with a marker, in its chunk", () => {
    const huge = userMessage("huge", `PASTED LOG START\n${filler(200_000, "paste")}\nPASTED LOG END`);
    const withPaste = [
      ...workSession({ rounds: 20, requestEvery: 5, resultChars: 1000 }),
      huge,
      ...workSession({ rounds: 30, requestEvery: 5, resultChars: 3000 }).map((m) => ({ ...m, entryId: `b-${m.entryId}` })),
    ];
    const p = plan(withPaste, 16_000);
    expect(p.messagesShortened).toBe(1);
    const cut = p.chunks.flat().find((m) => m.entryId === "huge");
    const text = cut ? messageText(cut) : "";
    expect(text).toStartWith("PASTED LOG START");
    expect(text).toEndWith("PASTED LOG END");
    expect(text).toMatch(/characters cut from the middle of this message/);
    expectSound(p, withPaste);
  });

  test("is deterministic: the same input gives the same plan and requests", () => {
    expect(plan(context, 16_000)).toEqual(plan(context, 16_000));
    expect(JSON.stringify(requestsOf(plan(context, 16_000)))).toBe(JSON.stringify(requestsOf(plan(context, 16_000))));
  });
});

describe("planCondensation: windows too small", () => {
  const usage = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (error instanceof AgentError && error.code === "USAGE") return error.message;
      throw error;
    }
    throw new Error("expected a usage error");
  };

  test("a window that cannot hold the instruction is a usage error naming the flag", () => {
    expect(usage(() => plan(workSession({ rounds: 40, requestEvery: 5, resultChars: 3000 }), 1200))).toMatch(
      /^--context-window 1200 is too small: .*raise --context-window/,
    );
  });

  test("a latest request larger than a whole request is a usage error, never cut", () => {
    const context = [...workSession({ rounds: 10, requestEvery: 5, resultChars: 3000 }), userMessage("big", filler(100_000, "spec"))];
    expect(usage(() => plan(context, 8000))).toMatch(/--context-window 8000 is too small: .*latest user request/);
  });
});

// The two real pi sessions live beside the checkout, never inside it (see ../shared/sessions/README.md).
const SESSIONS = join(import.meta.dir, "..", "..", "..", "..", "shared", "sessions");
const present = existsSync(join(SESSIONS, "large-session.jsonl")) && existsSync(join(SESSIONS, "before-compaction.jsonl"));

describe(`planCondensation on the real sessions${present ? "" : " (skipped: ../shared/sessions/ is not beside this checkout)"}`, () => {
  const contexts = new Map<string, ContextMessage[]>();
  const contextOf = (name: string): ContextMessage[] => {
    const known = contexts.get(name);
    if (known) return known;
    const context = analyzeBranch(parseSession(readFileSync(join(SESSIONS, name), "utf8"), name)).context;
    contexts.set(name, context);
    return context;
  };

  for (const name of ["large-session.jsonl", "before-compaction.jsonl"]) {
    test.skipIf(!present).each([8_000, 32_000, 128_000])(`${name} through a %d-token window`, (contextWindow) => {
      const context = contextOf(name);
      const p = plan(context, contextWindow);
      expect(p.mode).toBe(contextWindow === 128_000 ? "shortened" : "folded");
      expectSound(p, context);
      // Each token is sent about once: the requests together stay near the context's own size.
      const sent = requestsOf(p).reduce((sum, r) => sum + estimateRequestTokens(r), 0);
      expect(sent).toBeLessThanOrEqual(1.3 * p.tokensBefore);
    });
  }
});
