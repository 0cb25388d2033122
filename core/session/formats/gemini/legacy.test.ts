/**
 * Gemini CLI's sessions from before JSON Lines (`session-*.json`, one JSON object), read as Gemini
 * CLI 0.61.0 still reads them: recognised, glanced at for listing, read into what it resumes with,
 * and read the same as the `.jsonl` copy Gemini makes of one when it resumes it. The fixture is
 * written by hand from what 0.61.0's loader takes (fixtures/sessions/gemini/); `resumed/` holds
 * what the real 0.61.0 did with it (`gemini -r <id> -p "NEXT by id"` against a loopback fake, its
 * retention cleanup off: the file is from 2025): the `.jsonl` copy it went on in, and the history
 * it sent (its own context text replaced by a placeholder of its length).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type JsonObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { detectFormat } from "../table.ts";
import { glanceGemini } from "./glance.ts";
import { isLegacyHead } from "./legacy.ts";
import { readGeminiSession } from "./read.ts";

const NAME = "session-2025-09-18T02-45-3b44bc68.json";
const TEXT = readFileSync(join(import.meta.dir, "../../../../fixtures/sessions/gemini", NAME), "utf8");
const RECORD = JSON.parse(TEXT) as JsonObject & { messages: JsonObject[] };
const ID = "3b44bc68-1f2e-4d3c-9a8b-7c6d5e4f3a21";
const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");

/** What the session says, turn by turn: `role: text`, `call name`, `result id: text`. */
function said(text: string, file = NAME): string[] {
  return readGeminiSession(text, file).entries.flatMap((entry) => {
    const message = isObject(entry.data.message) ? entry.data.message : {};
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    if (message.role === "toolResult") return [`result ${message.toolCallId}: ${String(blocks[0]?.text).split("\n")[0]}`];
    return blocks.map((b) => (b.type === "toolCall" ? `call ${b.name}` : `${message.role}: ${b.text ?? b.thinking}`));
  });
}

/** The `.jsonl` file Gemini 0.61.0 writes beside a `.json` session it resumes (ChatRecordingService.initialize). */
function resumedCopy(record: JsonObject & { messages: JsonObject[] }): string {
  const { sessionId, projectHash, startTime, lastUpdated, kind, directories, summary } = record;
  const metadata = { sessionId, projectHash, startTime, lastUpdated, kind, directories, summary };
  return [metadata, ...record.messages, { $set: { sessionId } }].map((line) => `${JSON.stringify(line)}\n`).join("");
}

const TURNS = [
  "user: Fix the typo in src/greet.txt, then run the tests.",
  "assistant: **Reading the file** I will read the file first.",
  "call read_file",
  "result read_file-1758163524000-1: Helo, world!",
  "call replace",
  "result replace-1758163530000-2: Successfully modified file: /tmp/agent-compat/gemini-legacy/project/src/greet.txt (1 replacements).",
  "call run_shell_command",
  "result run_shell_command-1758163540000-3: Command: npm test",
  "assistant: I fixed the typo; one test still fails on the comma.",
  "user: Keep the comma and make the test pass.",
];

describe("a Gemini CLI session from before JSON Lines", () => {
  test("is recognised as Gemini CLI's, from its first lines", () => {
    expect(detectFormat(lines(TEXT).slice(0, 20))?.name).toBe("gemini");
  });

  test("is read as Gemini resumes it: its commands, notes and errors left out, calls paired with their results", () => {
    expect(said(TEXT)).toEqual(TURNS);
    const session = readGeminiSession(TEXT, NAME);
    expect([session.header.id, session.header.timestamp, session.title, session.problems]).toEqual([
      ID,
      "2025-09-18T02:45:12.345Z",
      "Fix the greeting typo and the failing test",
      [],
    ]);
    // Each entry names the line its message's id is on.
    expect(lines(TEXT)[(session.entries[0]?.line ?? 0) - 1]).toBe('      "id": "m-0003",');
  });

  test("reads as the .jsonl copy Gemini makes when it resumes it", () => {
    const strip = (text: string, file: string) => readGeminiSession(text, file).entries.map((entry) => ({ ...entry, line: 0 }));
    expect(strip(TEXT, NAME)).toEqual(strip(resumedCopy(RECORD), `${NAME}l`));
  });

  test("Session Facts: the files it read and changed, and the failed command's exit code from the older result shape", () => {
    const { facts } = analyzeBranch(readGeminiSession(TEXT, NAME));
    expect(facts.commands.map((c) => [c.command, c.exitCode, c.failed])).toEqual([["npm test", 1, true]]);
    expect(facts.filesModified).toEqual(["/tmp/agent-compat/gemini-legacy/project/src/greet.txt"]);
  });

  test("listed as Gemini lists it: its id, summary and first request; no folder of its own (its project folder's marker names it)", () => {
    const head = lines(TEXT);
    expect(glanceGemini({ head, tail: head.slice(-5), fileName: NAME })).toEqual({
      id: ID,
      cwd: undefined,
      title: "Fix the greeting typo and the failing test",
      firstRequest: "Fix the typo in src/greet.txt, then run the tests.",
    });
    expect(glanceGemini({ head, tail: head.slice(-5), fileName: NAME, folderOwner: "/work/app" })?.cwd).toBe("/work/app");
  });

  test("a file larger than what is glanced at: its fields from their own lines, the first request from the head", () => {
    const head = lines(TEXT).slice(0, 30);
    expect(glanceGemini({ head, tail: lines(TEXT).slice(-3), fileName: NAME })).toEqual({
      id: ID,
      cwd: undefined,
      title: "Fix the greeting typo and the failing test",
      firstRequest: "Fix the typo in src/greet.txt, then run the tests.",
    });
  });
});

