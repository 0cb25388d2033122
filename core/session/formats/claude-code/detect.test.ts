import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { splitLines } from "../../lines.ts";
import { detectClaudeCode } from "./detect.ts";

const FIXTURES = join(import.meta.dir, "../../../../fixtures");
/** The first 20 non-blank lines, as the format table hands them to `detect`. */
const head = (text: string) => [...splitLines(text)].slice(0, 20).map((line) => line.text);
const headOf = (path: string) => head(readFileSync(join(FIXTURES, path), "utf8"));

const CLAUDE_CODE = [
  "real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
  ...readdirSync(join(FIXTURES, "sessions/claude-code"))
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => `sessions/claude-code/${name}`),
];
const OTHERS = [
  "real/pi/session.jsonl",
  "real/omp/session.jsonl",
  "real/codex/rollout.jsonl",
  "example.jsonl",
  "sessions/v1.jsonl",
  "sessions/v2.jsonl",
  "sessions/v3-branches.jsonl",
  "sessions/omp.jsonl",
];

describe("detect: a Claude Code transcript by its first lines", () => {
  test.each(CLAUDE_CODE)("%s is Claude Code's", (path) => {
    expect(detectClaudeCode(headOf(path))).toBe(true);
  });

  test.each(OTHERS)("%s is not", (path) => {
    expect(detectClaudeCode(headOf(path))).toBe(false);
  });

  test.each([
    [
      "twenty bookkeeping lines, then the conversation",
      `${'{"type":"queue-operation","operation":"enqueue","sessionId":"s1","timestamp":"2026-11-30T09:00:00.000Z"}\n'.repeat(20)}`,
      true,
    ],
    [
      "a torn first line, then a conversation line",
      '{"parentUuid":null,"type":"us\n{"type":"user","message":{"content":"hi"},"timestamp":"2026-11-30T09:00:00.000Z"}\n',
      true,
    ],
    ["JSON of no agent", '{"type":"user","content":"hi"}\n{"a":1}\n', false],
    ["a file that starts with a pi header", '{"type":"session","version":3,"id":"x"}\n{"type":"user","message":{"content":"hi"}}\n', false],
    ["not JSON", "hello\nworld\n", false],
    ["nothing", "", false],
  ])("%s: %p", (_what, text, expected) => {
    expect(detectClaudeCode(head(text))).toBe(expected);
  });
});
