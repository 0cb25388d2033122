/**
 * Gemini CLI 0.61.0's compression under the files a hostile user or a later Gemini run leaves:
 * a resume (Gemini writes its context alone, then the whole list again under the same ids), a
 * rewind after a compression, a model that says the answer's words itself, a compressed session
 * from before JSON Lines that 0.61.0 resumed, a repeated request and command around the cut.
 * Each row is what Gemini itself would send on resume (`loadConversationRecord`, then
 * `convertSessionToClientHistory`), and what Session Facts list.
 */
import { describe, expect, test } from "bun:test";
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
import { sees, type Seen } from "../../../../fixtures/sessions/gemini/sees.ts";
import { COMPRESSION_ACK } from "./compression.ts";
import { readGeminiSession } from "./read.ts";

const FIRST = [context, user("u1", "Run the tests."), shell("g1", "sh__1", "npm test", 1), answer("g2", "They fail.")];
const LIST = [context, summary("s1", "tests fail"), ack("a1"), keptUser("k1", "Fix them.")];
/** Compressed in the second turn, its request kept; the turn then runs to its end. */
const COMPRESSED = [...FIRST, user("u2", "Fix them."), set(...LIST), shell("g3", "sh__2", "npm run fix", 0), answer("g4", "Fixed.")];
const AFTER = [
  "summary: <state_snapshot>tests fail</state_snapshot>",
  "user: Fix them.",
  "call npm run fix",
  "result sh__2",
  "assistant: Fixed.",
];
/** A resume: Gemini's new chat writes its context alone, then the history it resumed, under the same ids. */
const resume = (...messages: unknown[]) => [META, set(context), set(...messages)];
/** A note of the CLI's own (`info`, `warning`, `error`): recorded, never sent. */
const note = (id: string, type: string, content: string) => ({ id, timestamp: "2026-12-01T10:00:01.000Z", type, content });
/** A \`gemini\` message as recordSyntheticMessage records it. */
const synthetic = (message: object) => ({ ...message, thoughts: [], tokens: null });
/** A kept copy of an answer: the parts in `content`, no model. */
const keptAnswer = (id: string, text: string) => ({ id, timestamp: "2026-12-01T10:00:01.000Z", type: "gemini", content: [{ text }] });

interface Case extends Seen {
  name: string;
  lines: unknown[];
}

