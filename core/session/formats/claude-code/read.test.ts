import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAgentError } from "../../../errors.ts";
import { analyzeBranch } from "../../analyze.ts";
import { messageText } from "../../messages.ts";
import { assistantLine, jsonl, userLine, uuid } from "../../../../fixtures/sessions/claude-code/builders.ts";
import { summaryOf } from "./compaction.ts";
import { readClaudeCodeSession } from "./read.ts";

/** Claude Code's preface to a compaction summary: 1.0.x's (as its transcripts hold it) and 2.1.328's and the withheld one (strings of the pinned binary). */
const PREFACE_1 =
  "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:";
const PREFACE_2 =
  "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.";
const WITHHELD =
  "This session is being continued from a previous conversation that ran out of context. The summary of that conversation is not included here: it was withheld from Remote Control because it may include account memory, and can be read only in the terminal session where it was written. If you need details from the earlier conversation, ask the user.";
const DIR = join(import.meta.dir, "../../../../fixtures/sessions/claude-code");
const load = (name: string) => readClaudeCodeSession(readFileSync(join(DIR, name)), join(DIR, name));

/** What a user would see of a session in `agent inspect`: the shape, the context, the facts. */
function observed(name: string) {
  const session = load(name);
  const analysis = analyzeBranch(session);
  const leaf = session.entries.find((e) => e.id === analysis.branch.leafId);
  return {
    entries: session.entries.length,
    leafLine: leaf?.line,
    problems: session.problems.map((p) => p.line),
    context: analysis.context.map((m) => `${m.role === "user" ? m.kind : m.role}: ${messageText(m).slice(0, 40)}`),
    commands: analysis.facts.commands.map((c) => `${c.command} → ${c.exitCode}${c.failed ? " failed" : ""} (${c.by})`),
    read: analysis.facts.filesRead,
    modified: analysis.facts.filesModified,
    models: analysis.facts.models,
    last: analysis.facts.lastUserRequest,
  };
}

/*
 * Entry counts, checked by an independent count of the fixture lines (run from the repository):
 *   for f in fixtures/sessions/claude-code/*.jsonl; do python3 -c "import json,sys
 *   rows=[]
 *   for l in open(sys.argv[1]):
 *     try: rows.append(json.loads(l))
 *     except ValueError: pass
 *   main=[d for d in rows if d.get('uuid') and not d.get('isSidechain')]
 *   a=[d for d in main if d['type']=='assistant']
 *   print(sys.argv[1], len(main), len(a)-len({d['message']['id'] for d in a}))" $f; done
 * prints, per file, the main-chain lines with a uuid and the assistant lines that continue a
 * message: split 10 and 3, rewind 11 and 0, sidechain 4 and 0, compaction 16 and 0, compaction-pruned
 * 4 and 0, notes 24 and 0, torn 4 and 0. Entries = lines − continuing lines, except in notes: its
 * `!` output line joins its command (−1) and one line holds two tool results and the user's
 * words (+2): 25.
 */
