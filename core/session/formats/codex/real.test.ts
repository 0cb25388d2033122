import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../../json.ts";
import { analyzeBranch } from "../../analyze.ts";
import { codex } from "./index.ts";

/**
 * The rollout Codex CLI 0.169.0 itself wrote in `bun run compat` (fixtures/real/codex/): two
 * turns, an automatic compaction, a turn after it. Every number below was counted from the raw
 * file by Python, not by our reader:
 *
 * lines by type, response items by (type, role):
 *   python3 -c 'import json,collections as c;L=[json.loads(l) for l in open("fixtures/real/codex/rollout.jsonl")];R=[l["payload"] for l in L if l["type"]=="response_item"];print(len(L),c.Counter(l["type"] for l in L),c.Counter((p["type"],p.get("role")) for p in R))'
 *   73 {event_msg: 35, response_item: 21, token_usage_record: 9, turn_context: 4, world_state: 2, session_meta: 1, compacted: 1}
 *      {(message, assistant): 6, (function_call): 5, (function_call_output): 5, (message, user): 4, (message, developer): 1}
 *
 * the user's own words (user messages that are not Codex's `<…>` wrappers), by line:
 *   python3 -c 'import json;L=[json.loads(l) for l in open("fixtures/real/codex/rollout.jsonl")];print([(i+1,c["text"]) for i,l in enumerate(L) if l["type"]=="response_item" and l["payload"].get("role")=="user" for c in l["payload"]["content"] if not c["text"].startswith("<")])'
 *   [(8, "Fix the typo …"), (42, "Show me src/greet.txt once more."), (67, "Thanks, that is all.")]
 *
 * commands and the exit code each output states:
 *   python3 -c 'import json,re;L=[json.loads(l) for l in open("fixtures/real/codex/rollout.jsonl")];R=[l["payload"] for l in L if l["type"]=="response_item"];P={p["call_id"]:p for p in R if p["type"]=="function_call_output"};print([(json.loads(p["arguments"])["cmd"],int(re.search(r"exited with code (\d+)",P[p["call_id"]]["output"]).group(1))) for p in R if p["type"]=="function_call"])'
 *   [("ls src && wc -c src/greet.txt", 0), ("cat src/greet.txt", 0), ("sed -i 's/wrold/world/' src/greet.txt", 0), ("test -f notes/todo.txt", 1), ("cat src/greet.txt", 0)]
 *
 * the compaction's replacement_history, and the response items after it:
 *   python3 -c 'import json;L=[json.loads(l) for l in open("fixtures/real/codex/rollout.jsonl")];i=[n for n,l in enumerate(L) if l["type"]=="compacted"][-1];print([(h["role"],h["content"][0]["text"][:20]) for h in L[i]["payload"]["replacement_history"]],[(l["payload"]["type"],l["payload"].get("role")) for l in L[i+1:] if l["type"]=="response_item"])'
 *   [(user, "Fix the typo…"), (developer, "<skills_instructions>"), (user, "<environment_context>"), (user, "Show me…"), (user, the summary)]
 *   [(message, assistant), (message, user), (message, assistant)]
 *   → context: the summary, the 2 user messages it kept, then assistant, user, assistant = 6 messages.
 */
const FILE = join(import.meta.dir, "../../../../fixtures/real/codex/rollout.jsonl");
const session = codex.read(readFileSync(FILE), "fixtures/real/codex/rollout.jsonl");
const analysis = analyzeBranch(session);

test("the real rollout reads without a problem or an unknown type", () => {
  expect([session.problems, session.unknownTypes, session.missingFinalNewline]).toEqual([[], [], false]);
  expect([session.header.agentVersion, session.header.modelProvider, session.header.cwd]).toEqual([
    "0.169.0",
    "fake",
    "/tmp/agent-compat/codex-transcript/project",
  ]);
});

test("its user messages are the user's three prompts and the two the compaction kept; the developer and environment messages are not", () => {
  const users = session.entries.flatMap((e) => {
    const message = isObject(e.data.message) ? e.data.message : undefined;
    const first = message?.role === "user" && Array.isArray(message.content) ? message.content[0] : undefined;
    return isObject(first) && typeof first.text === "string" ? [[e.line, first.text]] : [];
  });
  expect(users).toEqual([
    [8, "Fix the typo in src/greet.txt, then check that notes/todo.txt exists."],
    [42, "Show me src/greet.txt once more."],
    [53, "Fix the typo in src/greet.txt, then check that notes/todo.txt exists."],
    [53, "Show me src/greet.txt once more."],
    [67, "Thanks, that is all."],
  ]);
});

test("its facts: the five commands with the exit codes their outputs state, the model, the last request", () => {
  expect(analysis.facts.commands.map((c) => [c.command, c.exitCode, c.failed])).toEqual([
    ["ls src && wc -c src/greet.txt", 0, false],
    ["cat src/greet.txt", 0, false],
    ["sed -i 's/wrold/world/' src/greet.txt", 0, false],
    ["test -f notes/todo.txt", 1, false], // a test that found nothing: not a failure
    ["cat src/greet.txt", 0, false],
  ]);
  expect([analysis.facts.models, analysis.facts.lastUserRequest]).toEqual([["fake/gpt-5"], "Thanks, that is all."]);
});

test("its context is the compaction's: the summary, the two user messages it kept, then the last exchange", () => {
  expect(analysis.context.map((m) => (m.role === "user" ? `user:${m.kind}` : m.role))).toEqual([
    "user:compactionSummary",
    "user:user",
    "user:user",
    "assistant",
    "user:user",
    "assistant",
  ]);
  const summary = analysis.context[0];
  expect(summary?.content[0]?.type === "text" && summary.content[0].text).toContain(
    "COMPAT-SUMMARY: fixed the typo in src/greet.txt (wrold -> world); notes/todo.txt does not exist.",
  );
});

test("each model turn is one assistant message: its text and its call together", () => {
  const assistants = session.entries.filter((e) => isObject(e.data.message) && e.data.message.role === "assistant");
  // The five calls: 11 (text + call), 17, 23 (text + call), 29, 44; then the answers 35, 50, 60, 70.
  expect(assistants.map((e) => e.line)).toEqual([11, 17, 23, 29, 35, 44, 50, 60, 70]);
});