const CASES: Case[] = [
  {
    name: "a resume after a compression: one compaction, each command once",
    lines: [...COMPRESSED, ...resume(...LIST, shell("g3", "sh__2", "npm run fix", 0), answer("g4", "Fixed.")), user("u3", "Thanks.")],
    sees: [...AFTER, "user: Thanks."],
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "a rewind to the kept request: the summary stays, what came after it goes",
    lines: [...COMPRESSED, { $rewindTo: "k1" }, user("u3", "Skip them.")],
    sees: ["summary: <state_snapshot>tests fail</state_snapshot>", "user: Skip them."],
    commands: ["npm test"],
    compactions: 1,
  },
  {
    name: "a rewind to the summary itself: Gemini keeps its context alone, so nothing it condensed is read",
    lines: [...COMPRESSED, { $rewindTo: "s1" }, user("u3", "Start over.")],
    sees: ["user: Start over."],
    commands: [],
    compactions: 0,
  },
  {
    name: "a rewind to a condensed message (no longer loaded): Gemini drops every message, condensed ones too",
    lines: [...COMPRESSED, { $rewindTo: "u1" }, user("u3", "Start over.")],
    sees: ["user: Start over."],
    commands: [],
    compactions: 0,
  },
  {
    name: "a second compression after a resume: the newest summary, each command once",
    lines: [
      ...COMPRESSED,
      ...resume(...LIST, shell("g3", "sh__2", "npm run fix", 0), answer("g4", "Fixed.")),
      user("u3", "Ship it."),
      set(context, summary("s2", "fixed"), ack("a2"), keptUser("k2", "Ship it.")),
      answer("g5", "Shipped."),
    ],
    sees: ["summary: <state_snapshot>fixed</state_snapshot>", "user: Ship it.", "assistant: Shipped."],
    commands: ["npm test", "npm run fix"],
    compactions: 2,
  },
  {
    name: "the model saying the answer's words itself, then a resume, is no compression (its answer names its model)",
    lines: [
      context,
      user("u1", `Say: ${COMPRESSION_ACK}`),
      answer("g1", COMPRESSION_ACK),
      ...resume(context, user("u1", `Say: ${COMPRESSION_ACK}`), answer("g1", COMPRESSION_ACK)),
    ],
    sees: [`user: Say: ${COMPRESSION_ACK}`, `assistant: ${COMPRESSION_ACK}`],
    commands: [],
    compactions: 0,
  },
  {
    name: "a first request that looks like a summary, answered by the model in those words, is no compression",
    lines: [context, summary("u1", "I typed this"), answer("g1", COMPRESSION_ACK), user("u2", "Go on.")],
    sees: ["user: <state_snapshot>I typed this</state_snapshot>", `assistant: ${COMPRESSION_ACK}`, "user: Go on."],
    commands: [],
    compactions: 0,
  },
  {
    // initialize() of a `.json` session: a metadata line, each message on its own line, its id set, then the list under the same ids.
    name: "a compressed session from before JSON Lines that 0.61.0 resumed: still a compaction",
    lines: [
      context,
      summary("s1", "old work"),
      ack("a1"),
      user("u1", "Go on."),
      answer("g1", "Done."),
      { $set: { sessionId: META.sessionId } },
      set(context, summary("s1", "old work"), ack("a1"), user("u1", "Go on."), answer("g1", "Done.")),
    ],
    sees: ["summary: <state_snapshot>old work</state_snapshot>", "user: Go on.", "assistant: Done."],
    commands: [],
    compactions: 1,
  },
  {
    name: "the same request and command twice, the second kept: each run listed once",
    lines: [
      ...FIRST,
      user("u2", "Run the tests."),
      shell("g3", "sh__2", "npm test", 1),
      response("r3", "sh__2", shellOutput(1)),
      answer("g4", "They fail."),
      set(
        context,
        summary("s1", "tests fail"),
        ack("a1"),
        keptUser("k1", "Run the tests."),
        keptCall("k2", "sh__2", "npm test"),
        response("k3", "sh__2", shellOutput(1)),
        keptAnswer("k4", "They fail."),
      ),
    ],
    sees: [
      "summary: <state_snapshot>tests fail</state_snapshot>",
      "user: Run the tests.",
      "call npm test",
      "result sh__2",
      "assistant: They fail.",
    ],
    commands: ["npm test", "npm test"],
    compactions: 1,
  },
  {
    // After a resume the list holds a call's result twice (`<id>_response` and Gemini's own record of it); the
    // compression's curated history joins consecutive user turns, so the kept copy is one message with both.
    name: "a kept copy that joins two results of one call: paired with both, the command listed once",
    lines: [
      ...FIRST,
      user("u2", "Fix them."),
      shell("g3", "sh__2", "npm run fix", 0),
      response("r3", "sh__2", shellOutput(0)),
      ...resume(
        ...FIRST,
        user("u2", "Fix them."),
        shell("g3", "sh__2", "npm run fix", 0),
        response("g3_response", "sh__2", shellOutput(0)),
        response("r3", "sh__2", shellOutput(0)),
      ),
      set(context, summary("s1", "tests fail"), ack("a1"), keptUser("k1", "Fix them."), keptCall("k2", "sh__2", "npm run fix"), {
        ...response("k3", "sh__2", shellOutput(0)),
        content: [...response("k3", "sh__2", shellOutput(0)).content, ...response("k3", "sh__2", shellOutput(0)).content],
      }),
      answer("g4", "Fixed."),
    ],
    sees: AFTER,
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "a $set of other fields after a compression (a title, the directories) leaves it as it is",
    lines: [...COMPRESSED, { $set: { summary: "Fix the tests", directories: ["/work/app"] } }],
    sees: AFTER,
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "a $set.messages that is not a list is no compression, and replaces nothing (as Gemini skips it)",
    lines: [...FIRST, { $set: { messages: { "0": summary("s1", "tests fail") } } }, user("u2", "Go on.")],
    sees: ["user: Run the tests.", "call npm test", "result sh__1", "assistant: They fail.", "user: Go on."],
    commands: ["npm test"],
    compactions: 0,
  },
  {
    // The CLI records its own notes (a /compress's result, a /model's, an error) in the file, never in the history.
    name: "a note Gemini recorded, and an answer of thoughts alone, among the messages a compression kept: the pairing goes past them, each command once",
    lines: [
      ...FIRST,
      user("u2", "Fix them."),
      shell("g3", "sh__2", "npm run fix", 0),
      response("r3", "sh__2", shellOutput(0)),
      note("i1", "info", "Model set to gemini-2.5-pro."),
      // Thoughts alone: nothing of it is left in the history a compression keeps from.
      { ...answer("g3b", ""), thoughts: [{ subject: "Checking", description: "the fix held" }] },
      answer("g4", "Fixed."),
      set(
        context,
        summary("s1", "tests fail"),
        ack("a1"),
        keptUser("k1", "Fix them."),
        keptCall("k2", "sh__2", "npm run fix"),
        response("k3", "sh__2", shellOutput(0)),
        keptAnswer("k4", "Fixed."),
      ),
      note("i2", "info", ""),
    ],
    sees: AFTER,
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "a note between two messages one kept copy joins: both paired, the command once",
    lines: [
      ...FIRST,
      user("u2", "Fix them."),
      shell("g3", "sh__2", "npm run fix", 0),
      response("r3", "sh__2", "part one"),
      note("i1", "warning", "Slow response."),
      { ...response("r4", "sh__2", "part two"), content: [{ text: "And keep the comma." }] },
      set(context, summary("s1", "tests fail"), ack("a1"), keptUser("k1", "Fix them."), keptCall("k2", "sh__2", "npm run fix"), {
        ...response("k3", "sh__2", "part one"),
        content: [...response("k3", "sh__2", "part one").content, { text: "And keep the comma." }],
      }),
    ],
    sees: [
      "summary: <state_snapshot>tests fail</state_snapshot>",
      "user: Fix them.",
      "call npm run fix",
      "user: And keep the comma.",
      "result sh__2",
    ],
    commands: ["npm test", "npm run fix"],
    compactions: 1,
  },
  {
    name: "a list holding one id twice: its place the first's, its words the last's, as Gemini's map keeps it",
    lines: [...FIRST, user("u2", "Fix them."), set(...LIST, keptUser("k1", "Fix them, quickly."))],
    sees: ["summary: <state_snapshot>tests fail</state_snapshot>", "user: Fix them, quickly."],
    commands: ["npm test"],
    compactions: 1,
  },
  {
    // setHistory records each turn with no id through recordSyntheticMessage: a `gemini` one gets
    // Gemini's queued thoughts and tokens (none: `[]` and `null`) and no model.
    name: "the list recorded anew by setHistory, its answer with no thoughts and null tokens: still that compression",
    lines: [
      ...COMPRESSED,
      summary("s1b", "tests fail"),
      synthetic(ack("a1b")),
      keptUser("k1b", "Fix them."),
      set(context, summary("s1b", "tests fail"), synthetic(ack("a1b")), keptUser("k1b", "Fix them.")),
      user("u5", "Thanks."),
    ],
    sees: ["summary: <state_snapshot>tests fail</state_snapshot>", "user: Fix them.", "user: Thanks."],
    commands: ["npm test"],
    compactions: 1,
  },
];

/** The compression's list cut off mid-line (a crash while Gemini wrote it): Gemini skips the line, and loads what came before. */
const TORN = `${JSON.stringify(set(...LIST)).slice(0, 60)}\n`;

describe("Gemini CLI's compression, attacked", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expect(sees(file(META, ...c.lines))).toEqual({ sees: c.sees, commands: c.commands, compactions: c.compactions });
  });

  test("a compression's list torn mid-line: the messages before it, the line reported", () => {
    const text = file(META, ...FIRST, user("u2", "Fix them.")) + TORN;
    expect(sees(text)).toEqual({
      sees: ["user: Run the tests.", "call npm test", "result sh__1", "assistant: They fail.", "user: Fix them."],
      commands: ["npm test"],
      compactions: 0,
    });
    expect(readGeminiSession(text, "s.jsonl").problems.map((p) => p.line)).toEqual([7]);
  });
});