const CASES = [
  {
    name: "split.jsonl",
    why: "one answer streamed over four lines (thinking, text, two parallel tool calls) is one assistant message",
    expected: {
      entries: 7,
      leafLine: 12,
      problems: [],
      context: [
        "user: Why does the build fail?",
        "assistant: Reading the config and building.",
        'toolResult: 1\t{ "strict": true }',
        "toolResult: Exit code 2\nsrc/a.ts(3,1): error TS2304:",
        "assistant: The build fails on an undefined name in ",
      ],
      commands: ["npm run build → 2 failed (tool)"],
      read: ["tsconfig.json"],
      modified: [],
      models: ["anthropic/claude-sonnet-4-5"],
      last: "Why does the build fail?",
    },
  },
  {
    name: "rewind.jsonl",
    why: "after a rewind, the branch is the new one; the abandoned yarn run is in neither context nor facts",
    expected: {
      entries: 11,
      leafLine: 10,
      problems: [],
      context: [
        "user: Add a dependency for dates.",
        "assistant: Which package manager?",
        "user: Use pnpm.",
        "assistant: ",
        "toolResult: + dayjs 1.11.13",
        "assistant: Added dayjs with pnpm.",
      ],
      commands: ["pnpm add dayjs → 0 (tool)"],
      read: [],
      modified: [],
      models: ["anthropic/claude-sonnet-4-5"],
      last: "Use pnpm.",
    },
  },
  {
    name: "sidechain.jsonl",
    why: "a subagent's lines are not the conversation, even when one is the last line of the file",
    expected: {
      entries: 4,
      leafLine: 7,
      problems: [],
      context: [
        "user: Find where the cache is cleared.",
        "assistant: ",
        "toolResult: clearCache() is in src/cache.ts:9.",
        "assistant: It is cleared in src/cache.ts, line 9.",
      ],
      commands: [],
      read: [],
      modified: [],
      models: ["anthropic/claude-sonnet-4-5"],
      last: "Find where the cache is cleared.",
    },
  },
  {
    name: "compaction.jsonl",
    why: "the model sees the summary, the preserved answer and what follows; the facts still see the history before it",
    expected: {
      entries: 16,
      leafLine: 17,
      problems: [],
      context: [
        "compactionSummary: Earlier parts of this conversation were ",
        "assistant: Fixed the multiplication in src/price.ts",
        "user: Now run the linter.",
        "assistant: ",
        "toolResult: All files pass linting.",
        "assistant: Lint is clean.",
      ],
      commands: ["npm test → 1 failed (tool)", "npm run lint → 0 (tool)"],
      read: [],
      modified: ["src/price.ts"],
      models: ["anthropic/claude-sonnet-4-5"],
      last: "Now run the linter.",
    },
  },
  {
    name: "compaction-pruned.jsonl",
    why: "a boundary whose earlier lines are gone from the file is a root: the summary and what follows",
    expected: {
      entries: 4,
      leafLine: 4,
      problems: [],
      context: [
        "compactionSummary: Earlier parts of this conversation were ",
        "user: Continue with the migration.",
        "assistant: Writing migration 0042.",
      ],
      commands: [],
      read: [],
      modified: [],
      models: ["anthropic/claude-sonnet-4-5"],
      last: "Continue with the migration.",
    },
  },
  {
    name: "notes.jsonl",
    why: "Claude Code's own notes are not the user's words; `!` runs are the user's commands; synthetic answers name no model",
    expected: {
      entries: 25,
      leafLine: 26,
      problems: [],
      context: [
        "user: What is wrong in this screenshot?",
        "assistant: The total is off by the tax.",
        "user: /review PR 12",
        "assistant: PR 12 looks fine.",
        "bashExecution: The user ran this shell command themselv",
        "user: Search for TODOs in src.",
        "assistant: ",
        "toolResult: (Bash completed with no output)",
        "assistant: ",
        "toolResult: 1\texport const cart = [];",
        "toolResult: 1\texport const tax = 0.2;",
        "user: Also check the rounding.",
        "assistant: Rounding happens in src/tax.ts.",
        "user: Fix it.",
        "user: Fix the rounding, please.",
        "assistant: No response requested.",
      ],
      commands: ["git status --short → 0 (user)", "grep -rn TODO src → 1 (tool)"],
      read: ["src/cart.ts", "src/tax.ts"],
      modified: [],
      models: ["anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-5"],
      last: "Fix the rounding, please.",
    },
  },
  {
    name: "torn.jsonl",
    why: "a torn line is skipped and named; a torn last line leaves the newest whole line as the leaf",
    expected: {
      entries: 4,
      leafLine: 5,
      problems: [3, 6],
      context: ["user: Rename the module.", "assistant: Renaming.", "user: Also update the imports.", "assistant: Updated the imports."],
      commands: [],
      read: [],
      modified: [],
      models: ["anthropic/claude-sonnet-4-5"],
      last: "Also update the imports.",
    },
  },
  {
    name: "0d1e2f30-4152-4637-8849-5a6b7c8d9e0f.jsonl",
    why: "lines without a uuid (the smallest Claude Code resumes): only the last reaches the model, as in Claude Code",
    expected: {
      entries: 2,
      leafLine: 2,
      problems: [],
      context: ["assistant: On it."],
      commands: [],
      read: [],
      modified: [],
      models: [],
      last: undefined,
    },
  },
];

describe("Claude Code transcripts: each shape, as a user sees it in inspect", () => {
  test.each(CASES)("$name: $why", ({ name, expected }) => {
    expect(observed(name)).toEqual(expected);
  });
});

