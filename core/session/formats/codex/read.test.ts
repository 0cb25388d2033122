import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAgentError } from "../../../errors.ts";
import { isObject } from "../../../json.ts";
import { analyzeBranch, describeSessionProblems } from "../../analyze.ts";
import type { ContextMessage } from "../../messages.ts";
import type { Entry, Session } from "../../types.ts";
import { codex } from "./index.ts";

/**
 * The hand-made rollouts in fixtures/sessions/codex/ (written by generate.ts there, each line
 * commented with what it is for), read through the format. Each entry is outlined as
 * `<line> <type>[ <role>[ <block types>]]`.
 */
const DIR = join(import.meta.dir, "../../../../fixtures/sessions/codex");
const load = (name: string): Session => codex.read(readFileSync(join(DIR, name)), name);

function outline(entry: Entry): string {
  const message = isObject(entry.data.message) ? entry.data.message : undefined;
  if (!message) return `${entry.line} ${entry.type}`;
  const blocks = Array.isArray(message.content) ? message.content.map((b) => (isObject(b) ? String(b.type) : "?")) : [];
  return `${entry.line} ${entry.type} ${String(message.role)}${blocks.length > 0 ? ` ${blocks.join(",")}` : ""}`;
}

const contextOutline = (context: readonly ContextMessage[]) => context.map((m) => (m.role === "user" ? `user:${m.kind}` : m.role));

describe("every shape of a rollout", () => {
  const session = load("shapes.jsonl");
  const analysis = analyzeBranch(session);

  test("becomes entries: one per user message, model turn and tool output; Codex's own lines are passed over", () => {
    expect(session.entries.map(outline)).toEqual([
      "7 model_change", // turn_context: gpt-5
      "8 message user text", // lines 3-5 (developer, AGENTS.md, environment) are Codex's own
      "10 message assistant thinking,text,toolCall,toolCall", // reasoning summary, text, two parallel calls: one model turn
      "15 message toolResult text", // a string output
      "16 message toolResult text", // a structured output
      "18 message assistant toolCall", // encrypted reasoning (17) has nothing to read; apply_patch
      "19 message toolResult text",
      "20 message assistant toolCall", // local_shell_call
      "21 message toolResult text",
      "22 message assistant toolCall", // malformed arguments
      "23 message toolResult text",
      "24 message assistant text",
      "26 message bashExecution", // <user_shell_command>; 27 (<turn_aborted>) is Codex's own
      "28 message user text,text,text", // image labels without an image stay text
      "29 message user image,text", // labels around an image are dropped
      "30 message assistant text",
    ]);
    expect(session.entries.every((entry, i) => entry.parentId === (session.entries[i - 1]?.id ?? null))).toBe(true);
  });

  test("tool calls keep their ids and arguments as objects; the raw text where it is not JSON", () => {
    const calls = session.entries
      .flatMap((e) => (isObject(e.data.message) && Array.isArray(e.data.message.content) ? e.data.message.content : []))
      .filter((b) => isObject(b) && b.type === "toolCall");
    expect(calls.map((c) => (isObject(c) ? [c.id, c.name, c.arguments] : []))).toEqual([
      ["call_a", "exec_command", { cmd: "cat src/server.ts" }],
      ["call_b", "shell", { command: ["bash", "-lc", "ls test"], workdir: "/home/dev/shop" }],
      ["call_c", "apply_patch", { input: expect.stringContaining("*** Add File: src/limit.ts") }],
      ["call_d", "local_shell_call", { type: "exec", command: ["pnpm", "test"], timeout_ms: 60000 }],
      ["call_e", "exec_command", "{not json"],
    ]);
  });

  test("tool outputs name their tool; the older {content, success:false} is an error", () => {
    const results = session.entries.flatMap((e) =>
      isObject(e.data.message) && e.data.message.role === "toolResult" ? [e.data.message] : [],
    );
    expect(results.map((r) => [r.toolCallId, r.toolName, r.isError])).toEqual([
      ["call_a", "exec_command", false],
      ["call_b", "shell", false],
      ["call_c", "apply_patch", false],
      ["call_d", "local_shell_call", false],
      ["call_e", "exec_command", true],
    ]);
  });

  test("facts: commands with exit codes from each output shape, the patch's files, the user's own command, the model", () => {
    expect(analysis.facts).toEqual({
      cwd: "/home/dev/shop",
      // Codex reads files only through its shell: `cat src/server.ts`.
      filesRead: ["src/server.ts"],
      // The patch moved src/server.ts to src/app.ts: the old name is gone.
      filesModified: ["src/limit.ts", "src/app.ts"],
      filesDeleted: ["src/server.ts", "src/old.ts"],
      commands: [
        { command: "cat src/server.ts", exitCode: 0, by: "tool", failed: false }, // "Process exited with code 0"
        { command: "ls test", exitCode: 0, by: "tool", failed: false }, // the older shell tool's "Exit code: 0" header; bash -lc unwrapped
        { command: "pnpm test", exitCode: 1, by: "tool", failed: true }, // JSON metadata.exit_code
        { command: "git status --short", exitCode: 0, by: "user", failed: false },
      ],
      models: ["openai/gpt-5"],
      lastUserRequest: "And this?",
    });
  });

  test("unknown line and item types are kept out and named once each", () => {
    expect(session.unknownTypes).toEqual(["future_line_type", "response_item future_item_type"]);
    expect(describeSessionProblems(session, analysis)).toEqual([
      'unknown entry type "future_line_type" kept and ignored',
      'unknown entry type "response_item future_item_type" kept and ignored',
    ]);
  });

  test("the header: id, cwd, time, the Codex version and provider", () => {
    expect([
      session.format,
      session.header.id,
      session.header.cwd,
      session.header.timestamp,
      session.header.agentVersion,
      session.header.modelProvider,
      session.header.line,
    ]).toEqual(["codex", "0a1b2c3d-0000-4000-8000-000000000001", "/home/dev/shop", "2026-11-30T09:00:00.000Z", "0.169.0", "openai", 1]);
  });
});

