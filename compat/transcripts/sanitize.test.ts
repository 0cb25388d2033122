import { describe, expect, test } from "bun:test";
import { sanitizeTranscript } from "./sanitize.ts";

const line = (text: string) => JSON.stringify({ type: "user", message: { role: "user", content: text } });
const contentOf = (jsonl: string): unknown => JSON.parse(jsonl).message.content;
/** Our summary, long enough that a line holding it is read stretch by stretch (shorter strings are kept whole). */
const SUMMARY = `COMPAT-SUMMARY: fixed it ${"y".repeat(300)}.`;
const OURS = [SUMMARY];

describe("the agents' wrappers keep the words the readers know them by, and nothing more", () => {
  test.each([
    [
      "Codex's preamble before a summary",
      `Another language model started to solve this problem and ${"x".repeat(340)}:\n${SUMMARY}`,
      `Another language model started to solve this problem(codex's own text, 347 characters, replaced by bun run compat)\n${SUMMARY}`,
    ],
    [
      "Claude Code's closing paragraph, short enough to keep were it not after a marker",
      `${SUMMARY}\n\nIf you need specific details from before compaction, read /x.jsonl`,
      `${SUMMARY}\n\nIf you need specific details from before compaction(codex's own text, 15 characters, replaced by bun run compat)`,
    ],
    ["a short wrapper of no marker is kept as before", `Summary: ${SUMMARY}`, `Summary: ${SUMMARY}`],
  ])("%s", (_name, text, expected) => {
    expect(contentOf(sanitizeTranscript(line(text), "codex", OURS))).toBe(expected);
  });
});
