/**
 * The transcript script answers a compaction with the summary and everything else in turn. Which
 * request is a compaction is read off the words the agent added last, in the shapes the four
 * agents send (seen in the fake's request log of `bun run compat`).
 */
import { describe, expect, test } from "bun:test";
import type { LoggedRequest } from "../fake/server.ts";
import { FIRST_PROMPT, isCompaction, SECOND_PROMPT, SUMMARY_TEXT, transcriptScript, turnReplies } from "./script.ts";

const reminder = (text: string) => ({ type: "text", text: `<system-reminder>\n${text}\n</system-reminder>` });
const SKILLS = "The following skills are available for use with the Skill tool:\n- summarize: Summarize a document when asked to.";

function request(body: unknown): LoggedRequest {
  return { method: "POST", path: "/v1/messages", wire: "anthropic", body };
}

const CASES: [string, unknown, boolean][] = [
  // Claude Code 2.1.328's first request: its reminders (one lists skills that "summarize") before the prompt, in one message.
  [
    "Claude Code's first prompt, after its reminders",
    {
      messages: [
        { role: "user", content: [reminder(SKILLS), reminder("Today's date is 2026-11-30."), { type: "text", text: FIRST_PROMPT }] },
      ],
    },
    false,
  ],
  [
    "Claude Code's turn after /compact: its command notes before the prompt",
    {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>" },
            { type: "text", text: SECOND_PROMPT },
          ],
        },
      ],
    },
    false,
  ],
  [
    "Claude Code's tool result (a reminder inside it)",
    {
      messages: [
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: `ok\n<system-reminder>${SKILLS}</system-reminder>` }],
        },
      ],
    },
    false,
  ],
  [
    "Claude Code's /compact: its request for a summary after the last tool result",
    {
      messages: [
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "ok" },
            { type: "text", text: "Respond with TEXT ONLY. Your task is to create a detailed summary of the conversation so far." },
          ],
        },
      ],
    },
    true,
  ],
  [
    "a prompt that ends in a reminder naming summaries",
    { messages: [{ role: "user", content: [{ type: "text", text: FIRST_PROMPT }, reminder(SKILLS)] }] },
    false,
  ],
  [
    "pi's and omp's compaction: one message, the conversation then the request",
    {
      messages: [
        { role: "user", content: `<conversation>\n${FIRST_PROMPT}\n</conversation>\n\nCreate a structured context checkpoint summary.` },
      ],
    },
    true,
  ],
  [
    "a Chat Completions prompt",
    {
      messages: [
        { role: "system", content: "You summarize nothing." },
        { role: "user", content: FIRST_PROMPT },
      ],
    },
    false,
  ],
  [
    "Codex's compaction: the last input item",
    {
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: FIRST_PROMPT }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "You are performing a CONTEXT CHECKPOINT COMPACTION." }] },
      ],
    },
    true,
  ],
  [
    "Codex's prompt after its environment context",
    {
      input: [
        {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "<environment_context>compacted history</environment_context>" }],
        },
        { type: "message", role: "user", content: [{ type: "input_text", text: SECOND_PROMPT }] },
      ],
    },
    false,
  ],
  ["no user message", { messages: [{ role: "assistant", content: "A summary." }] }, false],
  [
    "Gemini CLI's compression: a state snapshot asked for last",
    {
      contents: [
        { role: "user", parts: [{ text: FIRST_PROMPT }] },
        {
          role: "user",
          parts: [{ text: "Generate a new <state_snapshot> based on the provided history.\n\nFirst, reason in your scratchpad." }],
        },
      ],
    },
    true,
  ],
  [
    "Gemini CLI's check of its snapshot",
    { contents: [{ role: "user", parts: [{ text: "Critically evaluate the <state_snapshot> you just generated." }] }] },
    true,
  ],
  [
    "Gemini CLI's prompt",
    { contents: [{ role: "user", parts: [{ text: "<session_context>x</session_context>" }, { text: SECOND_PROMPT }] }] },
    false,
  ],
];

describe("which request is a compaction", () => {
  test.each(CASES)("%s", (_, body, expected) => {
    expect(isCompaction(request(body))).toBe(expected);
  });
});

test("the script: the first prompt gets the first scripted reply however Claude Code wraps it, a compaction the summary", () => {
  const replies = turnReplies({
    bash: (command) => ({ name: "Bash", arguments: { command } }),
    read: (path) => ({ name: "Read", arguments: { file_path: path } }),
    edit: (path) => ({ name: "Edit", arguments: { file_path: path } }),
  });
  const script = transcriptScript(replies, () => 1000);
  const tools = [{ name: "Bash" }];
  const first = request({ tools, messages: [{ role: "user", content: [reminder(SKILLS), { type: "text", text: FIRST_PROMPT }] }] });
  const compaction = request({
    tools,
    messages: [
      { role: "user", content: [{ type: "text", text: "Your task is to create a detailed summary of the conversation so far." }] },
    ],
  });
  expect(script(first, 0)).toMatchObject({ text: "Looking around first.", toolCalls: [{ name: "Bash" }] });
  expect(script(compaction, 1).text).toBe(SUMMARY_TEXT);
  expect(script(first, 2).toolCalls).toEqual([{ name: "Read", arguments: { file_path: "src/greet.txt" } }]);
});