describe("compactions", () => {
  test.each([
    [
      "replacement_history replaces what came before: the summary (without Codex's preamble), the user messages it kept, what follows",
      "compaction.jsonl",
      ["9 message user text", "9 message user text", "9 compaction"],
      "SUMMARY: rate limiting added; the login test fails.",
      ["user:compactionSummary", "user:user", "user:user", "assistant", "toolResult", "assistant"],
    ],
    [
      "without replacement_history (older Codex), the user's messages so far are kept, as Codex rebuilds it",
      "legacy-compaction.jsonl",
      ["7 message user text", "7 message user text", "7 compaction"],
      "Renamed getUser to fetchUser in src and docs.",
      ["user:compactionSummary", "user:user", "user:user", "user:user", "assistant"],
    ],
    [
      "on the server (an encrypted item, no message): a summary saying so, and the kept user message",
      "remote-compaction.jsonl",
      ["4 message user text", "4 compaction"],
      "(Codex condensed the earlier conversation on the server; its summary is encrypted and cannot be read.)",
      ["user:compactionSummary", "user:user", "user:user", "assistant"],
    ],
  ])("%s", (_, file, synthesised, summary, context) => {
    const session = load(file);
    const compactionLine = session.entries.find((e) => e.type === "compaction")?.line;
    expect(session.entries.filter((e) => e.line === compactionLine).map(outline)).toEqual(synthesised);
    const compaction = session.entries.find((e) => e.type === "compaction");
    const firstKept = session.entries.find((e) => e.line === compactionLine);
    expect([compaction?.data.summary, compaction?.data.firstKeptEntryId]).toEqual([
      summary,
      firstKept?.type === "message" ? firstKept.id : compaction?.id,
    ]);
    expect(contextOutline(analyzeBranch(session).context)).toEqual(context);
  });

  test("the facts still count what the compaction condensed", () => {
    const facts = analyzeBranch(load("compaction.jsonl")).facts;
    expect(facts.commands.map((c) => [c.command, c.exitCode])).toEqual([
      ["pnpm test", 1],
      ["pnpm test -- login", 0],
    ]);
  });
});

