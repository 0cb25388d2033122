/**
 * Gemini CLI's compression read as a compaction (compression.ts): the shapes 0.61.0 writes
 * (`$set.messages` starting with its context, the summary, its answer, the kept messages under new
 * ids), one table of files, each with what the model sees and what Session Facts list.
 */
import { describe, expect, test } from "bun:test";
import { analyzeBranch } from "../../analyze.ts";
import {
  ack,
  answer,
  context,
  file,
  keptCall,
  keptUser,
  META,
  response,
  set,
  shell,
  shellOutput,
  summary,
  user,
} from "../../../../fixtures/sessions/gemini/builders.ts";
import { sees } from "../../../../fixtures/sessions/gemini/sees.ts";
import { COMPRESSION_ACK } from "./compression.ts";
import { glanceGemini } from "./glance.ts";
import { readGeminiSession } from "./read.ts";

/** The first turn: a request, a command that fails, an answer. */
const FIRST = [context, user("u1", "Run the tests."), shell("g1", "sh__1", "npm test", 1), answer("g2", "They fail.")];
/** The second turn run to its end: a request, a command, its result as a resume writes it again. */
const FIXED = [...FIRST, user("u2", "Fix them."), shell("g3", "sh__2", "npm run fix", 0), response("r3", "sh__2", shellOutput(0))];
/** Compressed in the second turn, its request kept. */
const COMPRESSED = [...FIRST, user("u2", "Fix them."), set(context, summary("s1", "tests fail"), ack("a1"), keptUser("k1", "Fix them."))];

interface Case {
  name: string;
  lines: unknown[];
  /** What the model sees: `summary: …`, `role: text`, `call command`, `result id`. */
  sees: string[];
  commands: string[];
  compactions: number;
}

