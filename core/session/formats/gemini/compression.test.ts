/**
 * Gemini CLI's compression read as a compaction (compression.ts): the shapes 0.61.0 writes
 * (`$set.messages` starting with its context, the summary, its answer, the kept messages under new
 * ids), one table of files, each with what the model sees and what Session Facts list.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type JsonObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import type { AssistantBlock, UserBlock } from "../../messages.ts";
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
import { COMPRESSED_SUMMARY } from "../../../../fixtures/sessions/gemini/generate.ts";
import { runHandoff } from "../../../handoff/pipeline.ts";
import { COMPRESSION_ACK } from "./compression.ts";
import { glanceGemini } from "./glance.ts";
import { readGeminiSession } from "./read.ts";

/** The first turn: a request, a command that fails, an answer. */
const FIRST = [context, user("u1", "Run the tests."), shell("g1", "sh__1", "npm test", 1), answer("g2", "They fail.")];
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
      ...FIRST,
      user("u2", "Fix them."),
      shell("g3", "sh__2", "npm run fix", 0),
      response("r3", "sh__2", shellOutput(0)),
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
      ...FIRST,
      user("u2", "Fix them."),
      shell("g3", "sh__2", "npm run fix", 0),
      response("r3", "sh__2", shellOutput(0)),
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
    name: "a list starting with a question and that answer, the question already known, is no compression",
    lines: [context, user("u1", "Say it."), set(context, user("u1", "Say it."), ack("a1"))],
    sees: ["user: Say it.", `assistant: ${COMPRESSION_ACK}`],
    commands: [],
    compactions: 0,
  },
];

function sees(text: string): { sees: string[]; commands: string[]; compactions: number } {
  const session = readGeminiSession(text, "s.jsonl");
  const { context: messages, facts } = analyzeBranch(session);
  return {
    sees: messages.flatMap((message): string[] => {
      if (message.role === "user" && message.kind === "compactionSummary") {
        const block = message.content[0];
        return [
          `summary: ${
            block?.type === "text"
              ? block.text
                  .split("\n")
                  .filter((l) => l.startsWith("<state_snapshot>"))
                  .join("")
              : ""
          }`,
        ];
      }
      if (message.role === "toolResult") return [`result ${message.toolCallId}`];
      return [...message.content].flatMap((block: AssistantBlock | UserBlock) =>
        block.type === "toolCall" && isObject(block.arguments)
          ? [`call ${block.arguments.command}`]
          : block.type === "text"
            ? [`${message.role}: ${block.text}`]
            : [],
      );
    }),
    commands: facts.commands.map((c) => c.command),
    compactions: session.entries.filter((e) => e.type === "compaction").length,
  };
}

