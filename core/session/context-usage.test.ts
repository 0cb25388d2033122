import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ContextUsage, ContextUsageReader } from "./context-usage.ts";
import { claudeModelWindow, readClaudeCodeContextUsage } from "./formats/claude-code/context-usage.ts";
import { readCodexContextUsage } from "./formats/codex/context-usage.ts";
import { readPiContextUsage } from "./formats/pi/context-usage.ts";

const REAL = join(import.meta.dir, "../../fixtures/real");

/** A real session's lines, newest first, as the hook reads them. */
function real(file: string): string[] {
  return readFileSync(join(REAL, file), "utf8").split("\n").reverse();
}

const pi = (usage: object, extra: object = {}) =>
  JSON.stringify({ type: "message", id: "a", message: { role: "assistant", model: "gpt-5", usage, ...extra } });
const claude = (usage: object, extra: object = {}, message: object = {}) =>
  JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: { role: "assistant", model: "claude-sonnet-4-5", usage, ...message },
    ...extra,
  });
const codex = (last: object | undefined, window?: number) =>
  JSON.stringify({
    type: "event_msg",
    payload: { type: "token_count", info: last === undefined ? null : { last_token_usage: last, model_context_window: window } },
  });

interface Row {
  name: string;
  read: ContextUsageReader;
  /** Oldest first, as the file holds them. */
  lines: string[];
  want: ContextUsage | undefined;
}