test("a rollback (thread_rolled_back) leaves the dropped turns on an abandoned branch", () => {
  const session = load("rollback.jsonl");
  const analysis = analyzeBranch(session);
  expect(session.entries.map((e) => [e.line, e.id, e.parentId])).toEqual([
    [2, "00000001", null],
    [3, "00000002", "00000001"],
    [4, "00000003", "00000002"],
    [5, "00000004", "00000003"],
    [7, "00000005", "00000002"], // hangs from before the dropped turn
    [8, "00000006", "00000005"],
  ]);
  expect(analysis.context.map((m) => m.content.map((b) => (b.type === "text" ? b.text : "")).join(""))).toEqual([
    "Use redis for the limiter.",
    "Added ioredis.",
    "Add a test for the limiter.",
    "Added test/limit.test.ts.",
  ]);
});

test("torn and hand-edited lines are skipped and named by line; the rest reads", () => {
  const session = load("torn.jsonl");
  expect(session.problems).toEqual([
    { line: 4, reason: "not valid JSON (a torn or hand-edited line?)" },
    { line: 5, reason: "not a JSON object" },
    { line: 6, reason: 'no string "type"' },
    { line: 7, reason: 'a "response_item" whose payload has no "type"' },
    { line: 8, reason: 'a "compacted" line with neither a "message" nor a "replacement_history"' },
    { line: 10, reason: "not valid JSON (a torn or hand-edited line?)" },
  ]);
  expect([session.malformedLines, session.missingFinalNewline]).toEqual([[4, 5, 6, 7, 8, 10], true]);
  expect(session.entries.map(outline)).toEqual(["2 message user text", "3 message assistant text", "9 message user text"]);
});

describe("files that are not Codex sessions are refused with one line naming the file (and line)", () => {
  test.each([
    ["bad/not-codex.jsonl", 'bad/not-codex.jsonl:1: not a Codex session: the first line is not a "session_meta" record'],
    ["bad/meta-without-id.jsonl", 'bad/meta-without-id.jsonl:1: not a Codex session: its "session_meta" has no string "id"'],
  ])("%s", (file, message) => {
    let error: unknown;
    try {
      load(file);
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error) ? [error.code, error.message] : error).toEqual(["NOT_A_SESSION", message]);
  });

  test.each([
    ["", "the file is empty"],
    ["\n\n", "the file is empty"],
    ["\u0000\u0001garbage", "not valid JSON (a torn or hand-edited line?)"],
    ['{"timestamp":"x","type":"event_msg","payload":{"type":"task_started"}}\n', 'the first line is not a "session_meta" record'],
  ])("%j", (text, why) => {
    expect(() => codex.read(text, "x.jsonl")).toThrow(`x.jsonl${why === "the file is empty" ? "" : ":1"}: not a Codex session: ${why}`);
  });
});

describe("detect: from the first line", () => {
  const real = readFileSync(join(import.meta.dir, "../../../../fixtures/real/codex/rollout.jsonl"), "utf8").split("\n");
  const pi = readFileSync(join(import.meta.dir, "../../../../fixtures/sessions/v3-branches.jsonl"), "utf8").split("\n");
  test.each([
    ["the real rollout", real.slice(0, 3), true],
    ["a hand-made rollout", readFileSync(join(DIR, "shapes.jsonl"), "utf8").split("\n").slice(0, 3), true],
    ["a pi session", pi.slice(0, 3), false],
    ["a Claude Code line", ['{"type":"user","message":{"content":"hi"},"timestamp":"2026-11-30T10:00:00.000Z"}'], false],
    ["a torn first line", ['{"timestamp":"x","type":"session_meta","payl'], false],
    ["session_meta without a payload object", ['{"timestamp":"x","type":"session_meta","payload":"id"}'], false],
    ["blank lines, then a rollout", ["", "  ", real[0] ?? ""], true],
    ["nothing", [], false],
  ])("%s", (_, head, expected) => {
    expect(codex.detect(head)).toBe(expected);
  });
});
