import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { messageText } from "../../messages.ts";
import { contentText } from "./blocks.ts";
import { readClaudeCodeSession } from "./read.ts";

/** Recorded by `bun run compat --regenerate` from Claude Code 2.1.328 (fixtures/real/README.md). */
const FILE = join(import.meta.dir, "../../../../fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl");
const TEXT = readFileSync(FILE, "utf8");
const session = readClaudeCodeSession(readFileSync(FILE), FILE);
const analysis = analyzeBranch(session);

/**
 * What Claude Code itself sent in its last request, from the `api-request-blob` lines it logged
 * for it (the blobs between the last `api-request-shape` and `api-request`): each message's
 * words, Claude Code's own wrappers (system reminders, command notes; the compat suite cut the
 * prose inside them) left out, messages of one role in a row joined.
 */
function lastRequestSent(): { role: string; words: string[] }[] {
  const rows = TEXT.trimEnd()
    .split("\n")
    .map((line): unknown => JSON.parse(line));
  const shape = rows.findLastIndex((row) => isObject(row) && row.type === "api-request-shape");
  const sent: { role: string; words: string[] }[] = [];
  for (const row of rows.slice(shape + 1)) {
    if (!isObject(row) || row.type !== "api-request-blob" || !isObject(row.message)) continue;
    const { role, content } = row.message;
    if (typeof role !== "string" || role === "system") continue;
    const parts = typeof content === "string" ? [content] : Array.isArray(content) ? content.map((block) => contentText([block])) : [];
    const words = parts.filter(
      (part) => part !== "" && !/^\s*<(system-reminder|local-command-|command-)|<\/(system-reminder|command-args)>\s*$/.test(part),
    );
    const last = sent.at(-1);
    if (last?.role === role) last.words.push(...words);
    else sent.push({ role, words });
  }
  return sent.filter((message) => message.words.length > 0);
}

describe("the real Claude Code 2.1.328 transcript (two turns, /compact, a turn after it)", () => {
  test("the header: its session id, cwd and version", () => {
    expect(session.header).toMatchObject({
      id: "7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7",
      cwd: "/tmp/agent-compat/claude-code-transcript/project",
      agentVersion: "2.1.328",
    });
    expect(session.problems).toEqual([]);
  });

  test("entries: every main-chain line with a uuid, the lines that continue an answer joined to it", () => {
    // python3 -c "import json; L=[json.loads(l) for l in open('fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl')]; a=[d for d in L if d.get('type')=='assistant']; print(sum('uuid' in d for d in L), len(a), len({d['message']['id'] for d in a}))"
    // prints `52 10 8`: 52 lines with a uuid, 10 assistant lines in 8 answers, so 52 − 2 = 50 entries.
    expect(session.entries).toHaveLength(50);
    expect(
      session.entries.filter((e) => e.type === "message" && isObject(e.data.message) && e.data.message.role === "assistant"),
    ).toHaveLength(8);
  });

  test("the context is what Claude Code sent in its last request (its own log of it), then its answer", () => {
    const sent = lastRequestSent();
    // Claude Code's log: the summary, the answer the compaction preserved, the user's next words.
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const ours = analysis.context.map((m) => ({ role: m.role === "user" ? m.kind : m.role, text: messageText(m) }));
    expect(ours.map((m) => m.role)).toEqual(["compactionSummary", "assistant", "user", "assistant"]);
    expect(ours[0]?.text).toContain("COMPAT-SUMMARY: fixed the typo in src/greet.txt (wrold -> world); notes/todo.txt does not exist.");
    expect(sent[0]?.words.join("\n")).toContain(
      "COMPAT-SUMMARY: fixed the typo in src/greet.txt (wrold -> world); notes/todo.txt does not exist.",
    );
    expect(ours[1]?.text).toBe(sent[1]?.words.join("\n") ?? "");
    expect(ours[2]?.text).toBe(sent[2]?.words.join("\n") ?? "");
    expect(ours[2]?.text).toBe("Thanks, that is all.");
  });

  test("Session Facts: the history before the compaction counts; `test -f` exited 1 without failing", () => {
    // python3 -c "import json; [print(b['name'], b['input'].get('command') or b['input'].get('file_path')) for l in open('fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl') for d in [json.loads(l)] if d.get('type')=='assistant' for b in d['message']['content'] if b['type']=='tool_use']"
    // prints Bash `ls src && wc -c src/greet.txt`, Read and Edit of src/greet.txt, Bash `test -f notes/todo.txt`,
    // and the second turn's Read of src/greet.txt;
    // the last result's toolUseResult says "returnCodeInterpretation": "Condition is false" (exit 1).
    expect(analysis.facts).toEqual({
      cwd: "/tmp/agent-compat/claude-code-transcript/project",
      filesRead: ["src/greet.txt"],
      filesModified: ["src/greet.txt"],
      filesDeleted: [],
      commands: [
        { command: "ls src && wc -c src/greet.txt", exitCode: 0, by: "tool", failed: false },
        { command: "test -f notes/todo.txt", exitCode: 1, by: "tool", failed: false },
      ],
      models: ["anthropic/claude-sonnet-4-5"],
      lastUserRequest: "Thanks, that is all.",
    });
  });
});
