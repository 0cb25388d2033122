import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch } from "../../analyze.ts";
import { messageText, type ContextMessage } from "../../messages.ts";
import type { SessionRows } from "../session-rows.ts";
import { opencodeStore } from "./store.ts";

/**
 * The session opencode 1.18.33 itself wrote (fixtures/real/opencode/session.json: its rows of the
 * `session`, `message` and `part` tables, as `bun:sqlite` gave them): a prompt answered with a
 * `bash` call and a `read` call, a second prompt by `opencode run -s <id>`, a third by `opencode
 * run -c`. resume-request.json is what opencode sent the fake model for the third prompt (its
 * system prompt replaced): the conversation it rebuilt from the same rows.
 */
const REAL = join(import.meta.dir, "../../../../fixtures/real/opencode");
const recorded = JSON.parse(readFileSync(join(REAL, "session.json"), "utf8")) as SessionRows & { migration: string };
const session = opencodeStore.read(recorded, "opencode.db");
const analysis = analyzeBranch(session);

/** A context message as the Chat Completions request opencode sent names it: role, text, tool calls. */
function shape(message: ContextMessage): unknown {
  if (message.role === "toolResult") return { role: "tool", id: message.toolCallId, text: messageText(message) };
  const calls = message.content.flatMap((block) =>
    block.type === "toolCall" ? [{ id: block.id, name: block.name, arguments: block.arguments }] : [],
  );
  return { role: message.role, text: messageText(message), ...(calls.length > 0 ? { calls } : {}) };
}

interface Sent {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

test("the real session reads without a problem or an unknown type, with its cwd, version, title and model's provider", () => {
  expect([session.problems, session.unknownTypes]).toEqual([[], []]);
  expect([session.header.id, session.header.cwd, session.header.agentVersion, session.header.modelProvider, session.title]).toEqual([
    "ses_dc59a6705ffeTUmLklH2hW4FHH",
    "/tmp/agent-compat/opencode-transcript/project",
    "1.18.33",
    "fake",
    "Listing the files",
  ]);
});

test("its context is the conversation opencode itself sent when it resumed it, then the last answer", () => {
  const sent = (JSON.parse(readFileSync(join(REAL, "resume-request.json"), "utf8")).messages as Sent[]).slice(1).map((m) => {
    if (m.role === "tool") return { role: "tool", id: m.tool_call_id, text: m.content };
    const calls = m.tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) }));
    return { role: m.role, text: m.content ?? "", ...(calls ? { calls } : {}) };
  });
  const ours = analysis.context.map(shape);
  expect(ours.slice(0, -1)).toEqual(sent);
  expect(ours.at(-1)).toEqual({ role: "assistant", text: "Done after 2 tools." });
});

test("each tool call is paired with its result, and the facts count the command and the file read", () => {
  const calls = analysis.context.flatMap((m) =>
    m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall").map((b) => b.id) : [],
  );
  const results = analysis.context.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : []));
  expect(results).toEqual(calls);
  expect(analysis.facts.commands.map((c) => c.command)).toEqual(["ls"]);
  expect(analysis.facts.filesRead).toEqual(["notes.txt"]);
  expect([analysis.facts.models, analysis.facts.lastUserRequest]).toEqual([["fake/fake-model"], '"Third, via continue"']);
});

test("the schema version the recording's database was at is the one the store was tested with", () => {
  expect(opencodeStore.testedSchemaVersions).toContain(recorded.migration);
  const migrations = JSON.parse(readFileSync(join(REAL, "migrations.json"), "utf8")) as string[];
  expect(migrations.at(-1)).toBe(recorded.migration);
  expect(migrations).toEqual([...migrations].sort());
});
