import { describe, expect, test } from "bun:test";
import { describeSessionProblems, analyzeBranch } from "../../analyze.ts";
import { codex } from "./index.ts";

const PARENT = "019f6249-055d-76d3-b381-cd9d3eb99189";
/** A rollout whose session_meta carries `fields` after its cwd, as Codex 0.169 orders them. */
function rollout(fields: string): string {
  const meta = `{"timestamp":"2026-11-30T12:00:03.000Z","type":"session_meta","payload":{"id":"019f624a-cc95-7c50-b9fa-1db381270b73","timestamp":"2026-11-30T12:00:03.000Z","cwd":"/home/dev/shop","originator":"codex_cli_rs","cli_version":"0.169.0"${fields},"model_provider":"openai"}}`;
  const user = `{"timestamp":"2026-11-30T12:00:04.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List every webhook handler."}]}}`;
  return `${meta}\n${user}\n`;
}

describe("a thread Codex ran for itself is not a session of the user's: not glanced at as one, and said to be one when read by path", () => {
  test.each<[string, string, string | undefined]>([
    [
      "a spawn_agent subagent (0.169)",
      `,"source":{"subagent":{"thread_spawn":{"parent_thread_id":"${PARENT}","depth":1,"agent_nickname":"Ada"}}},"thread_source":"subagent"`,
      `(subagent: thread_spawn) of session ${PARENT}`,
    ],
    [
      "a subagent said by source only (older versions)",
      `,"source":{"subagent":{"thread_spawn":{"parent_thread_id":"${PARENT}","depth":2}}}`,
      "(subagent: thread_spawn) of session",
    ],
    ["the guardian reviewer", `,"source":{"subagent":{"other":"guardian"}}`, "(subagent: guardian)"],
    ["a /review thread", `,"source":{"subagent":"review"}`, "(subagent: review)"],
    ["a compaction thread", `,"source":{"subagent":"compact"}`, "(subagent: compact)"],
    [
      "memory consolidation (internal)",
      `,"source":{"internal":"memory_consolidation"},"thread_source":"memory_consolidation"`,
      "(internal: memory_consolidation)",
    ],
    ["a subagent said by thread_source only", `,"source":"cli","thread_source":"subagent"`, "(thread_source: subagent)"],
    ["a parent named at the top level", `,"parent_thread_id":"${PARENT}","thread_source":"subagent"`, `of session ${PARENT}`],
    ["an interactive session", `,"source":"cli","thread_source":"user"`, undefined],
    ["a VS Code session", `,"source":"vscode"`, undefined],
    ["a codex exec run (the user's work, though Codex's picker hides it)", `,"source":"exec","thread_source":"user"`, undefined],
    ["a custom source", `,"source":{"custom":"atlas"}`, undefined],
    ["no source at all (older versions)", "", undefined],
    ["an unknown thread_source", `,"thread_source":"something_new"`, undefined],
    ["a key named like one only on the prototype chain", `,"source":{"toString":"x"}`, undefined],
  ])("%s", (_, fields, said) => {
    const text = rollout(fields);
    const head = text.split("\n").filter((line) => line !== "");
    const glance = codex.glance({ head, tail: head, fileName: "rollout-2026-11-30T12-00-03-019f624a-cc95-7c50-b9fa-1db381270b73.jsonl" });
    const session = codex.read(text, "r.jsonl");
    const warnings = describeSessionProblems(session, analyzeBranch(session));
    if (said === undefined) {
      expect(glance?.id).toBe("019f624a-cc95-7c50-b9fa-1db381270b73");
      expect(glance?.agentThread).toBeUndefined();
      expect(warnings).toEqual([]);
    } else {
      // Glanced at as what it is (discovery keeps it apart), never as a session of the user's.
      expect(glance?.agentThread).toStartWith("a thread Codex ran for itself ");
      expect(glance?.agentThread).toContain(said);
      // Given by its path it is read all the same: its conversation, and one line saying what it is.
      expect(analyzeBranch(session).branchMessages).toBe(1);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toStartWith("line 1: a thread Codex ran for itself ");
      expect(warnings[0]).toContain(said);
      expect(warnings[0]).toContain("not a session the user worked in");
    }
  });
});
