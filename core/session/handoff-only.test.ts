/**
 * A session `agent handoff` wrote, while nothing happened in it, is told from one with work in
 * it by one rule for every agent: each format's own writer makes the file, each reader reads it
 * back, and what is appended after it (by the agent, or by a user who went on) decides.
 */
import { describe, expect, test } from "bun:test";
import { isAgentError } from "../errors.ts";
import { assertSomethingToHandOff } from "../handoff/nothing-to-hand-off.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "../handoff/wrap.ts";
import { analyzeBranch } from "./analyze.ts";
import { readSession } from "./formats/read.ts";
import { FILE_FORMATS, formatNamed } from "./formats/table.ts";
import type { FileAgentName } from "./types.ts";
import { handoffOnly } from "./handoff-only.ts";

const SOURCE = "/home/me/.pi/agent/sessions/--home-me-app--/2026-11-29T10-00-00-000Z_3f0c9a52.jsonl";
const SESSION_ID = "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b";
const TIME = "2026-11-30T08:20:00.000Z";

/** The new session each agent's writer makes for a pi source. */
function written(agent: FileAgentName, acknowledgement = ACKNOWLEDGEMENT): string {
  let id = 0;
  return formatNamed(agent).renderNewSession({
    wrappedDocument: wrapHandoffDocument("## Goal\nShip rate limiting.\n\n## Next Steps\n1. run the tests"),
    acknowledgement,
    sessionId: SESSION_ID,
    newEntryId: () => (++id).toString(16).padStart(8, "0"),
    timestamp: new Date("2026-11-30T08:15:42.123Z"),
    utcOffsetMinutes: 0,
    cwd: "/home/me/app",
    parentSession: SOURCE,
    model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
    source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
  }).content;
}

/** Lines as each agent appends them: the user's next words, an answer, and what carries no conversation. */
const LINES: Record<FileAgentName, { user: string; answer: string; quiet: string[] }> = {
  pi: {
    user: JSON.stringify({
      type: "message",
      id: "00000010",
      parentId: "00000003",
      timestamp: TIME,
      message: { role: "user", content: "Add a test for the limiter.", timestamp: 1 },
    }),
    answer: JSON.stringify({
      type: "message",
      id: "00000011",
      parentId: "00000003",
      timestamp: TIME,
      message: { role: "assistant", content: [{ type: "text", text: "Done." }], stopReason: "stop", timestamp: 2 },
    }),
    quiet: [
      JSON.stringify({ type: "thinking_level_change", id: "00000012", parentId: "00000003", timestamp: TIME, thinkingLevel: "high" }),
      JSON.stringify({ type: "session_info", id: "00000013", parentId: "00000012", timestamp: TIME, name: "limiter" }),
    ],
  },
  omp: {
    user: JSON.stringify({
      type: "message",
      id: "00000010",
      parentId: "00000003",
      timestamp: TIME,
      message: { role: "user", content: [{ type: "text", text: "Add a test for the limiter." }], timestamp: 1 },
    }),
    answer: JSON.stringify({
      type: "message",
      id: "00000011",
      parentId: "00000003",
      timestamp: TIME,
      message: { role: "assistant", content: [{ type: "text", text: "Done." }], stopReason: "stop", timestamp: 2 },
    }),
    quiet: [
      JSON.stringify({ type: "model_change", id: "00000012", parentId: "00000003", timestamp: TIME, model: "anthropic/claude-sonnet-4-5" }),
      JSON.stringify({ type: "title_change", id: "00000013", parentId: "00000012", timestamp: TIME, title: "limiter" }),
    ],
  },
  "claude-code": {
    user: JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type: "user",
      uuid: "cccccccc-0000-4000-8000-000000000010",
      timestamp: TIME,
      cwd: "/home/me/app",
      sessionId: SESSION_ID,
      version: "2.1.328",
      message: { role: "user", content: "Add a test for the limiter." },
    }),
    answer: JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type: "assistant",
      uuid: "cccccccc-0000-4000-8000-000000000011",
      timestamp: TIME,
      cwd: "/home/me/app",
      sessionId: SESSION_ID,
      version: "2.1.328",
      message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Done." }] },
    }),
    quiet: [
      JSON.stringify({ type: "last-prompt", lastPrompt: "", sessionId: SESSION_ID }),
      JSON.stringify({ type: "custom-title", customTitle: "limiter", sessionId: SESSION_ID }),
    ],
  },
  codex: {
    user: JSON.stringify({
      timestamp: TIME,
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "Add a test for the limiter." }] },
    }),
    answer: JSON.stringify({
      timestamp: TIME,
      type: "response_item",
      payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] },
    }),
    quiet: [
      JSON.stringify({ timestamp: TIME, type: "turn_context", payload: { cwd: "/home/me/app", model: "gpt-5" } }),
      JSON.stringify({ timestamp: TIME, type: "event_msg", payload: { type: "token_count", info: null } }),
    ],
  },
  gemini: {
    user: JSON.stringify({ id: "u-10", timestamp: TIME, type: "user", content: [{ text: "Add a test for the limiter." }] }),
    answer: JSON.stringify({ id: "g-11", timestamp: TIME, type: "gemini", content: "Done.", thoughts: [], model: "gemini-2.5-flash" }),
    quiet: [
      JSON.stringify({ $set: { lastUpdated: TIME } }),
      JSON.stringify({ id: "i-12", timestamp: TIME, type: "info", content: "Request cancelled." }),
    ],
  },
};