const CASES: Case[] = [
  {
    name: "a compression mid-turn: the summary, then the kept request and what came after",
    lines: [...COMPRESSED, shell("g3", "sh__2", "npm run fix", 0), answer("g4", "Fixed.")],
    sees: [
      "summary: <state_snapshot>tests fail</state_snapshot>",
      "user: Fix them.",
      "call npm run fix",
      "result sh__2",
      "assistant: Fixed.",
    ],
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "the same list written again by a later resume is the same compression",
    lines: [...COMPRESSED, META, set(context, summary("s1", "tests fail"), ack("a1"), keptUser("k1", "Fix them.")), answer("g4", "Fixed.")],
    sees: ["summary: <state_snapshot>tests fail</state_snapshot>", "user: Fix them.", "assistant: Fixed."],
    commands: ["npm test"],
    compactions: 1,
  },
  {
    name: "a second compression: the newest summary; every command once in Session Facts",
    lines: [
      ...COMPRESSED,
      shell("g3", "sh__2", "npm run fix", 0),
      answer("g4", "Fixed."),
      user("u3", "Ship it."),
      set(context, summary("s2", "fixed"), ack("a2"), keptUser("k2", "Ship it.")),
      answer("g5", "Shipped."),
    ],
    sees: ["summary: <state_snapshot>fixed</state_snapshot>", "user: Ship it.", "assistant: Shipped."],
    commands: ["npm test", "npm run fix"],
    compactions: 2,
  },
  {
    name: "a kept call and result, matched with the messages they copy: read once, after the summary",
    lines: [
      ...FIXED,
      set(
        context,
        summary("s1", "tests fail"),
        ack("a1"),
        keptUser("k1", "Fix them."),
        keptCall("k2", "sh__2", "npm run fix"),
        response("k3", "sh__2", shellOutput(0)),
      ),
      answer("g4", "Fixed."),
    ],
    sees: [
      "summary: <state_snapshot>tests fail</state_snapshot>",
      "user: Fix them.",
      "call npm run fix",
      "result sh__2",
      "assistant: Fixed.",
    ],
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "a kept result Gemini shortened: its call's result still follows the kept call, the command listed once",
    lines: [
      ...FIXED,
      set(
        context,
        summary("s1", "tests fail"),
        ack("a1"),
        keptCall("k2", "sh__2", "npm run fix"),
        response("k3", "sh__2", "Output too long, saved to a file"),
      ),
      answer("g4", "Fixed."),
    ],
    sees: ["summary: <state_snapshot>tests fail</state_snapshot>", "call npm run fix", "result sh__2", "assistant: Fixed."],
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    // Gemini's `setHistory` (it cut long results instead): each message recorded again under a new id, then the list.
    name: "the list written again with every message under a new id is still that compression",
    lines: [
      ...COMPRESSED,
      answer("g4", "Fixed."),
      summary("s1b", "tests fail"),
      ack("a1b"),
      keptUser("k1b", "Fix them."),
      answer("g4b", "Fixed."),
      set(context, summary("s1b", "tests fail"), ack("a1b"), keptUser("k1b", "Fix them."), answer("g4b", "Fixed.")),
      user("u5", "Thanks."),
    ],
    sees: ["summary: <state_snapshot>tests fail</state_snapshot>", "user: Fix them.", "assistant: Fixed.", "user: Thanks."],
    commands: ["npm test"],
    compactions: 1,
  },
  {
    name: "Gemini's answer to a summary elsewhere than after its context is an answer",
    lines: [
      context,
      user("u1", "Say it."),
      answer("g1", COMPRESSION_ACK),
      set(context, user("u1", "Say it."), answer("g1", COMPRESSION_ACK)),
    ],
    sees: ["user: Say it.", `assistant: ${COMPRESSION_ACK}`],
    commands: [],
    compactions: 0,
  },
  {
    // Only Gemini's compression writes that answer with no model; the model's own names its model.
    name: "a list starting with a known question and the model's own answer in those words is no compression",
    lines: [
      context,
      user("u1", "Say it."),
      answer("a1", COMPRESSION_ACK),
      set(context, user("u1", "Say it."), answer("a1", COMPRESSION_ACK)),
    ],
    sees: ["user: Say it.", `assistant: ${COMPRESSION_ACK}`],
    commands: [],
    compactions: 0,
  },
];

describe("Gemini CLI's compression, read as a compaction", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expect(sees(file(META, ...c.lines))).toEqual({
      sees: c.sees,
      commands: c.commands,
      compactions: c.compactions,
    });
  });

  test("a condensed command keeps its exit code, and the kept copy of an answer its model", () => {
    const { facts } = analyzeBranch(readGeminiSession(file(META, ...(CASES[0]?.lines ?? [])), "s.jsonl"));
    expect(
      facts.commands.map(({ command, exitCode, failed }) => ({
        command,
        exitCode,
        failed,
      })),
    ).toEqual([
      { command: "npm test", exitCode: 1, failed: true },
      { command: "npm run fix", exitCode: 0, failed: false },
    ]);
    expect(facts.models).toEqual(["gemini-2.5-flash"]);
  });

  test("a session from before JSON Lines that starts with a compression", () => {
    const legacy = JSON.stringify(
      {
        ...META,
        messages: [context, summary("s1", "old work"), ack("a1"), user("u1", "Go on."), answer("g1", "Done.")],
      },
      null,
      2,
    );
    expect(sees(legacy)).toEqual({
      sees: ["summary: <state_snapshot>old work</state_snapshot>", "user: Go on.", "assistant: Done."],
      commands: [],
      compactions: 1,
    });
  });
});

describe("a compressed session in agent ls", () => {
  test("its first request is the one the compression condensed, not the summary", () => {
    const lines = file(META, ...COMPRESSED)
      .trimEnd()
      .split("\n");
    expect(
      glanceGemini({
        head: lines,
        tail: lines,
        fileName: "session-2026-12-01T10-00-5e551011.jsonl",
      })?.firstRequest,
    ).toBe("Run the tests.");
  });
});
