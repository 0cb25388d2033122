/**
 * Gemini CLI's compression as the real 0.61.0 wrote it (fixtures/real/gemini/, recorded by
 * `bun run compat`) and as generate.ts writes it (fixtures/sessions/gemini/): read as what Gemini
 * sent on the next resume, and through the handoff pipeline (the offline engine).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPRESSED_SUMMARY } from "../../../../fixtures/sessions/gemini/generate.ts";
import { runHandoff } from "../../../handoff/pipeline.ts";
import { isObject, type JsonObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import type { AssistantBlock, UserBlock } from "../../messages.ts";
import { COMPRESSION_ACK } from "./compression.ts";
import { readGeminiSession } from "./read.ts";

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