const ROWS: Row[] = [
  // pi and omp
  {
    name: "pi: the real session's last answer",
    read: readPiContextUsage,
    lines: real("pi/session.jsonl").reverse(),
    want: { tokens: 1050, model: "gpt-5" },
  },
  {
    name: "omp: the real session's last answer",
    read: readPiContextUsage,
    lines: real("omp/session.jsonl").reverse(),
    want: { tokens: 1050, model: "gpt-5" },
  },
  {
    name: "pi: totalTokens counts",
    read: readPiContextUsage,
    lines: [pi({ input: 10, output: 5, totalTokens: 180_000 })],
    want: { tokens: 180_000, model: "gpt-5" },
  },
  {
    name: "pi: no totalTokens, the parts summed",
    read: readPiContextUsage,
    lines: [pi({ input: 100, output: 5, cacheRead: 1000, cacheWrite: 20 })],
    want: { tokens: 1125, model: "gpt-5" },
  },
  {
    name: "pi: an aborted answer with no usage passes to the one before",
    read: readPiContextUsage,
    lines: [pi({ totalTokens: 900 }), pi({ input: 0, output: 0, totalTokens: 0 }, { stopReason: "aborted" })],
    want: { tokens: 900, model: "gpt-5" },
  },
  {
    name: "pi: a compaction after the answer: stale",
    read: readPiContextUsage,
    lines: [pi({ totalTokens: 900 }), JSON.stringify({ type: "compaction", summary: "s" })],
    want: undefined,
  },
  {
    name: "pi: a compaction before the newest answer does not matter",
    read: readPiContextUsage,
    lines: [JSON.stringify({ type: "compaction", summary: "s" }), pi({ totalTokens: 900 })],
    want: { tokens: 900, model: "gpt-5" },
  },
  {
    name: "pi: a user message's text that says usage is not an answer",
    read: readPiContextUsage,
    lines: [JSON.stringify({ type: "message", message: { role: "user", content: '"usage"' } })],
    want: undefined,
  },
  {
    name: "pi: a torn last line is skipped",
    read: readPiContextUsage,
    lines: [pi({ totalTokens: 900 }), '{"type":"message","message":{"role":"assistant","usage":{"tot'],
    want: { tokens: 900, model: "gpt-5" },
  },
  { name: "pi: nothing", read: readPiContextUsage, lines: [], want: undefined },
  // Claude Code
  {
    name: "Claude Code: the real transcript's last answer",
    read: readClaudeCodeContextUsage,
    lines: real("claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl").reverse(),
    want: { tokens: 1000, model: "claude-sonnet-4-5", modelWindow: 200_000 },
  },
  {
    name: "Claude Code: input and both cache counts, not the output",
    read: readClaudeCodeContextUsage,
    lines: [claude({ input_tokens: 3, cache_creation_input_tokens: 2000, cache_read_input_tokens: 150_000, output_tokens: 900 })],
    want: { tokens: 152_003, model: "claude-sonnet-4-5", modelWindow: 200_000 },
  },
  {
    name: "Claude Code: a [1m] model has a million",
    read: readClaudeCodeContextUsage,
    lines: [claude({ input_tokens: 10 }, {}, { model: "claude-sonnet-4-5[1m]" })],
    want: { tokens: 10, model: "claude-sonnet-4-5[1m]", modelWindow: 1_000_000 },
  },
  {
    name: "Claude Code: another provider's model has no known window",
    read: readClaudeCodeContextUsage,
    lines: [claude({ input_tokens: 10 }, {}, { model: "glm-4.6" })],
    want: { tokens: 10, model: "glm-4.6" },
  },
  {
    name: "Claude Code: a sidechain's answer is not the session's",
    read: readClaudeCodeContextUsage,
    lines: [claude({ input_tokens: 10 }), claude({ input_tokens: 99 }, { isSidechain: true })],
    want: { tokens: 10, model: "claude-sonnet-4-5", modelWindow: 200_000 },
  },
  {
    name: "Claude Code: its own made-up answer (<synthetic>) is skipped",
    read: readClaudeCodeContextUsage,
    lines: [claude({ input_tokens: 10 }), claude({ input_tokens: 0, output_tokens: 0 }, {}, { model: "<synthetic>" })],
    want: { tokens: 10, model: "claude-sonnet-4-5", modelWindow: 200_000 },
  },
  {
    name: "Claude Code: a compact boundary after the answer: stale",
    read: readClaudeCodeContextUsage,
    lines: [claude({ input_tokens: 10 }), JSON.stringify({ type: "system", subtype: "compact_boundary" })],
    want: undefined,
  },
  // Codex
  {
    name: "Codex: the real rollout's last count (after its compaction)",
    read: readCodexContextUsage,
    lines: real("codex/rollout.jsonl").reverse(),
    want: { tokens: 5050, window: 258_400 },
  },
  {
    name: "Codex: last, not total, usage",
    read: readCodexContextUsage,
    lines: [codex({ total_tokens: 120_000 }, 258_400)],
    want: { tokens: 120_000, window: 258_400 },
  },
  {
    name: "Codex: a count with no info yet passes",
    read: readCodexContextUsage,
    lines: [codex({ total_tokens: 7 }, 1000), codex(undefined)],
    want: { tokens: 7, window: 1000 },
  },
  { name: "Codex: no window recorded", read: readCodexContextUsage, lines: [codex({ total_tokens: 7 })], want: { tokens: 7 } },
  {
    name: "Codex: compacted with no count after: stale",
    read: readCodexContextUsage,
    lines: [codex({ total_tokens: 7 }, 1000), JSON.stringify({ type: "compacted", payload: { message: "m" } })],
    want: undefined,
  },
];

describe("the newest context usage each agent records", () => {
  for (const row of ROWS)
    test(row.name, () => {
      expect(row.read([...row.lines].reverse())).toEqual(row.want);
    });

  test("the reader stops at the newest answer: older lines are never read", () => {
    let read = 0;
    function* lines() {
      read++;
      yield pi({ totalTokens: 5 });
      read++;
      yield "older lines that would throw if read";
    }
    expect(readPiContextUsage(lines())).toEqual({ tokens: 5, model: "gpt-5" });
    expect(read).toBe(1);
  });
});

describe("Claude models' windows", () => {
  for (const [model, window] of [
    ["claude-opus-4-5-20251101", 200_000],
    ["claude-haiku-4-5", 200_000],
    ["claude-sonnet-4-5[1m]", 1_000_000],
    ["gpt-5", undefined],
  ] as const)
    test(`${model}: ${window}`, () => expect(claudeModelWindow(model)).toBe(window));
});