describe("Gemini CLI's compression, read as a compaction", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expect(sees(file(META, ...c.lines))).toEqual({ sees: c.sees, commands: c.commands, compactions: c.compactions });
  });

  test("a condensed command keeps its exit code, and the kept copy of an answer its model", () => {
    const { facts } = analyzeBranch(readGeminiSession(file(META, ...(CASES[0]?.lines ?? [])), "s.jsonl"));
    expect(facts.commands.map(({ command, exitCode, failed }) => ({ command, exitCode, failed }))).toEqual([
      { command: "npm test", exitCode: 1, failed: true },
      { command: "npm run fix", exitCode: 0, failed: false },
    ]);
    expect(facts.models).toEqual(["gemini-2.5-flash"]);
  });

  test("a session from before JSON Lines that starts with a compression", () => {
    const legacy = JSON.stringify(
      { ...META, messages: [context, summary("s1", "old work"), ack("a1"), user("u1", "Go on."), answer("g1", "Done.")] },
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

const REAL = join(import.meta.dir, "../../../../fixtures/real/gemini");
const COMPRESSED_FILE = "session-2026-12-03T12-55-665aa780.jsonl";

describe("Gemini CLI 0.61.0's own compression (fixtures/real/gemini/, bun run compat)", () => {
  test("the model sees the summary Gemini sent, then the same turns, calls and results it sent after its answer to it", () => {
    const sent: JsonObject[] = JSON.parse(readFileSync(join(REAL, "compressed-resume-request.json"), "utf8"));
    const ackAt = sent.findIndex((c) => JSON.stringify(c.parts) === JSON.stringify([{ text: COMPRESSION_ACK }]));
    expect(ackAt).toBe(1);
    const steps = (contents: JsonObject[]) =>
      contents.flatMap((c) =>
        (Array.isArray(c.parts) ? c.parts.filter(isObject) : []).map((p) =>
          isObject(p.functionCall) ? `call ${p.functionCall.name}` : isObject(p.functionResponse) ? "result" : `${c.role}: ${p.text}`,
        ),
      );
    const session = readGeminiSession(readFileSync(join(REAL, COMPRESSED_FILE), "utf8"), COMPRESSED_FILE);
    const { context: messages, facts } = analyzeBranch(session);
    const [first, ...rest] = messages;
    const summaryText = (sent[0]?.parts as JsonObject[] | undefined)?.at(-1)?.text;
    expect(first?.role === "user" && first.kind === "compactionSummary" && JSON.stringify(first.content)).toContain(
      JSON.stringify(summaryText).slice(1, -1),
    );
    const ours = rest.flatMap((m): string[] =>
      m.role === "toolResult"
        ? ["result"]
        : [...m.content].flatMap((b: AssistantBlock | UserBlock) =>
            b.type === "toolCall"
              ? [`call ${b.name}`]
              : b.type === "text"
                ? [`${m.role === "assistant" ? "model" : m.role}: ${b.text}`]
                : [],
          ),
    );
    // The last thing sent is that run's prompt; the file holds its answer after it.
    const after = steps(sent.slice(ackAt + 1));
    expect(ours.slice(0, after.length)).toEqual(after);
    expect(ours.slice(after.length)).toEqual(["model: Nothing more to do."]);
    // Session Facts still see the turn the compression condensed.
    expect(facts.commands.map((c) => `${c.command} ${c.exitCode}`)).toEqual([
      "ls src && wc -c src/greet.txt 0",
      "test -f notes/todo.txt 1",
    ]);
    expect(facts.filesModified).toEqual(["src/greet.txt"]);
    expect(session.problems).toEqual([]);
  });
});

describe("a compressed session in agent ls", () => {
  test("its first request is the one the compression condensed, not the summary", () => {
    const lines = file(META, ...COMPRESSED)
      .trimEnd()
      .split("\n");
    expect(glanceGemini({ head: lines, tail: lines, fileName: "session-2026-12-01T10-00-5e551011.jsonl" })?.firstRequest).toBe(
      "Run the tests.",
    );
  });
});

describe("a session Gemini compressed, through the handoff pipeline", () => {
  const deps = () => {
    let n = 0;
    return {
      complete: async () => {
        throw new Error("the offline engine asks no model");
      },
      now: () => new Date("2026-12-03T08:00:00.000Z"),
      newSessionId: () => "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b",
      newEntryId: () => `e${String(++n).padStart(7, "0")}`,
    };
  };
  const offline = (path: string) => {
    const session = readGeminiSession(readFileSync(path, "utf8"), path);
    return runHandoff(
      { session, analysis: analyzeBranch(session), sourcePath: path, model: "gpt-4.1-mini", provider: "openai", engine: "offline" },
      deps(),
    );
  };

  test.each([
    {
      name: "fixtures/sessions/gemini/ (generate.ts)",
      path: join(import.meta.dir, "../../../../fixtures/sessions/gemini/session-2026-12-01T10-00-5e551011.jsonl"),
      goal: "Make the tests pass.",
      summary: `<state_snapshot>${COMPRESSED_SUMMARY}</state_snapshot>`,
      modified: "src/sum.ts",
      commands: "- Commands run (2; 1 failed):\n  - `npm test` — exit 1",
      last: "Thanks, that is all.",
    },
    {
      name: "the real Gemini CLI 0.61.0's (fixtures/real/gemini/)",
      path: join(REAL, COMPRESSED_FILE),
      goal: "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.",
      summary: "COMPAT-SUMMARY: fixed the typo in src/greet.txt (wrold -> world); notes/todo.txt does not exist.",
      modified: "src/greet.txt",
      commands: "- Commands run (2; 0 failed):\n  - `ls src && wc -c src/greet.txt` — exit 0\n  - `test -f notes/todo.txt` — exit 1",
      last: "Thanks, that is all.",
    },
  ])("$name: the goal from the request before the compression, its summary as done, the facts from before it", async (c) => {
    const { document } = await offline(c.path);
    expect(document).toStartWith(`## Goal\n${c.goal}\n`);
    expect(document).toContain(`### Done\n- From the earlier compaction summary:\n  - ${c.summary}\n`);
    expect(document).toContain(`- Files modified (1):\n  - \`${c.modified}\``);
    expect(document).toContain(c.commands);
    expect(document.slice(document.indexOf("\n## Last Exchanges\n"))).toContain(`**User:**\n> ${c.last}`);
  });
});