/** The fixture changed: `edit` gets a copy of its record. */
const variant = (edit: (record: JsonObject & { messages: JsonObject[] }) => unknown, pretty = true) => {
  const record = structuredClone(RECORD);
  const changed = edit(record) ?? record;
  return pretty ? JSON.stringify(changed, null, 2) : JSON.stringify(changed);
};

describe("which .json files Gemini takes for sessions, and lists", () => {
  test.each<[string, string, { detected: boolean; listed: boolean; read: string[] | "refused" }]>([
    ["the whole object on one line", variant(() => undefined, false), { detected: true, listed: true, read: TURNS }],
    [
      "on one line, without projectHash (Gemini needs only a sessionId)",
      variant((r) => {
        delete r.projectHash;
      }, false),
      { detected: true, listed: true, read: TURNS },
    ],
    [
      "without projectHash, pretty-printed",
      variant((r) => {
        delete r.projectHash;
      }),
      { detected: true, listed: true, read: TURNS },
    ],
    [
      "a message without an id is still resumed (Gemini keys none)",
      variant((r) => {
        delete r.messages[2]?.id;
      }),
      { detected: true, listed: true, read: TURNS },
    ],
    [
      "nothing to resume: only a command and Gemini's notes",
      variant((r) => {
        r.messages = r.messages.slice(0, 2);
      }),
      { detected: true, listed: false, read: [] },
    ],
    [
      "no messages at all",
      variant((r) => {
        const { messages: _, ...rest } = r;
        return rest;
      }),
      { detected: true, listed: false, read: [] },
    ],
    [
      "a subagent's: not listed",
      variant((r) => {
        r.kind = "subagent";
      }),
      { detected: true, listed: false, read: TURNS },
    ],
    [
      "messages that are not a list: Gemini fails to read it",
      variant((r) => ({ ...r, messages: "none" })),
      // Its first lines look like a session's: reading it says why it is not one.
      { detected: true, listed: false, read: "refused" },
    ],
    [
      "no sessionId: not a session",
      variant((r) => {
        delete r.sessionId;
      }),
      { detected: false, listed: false, read: "refused" },
    ],
    ["a JSON list (a log)", JSON.stringify([{ sessionId: ID }], null, 2), { detected: false, listed: false, read: "refused" }],
    [
      "cut short (a torn write): Gemini cannot parse it either",
      TEXT.slice(0, TEXT.length / 2),
      { detected: true, listed: false, read: "refused" },
    ],
  ])("%s", (_, text, expected) => {
    const head = lines(text);
    expect(isLegacyHead(head.slice(0, 20)) || detectFormat(head.slice(0, 20))?.name === "gemini").toBe(expected.detected);
    expect(glanceGemini({ head, tail: head.slice(-5), fileName: NAME }) !== undefined).toBe(expected.listed);
    if (expected.read === "refused") expect(() => readGeminiSession(text, NAME)).toThrow(`${NAME}:1: not a Gemini CLI session`);
    else expect(said(text)).toEqual(expected.read);
  });
});

const RESUMED = join(import.meta.dir, "../../../../fixtures/sessions/gemini/resumed");
const resumed = (name: string) => readFileSync(join(RESUMED, name), "utf8");

/** One step of a conversation as both sides can say it: who, and what (words, a call, a result). */
type Step = [string, string];

/** What Gemini sent: its own context left out, each result once. */
function sentSteps(contents: JsonObject[]): Step[] {
  const answered = new Set<string>();
  return contents.flatMap((content) =>
    (Array.isArray(content.parts) ? content.parts.filter(isObject) : []).flatMap((part): Step[] => {
      if (typeof part.text === "string") return part.text.startsWith("<session_context>") ? [] : [[String(content.role), part.text]];
      if (isObject(part.functionCall)) return [["call", `${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}`]];
      if (!isObject(part.functionResponse) || !isObject(part.functionResponse.response)) return [];
      const id = String(part.functionResponse.id);
      if (answered.has(id)) return [];
      answered.add(id);
      return [["result", String(part.functionResponse.response.output)]];
    }),
  );
}

/** What we read, as the same steps; thoughts left out (Gemini 0.61.0 sends none of a resumed session's). */
function readSteps(text: string, file: string): Step[] {
  return readGeminiSession(text, file).entries.flatMap((entry): Step[] => {
    const message = isObject(entry.data.message) ? entry.data.message : {};
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    return blocks.flatMap((block): Step[] => {
      if (block.type === "thinking") return [];
      if (block.type === "toolCall") return [["call", `${block.name} ${JSON.stringify(block.arguments)}`]];
      if (message.role === "toolResult") return [["result", String(block.text)]];
      return [[message.role === "assistant" ? "model" : String(message.role), String(block.text)]];
    });
  });
}

describe("what the real Gemini CLI 0.61.0 did with it", () => {
  test("it sent the history we read, then the new prompt", () => {
    expect([...readSteps(TEXT, NAME), ["user", "NEXT by id"]]).toEqual(sentSteps(JSON.parse(resumed("resume-request.json"))));
  });

  test("the .jsonl copy it went on in reads as the .json did, then the new turn", () => {
    const copy = readSteps(resumed(`${NAME}l`), `${NAME}l`);
    expect(copy).toEqual([...readSteps(TEXT, NAME), ["user", "NEXT by id"], ["model", "OK"]]);
    expect(readGeminiSession(resumed(`${NAME}l`), `${NAME}l`).header.id).toBe(ID);
  });
});