function read(content: string) {
  return readSession(content, "new.jsonl").session;
}

/** pi and omp record the source in the header; Claude Code's and Codex's files have no place for it. */
const RECORDS_SOURCE: Record<FileAgentName, boolean> = { pi: true, omp: true, "claude-code": false, codex: false, gemini: false };

describe.each<FileAgentName>(FILE_FORMATS.map((format) => format.name))("the session agent handoff wrote for %s", (agent) => {
  const ours = written(agent);
  const { user, answer, quiet } = LINES[agent];
  const source = RECORDS_SOURCE[agent] ? SOURCE : undefined;

  test.each<[string, string, boolean]>([
    ["as written: the document, our acknowledgement, a model entry", ours, true],
    ["then lines that are no conversation (settings, a title, bookkeeping)", `${ours}${quiet.join("\n")}\n`, true],
    ["then the user's first words: work of its own", `${ours}${user}\n`, false],
    ["then the user's words after those quiet lines", `${ours}${quiet.join("\n")}\n${user}\n`, false],
    ["then an answer no acknowledgement of ours is", `${ours}${answer}\n`, false],
  ])("%s", (_, content, handoffOnlyExpected) => {
    const session = read(content);
    expect(handoffOnly(session)).toEqual(handoffOnlyExpected ? { source } : undefined);
  });

  // Codex's file holds no acknowledgement to change.
  test.if(agent !== "codex")("an acknowledgement in other words is not ours (the writer only ever writes ours)", () => {
    expect(handoffOnly(read(written(agent, "Understood.")))).toBeUndefined();
  });

  test("handing it off is exit 3's refusal, saying what it is and naming its source where the file records one", () => {
    const session = read(ours);
    let thrown: unknown;
    try {
      assertSomethingToHandOff(session, analyzeBranch(session), "/x/new.jsonl");
    } catch (error) {
      thrown = error;
    }
    expect(isAgentError(thrown) && thrown.code).toBe("NOTHING_TO_HAND_OFF");
    const instead = source === undefined ? "the session it came from" : source;
    expect(thrown instanceof Error && thrown.message).toBe(
      `Nothing to hand off: /x/new.jsonl is a handoff session (agent handoff wrote it${source === undefined ? "" : ` from ${source}`}) with nothing after the document yet; hand off ${instead} instead, or continue this one in its agent first`,
    );
  });
});

describe("sessions that are not ours", () => {
  test.each<[string, string]>([
    [
      "a session whose first message is the user's",
      `${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: TIME, cwd: "/w" })}\n${LINES.pi.user}\n`,
    ],
    ["a session with no messages at all", `${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: TIME, cwd: "/w" })}\n`],
    [
      "a handoff document after the user's words",
      `${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: TIME, cwd: "/w" })}\n${LINES.pi.user}\n${JSON.stringify({ type: "custom_message", id: "00000020", parentId: "00000010", timestamp: TIME, customType: "handoff", content: wrapHandoffDocument("## Goal\nx"), display: true })}\n`,
    ],
  ])("%s", (_, content) => {
    expect(handoffOnly(read(content))).toBeUndefined();
  });
});
