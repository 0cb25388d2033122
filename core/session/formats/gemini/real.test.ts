/**
 * The transcript Gemini CLI 0.61.0 wrote (fixtures/real/gemini/, see its README): read as Gemini
 * rebuilds it, checked against what Gemini itself sent the model when it resumed that session
 * (`resume-request.json`, from the fake's request log): the same turns, calls and results in
 * the same order, each result once.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type JsonObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { detectFormat, FORMATS } from "../table.ts";
import { glanceGemini } from "./glance.ts";
import { readGeminiSession } from "./read.ts";

const DIR = join(import.meta.dir, "../../../../fixtures/real/gemini");
const MAIN = "session-2026-12-03T05-51-ac74b73f.jsonl";
const STUB = "session-2026-12-03T05-52-ac74b73f.jsonl";
const text = (name: string) => readFileSync(join(DIR, name), "utf8");

/** One step of a conversation, as both sides can say it: who, and what (words, a call, a result). */
type Step = [string, string];

/** What Gemini sent: its own context and the new prompt left out, each result once (it sends every result twice after a resume). */
function sentSteps(contents: JsonObject[]): Step[] {
  const steps: Step[] = [];
  const answered = new Set<string>();
  for (const content of contents)
    for (const part of Array.isArray(content.parts) ? content.parts.filter(isObject) : []) {
      if (typeof part.text === "string" && !part.text.startsWith("<session_context>")) steps.push([String(content.role), part.text]);
      if (isObject(part.functionCall)) steps.push(["call", `${part.functionCall.name} ${JSON.stringify(part.functionCall.args)}`]);
      if (isObject(part.functionResponse) && isObject(part.functionResponse.response)) {
        const id = String(part.functionResponse.id);
        if (answered.has(id)) continue;
        answered.add(id);
        steps.push(["result", String(part.functionResponse.response.output)]);
      }
    }
  return steps;
}

function readSteps(name: string): Step[] {
  return readGeminiSession(text(name), name).entries.flatMap((entry): Step[] => {
    const message = isObject(entry.data.message) ? entry.data.message : {};
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    return blocks.map((block): Step => {
      if (block.type === "toolCall") return ["call", `${block.name} ${JSON.stringify(block.arguments)}`];
      if (message.role === "toolResult") return ["result", String(block.text)];
      return [message.role === "assistant" ? "model" : String(message.role), String(block.text)];
    });
  });
}

describe("Gemini CLI 0.61.0's own transcript", () => {
  test("read as Gemini sent it when it resumed: every turn, call and result, in order", () => {
    const sent = sentSteps(JSON.parse(text("resume-request.json")));
    // The last thing sent is the prompt of that run, which the file holds too, with the answer after it.
    const read = readSteps(MAIN);
    expect(read.slice(0, sent.length)).toEqual(sent);
    expect(read.slice(sent.length)).toEqual([["model", "COMPAT-ANSWER-3: nothing else is left to do."]]);
  });

  test("the session's id, its folder (from Gemini's context message) and no line left unread", () => {
    const session = readGeminiSession(text(MAIN), MAIN);
    expect(session.format).toBe("gemini");
    expect(session.header.id).toBe("ac74b73f-fe9c-4a5f-8f51-d324f5e85b50");
    expect(session.header.cwd).toBe("/tmp/agent-compat/gemini-transcript/project");
    expect(session.problems).toEqual([]);
    expect(session.unknownTypes).toEqual([]);
    expect(session.missingFinalNewline).toBe(false);
  });

  test("a failed command's result is as Gemini wrote it (exit code in its text), the call paired with it", () => {
    const session = readGeminiSession(text(MAIN), MAIN);
    const results = session.entries.map((e) => e.data.message).filter((m): m is JsonObject => isObject(m) && m.role === "toolResult");
    expect(results.map((r) => r.toolCallId)).toEqual([
      "run_shell_command__call_000001",
      "read_file__call_000003",
      "replace__call_000005",
      "run_shell_command__call_000007",
      "read_file__call_000010",
    ]);
    expect(JSON.stringify(results[3]?.content)).toContain("Exit Code: 1");
  });

  test("both files are Gemini's, and only Gemini's", () => {
    for (const name of [MAIN, STUB]) {
      const head = text(name)
        .split("\n")
        .filter((l) => l !== "")
        .slice(0, 20);
      expect(detectFormat(head)?.name).toBe("gemini");
      for (const other of FORMATS.filter((f) => f.name !== "gemini")) expect(other.detect(head)).toBe(false);
    }
  });

  test("the file a resume starts beside the session holds nothing to resume: not listed; the one with the content is", () => {
    const lines = (name: string) =>
      text(name)
        .split("\n")
        .filter((l) => l !== "");
    expect(glanceGemini({ head: lines(STUB), tail: lines(STUB), fileName: STUB })).toBeUndefined();
    expect(glanceGemini({ head: lines(MAIN).slice(0, 20), tail: lines(MAIN).slice(-5), fileName: MAIN })).toEqual({
      id: "ac74b73f-fe9c-4a5f-8f51-d324f5e85b50",
      cwd: "/tmp/agent-compat/gemini-transcript/project",
      title: undefined,
      firstRequest: "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.",
    });
  });
});

describe("Session Facts of Gemini's transcript", () => {
  test("its shell commands, the file it changed with `replace` and the one it read", () => {
    const session = readGeminiSession(text(MAIN), MAIN);
    const { facts } = analyzeBranch(session);
    expect(facts.commands.map((c) => c.command)).toEqual(["ls src && wc -c src/greet.txt", "test -f notes/todo.txt"]);
    expect(facts.filesModified).toEqual(["src/greet.txt"]);
  });

  test("each command's exit code is the one Gemini stated: `test -f` exited 1 (an answer, no failure), `ls` 0", () => {
    const { facts } = analyzeBranch(readGeminiSession(text(MAIN), MAIN));
    expect(facts.commands.map(({ command, exitCode, failed }) => ({ command, exitCode, failed }))).toEqual([
      { command: "ls src && wc -c src/greet.txt", exitCode: 0, failed: false },
      { command: "test -f notes/todo.txt", exitCode: 1, failed: false },
    ]);
  });
});