describe("what the header and the lines say", () => {
  test("the header comes from the lines: session id, the cwd it started in, the newest version, the first timestamp", () => {
    const session = load("split.jsonl");
    expect(session.format).toBe("claude-code");
    expect(session.header).toMatchObject({
      id: "5a1b2c3d-0000-4000-8000-000000000001",
      cwd: "/home/dev/shop",
      agentVersion: "2.1.328",
      timestamp: "2026-11-30T09:00:00.000Z",
    });
  });

  test("a file with no sessionId is named by its file name", () => {
    expect(load("0d1e2f30-4152-4637-8849-5a6b7c8d9e0f.jsonl").header.id).toBe("0d1e2f30-4152-4637-8849-5a6b7c8d9e0f");
  });

  test("torn lines are reported with their numbers and why; the missing final newline is noticed", () => {
    const session = load("torn.jsonl");
    expect(session.problems).toEqual([
      { line: 3, reason: "not valid JSON (a torn or hand-edited line?)" },
      { line: 6, reason: "not valid JSON (a torn or hand-edited line?)" },
    ]);
    expect(session.malformedLines).toEqual([3, 6]);
    expect(session.missingFinalNewline).toBe(true);
  });

  test("a type this reader does not know, in the chain, is kept (the chain stays whole) and named once", () => {
    const session = load("notes.jsonl");
    expect(session.unknownTypes).toEqual(["future-kind"]);
    expect(analyzeBranch(session).branch.danglingParent).toBeUndefined();
  });

  test("a tool-result line with nothing usable in it still holds the chain together", () => {
    const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000d1", cwd: "/home/dev/shop" };
    const text = jsonl([
      userLine(place, uuid("2", 1), null, 1, "Go."),
      userLine(place, uuid("2", 2), uuid("2", 1), 2, [{ type: "tool_result", content: "no id" }]),
      assistantLine(place, uuid("2", 3), uuid("2", 2), 3, [{ type: "text", text: "Done." }], { messageId: "msg_1" }),
    ]);
    const analysis = analyzeBranch(readClaudeCodeSession(text, "x.jsonl"));
    expect(analysis.branch.danglingParent).toBeUndefined();
    expect(analysis.context.map((m) => messageText(m))).toEqual(["Go.", "Done."]);
  });

  // split.jsonl: lines 5, 6, 8 and 9 are one answer (msg_A), line 3 the prompt, 10 and 11 the results.
  test.each([
    ["the answer's first line", "aaaaaaaa-0000-4000-8000-000000000003", "aaaaaaaa-0000-4000-8000-000000000003"],
    ["its second line, joined to it", "aaaaaaaa-0000-4000-8000-000000000004", "aaaaaaaa-0000-4000-8000-000000000003"],
    ["its last line, joined to it", "aaaaaaaa-0000-4000-8000-000000000007", "aaaaaaaa-0000-4000-8000-000000000003"],
    ["a line of its own (the prompt)", "aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000001"],
  ])("--leaf naming %s: the branch ends at the message it is part of", (_, leaf, expected) => {
    const analysis = analyzeBranch(load("split.jsonl"), { leafId: leaf });
    expect(analysis.branch.leafId).toBe(expected);
    expect(analysis.branch.entries.at(-1)?.id).toBe(expected);
  });

  test("--leaf naming a line the file does not hold is still unknown", () => {
    expect(() => analyzeBranch(load("split.jsonl"), { leafId: "aaaaaaaa-0000-4000-8000-00000000ffff" })).toThrow(
      'no entry with id "aaaaaaaa-0000-4000-8000-00000000ffff" in this session',
    );
  });

  test("a child of a middle line of a streamed answer hangs from the one message", () => {
    const session = load("split.jsonl");
    const child = session.entries.find((e) => e.id === "aaaaaaaa-0000-4000-8000-000000000005");
    expect(child?.parentId).toBe("aaaaaaaa-0000-4000-8000-000000000003");
  });

  test.each([
    [
      "Claude Code's opening paragraph and reminders go",
      "This session is being continued from a previous conversation that ran out of context. More.\n\n<system-reminder>\ntools\n</system-reminder>\nThe summary.",
      "The summary.",
    ],
    ["a summary without them stays as it is", "Fixed the parser.\n\nNext: errors.", "Fixed the parser.\n\nNext: errors."],
    ["a reminder in the middle goes", "Part one.\n<system-reminder>x</system-reminder>\nPart two.", "Part one.\nPart two."],
    ["a reminder left open stays", "Part one.\n<system-reminder>never closed", "Part one.\n<system-reminder>never closed"],
    [
      "the opening paragraph goes only at the start",
      "Done.\n\nThis session is being continued from a previous conversation.\n\nMore.",
      "Done.\n\nThis session is being continued from a previous conversation.\n\nMore.",
    ],
    [
      "nothing but the opening paragraph stays whole (nothing else to keep)",
      "This session is being continued from a previous conversation.\n\n",
      "This session is being continued from a previous conversation.\n\n",
    ],
    // Claude Code's preface, however the summary follows it (finding 17 of the attack on issue 11).
    ["2.1.328's preface, a blank line", `${PREFACE_2}\n\nAnalysis: the login bug.`, "Analysis: the login bug."],
    ["1.0's preface, one line break", `${PREFACE_1}\nAnalysis: the login bug.`, "Analysis: the login bug."],
    ["1.0's preface, the summary on the same line", `${PREFACE_1} Analysis: the login bug.`, "Analysis: the login bug."],
    [
      "1.0's preface, Windows line ends",
      `${PREFACE_1}\r\nAnalysis: the login bug.\r\nRule: no prod DB.`,
      "Analysis: the login bug.\r\nRule: no prod DB.",
    ],
    [
      "2.1.328's preface, one line break, then a reminder",
      `${PREFACE_2}\n<system-reminder>\ntools\n</system-reminder>\nAnalysis: the login bug.`,
      "Analysis: the login bug.",
    ],
    [
      "a preface worded otherwise: its line goes",
      "This session is being continued from a previous conversation that ran out of context. Here is what happened:\nAnalysis: the login bug.",
      "Analysis: the login bug.",
    ],
    ["a preface alone on one line with nothing after it stays whole", PREFACE_1, PREFACE_1],
    // The paragraphs Claude Code appends after the summary speak to the model (2.1.328's three; an older one's).
    [
      "2.1.328's closing paragraphs go",
      `${PREFACE_2}\n\nFixed the typo.\n\nIf you need specific details from before compaction (like …), read the full transcript at: /h/.claude/projects/p/s.jsonl\nContinue the conversation from where it left off without asking the user any further questions.\n\nThe messages after this summary are the most recent messages from before compaction, kept verbatim.`,
      "Fixed the typo.",
    ],
    [
      "an older closing line goes",
      `${PREFACE_1}\nFixed the typo.\nPlease continue the conversation from where we left it off without asking the user any further questions.`,
      "Fixed the typo.",
    ],
    [
      "the words inside a summary's own sentence stay",
      `${PREFACE_2}\n\nThe user said: if you need specific details from before compaction, ask.`,
      "The user said: if you need specific details from before compaction, ask.",
    ],
    ["the summary withheld from Remote Control: only Claude Code's words, kept whole", WITHHELD, WITHHELD],
  ])("a compaction's summary: %s", (_why, text, expected) => {
    expect(summaryOf(text)).toBe(expected);
  });

  test("the compaction names the first preserved message and the tokens before it", () => {
    const compaction = load("compaction.jsonl").entries.find((e) => e.type === "compaction");
    expect(compaction?.data).toMatchObject({
      summary: "SUMMARY: src/price.ts fixed; tests were failing.",
      firstKeptEntryId: "dddddddd-0000-4000-8000-000000000006",
      tokensBefore: 48000,
    });
  });

  test("an image the user pasted is carried as an image", () => {
    const context = analyzeBranch(load("notes.jsonl")).context;
    expect(context[0]?.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
  });
});

describe("files that are no Claude Code session", () => {
  const refusal = (text: string, file = "x.jsonl") => {
    try {
      readClaudeCodeSession(text, file);
    } catch (error) {
      if (isAgentError(error)) return `${error.code}: ${error.message}`;
      throw error;
    }
    return "read";
  };

  test.each([
    ["an empty file", "", "NOT_A_SESSION: x.jsonl: not a session: the file is empty"],
    ["blank lines only", "\n\n", "NOT_A_SESSION: x.jsonl: not a session: the file is empty"],
    [
      "JSON of no agent",
      '{"a":1}\n',
      "NOT_A_SESSION: x.jsonl: not a session: no line names a Claude Code session (a sessionId, or a conversation line)",
    ],
    [
      "a subagent's own file",
      readFileSync(join(DIR, "agent-a1.jsonl"), "utf8"),
      "NOT_A_SESSION: x.jsonl: not a session: it is a Claude Code subagent's transcript (every line is isSidechain); hand off the session it belongs to",
    ],
  ])("%s is refused with one line", (_what, text, expected) => {
    expect(refusal(text)).toBe(expected);
  });
});
