import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assistantLine, jsonl, text, toolResult, toolUse, userLine, uuid } from "../../../../fixtures/sessions/claude-code/builders.ts";
import { planHandoffRequests, runHandoff } from "../../../handoff/pipeline.ts";
import type { HandoffInput } from "../../../handoff/pipeline-types.ts";
import { analyzeBranch } from "../../analyze.ts";
import { readClaudeCodeSession } from "./read.ts";

/** A Claude Code session as the pipeline takes it (what `agent handoff` builds from a file). */
function inputFor(content: string | Uint8Array, path: string, overrides: Partial<HandoffInput> = {}): HandoffInput {
  const session = readClaudeCodeSession(content, path);
  return { session, analysis: analyzeBranch(session), sourcePath: path, model: "gpt-4.1-mini", provider: "openai", ...overrides };
}

const deps = () => {
  let n = 0;
  return {
    complete: async () => {
      throw new Error("the offline engine asks no model");
    },
    now: () => new Date("2026-11-30T08:00:00.000Z"),
    newSessionId: () => "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b",
    newEntryId: () => `e${String(++n).padStart(7, "0")}`,
  };
};

describe("a Claude Code session through the handoff pipeline", () => {
  test("the offline engine writes its document from the transcript: the goal from the user's request before the compaction, the summary as progress, the facts from before it", async () => {
    const path = join(import.meta.dir, "../../../../fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl");
    const result = await runHandoff(inputFor(readFileSync(path), path, { engine: "offline" }), deps());
    expect(result.document).toStartWith("## Goal\nFix the typo in src/greet.txt, then check that notes/todo.txt exists.\n");
    expect(result.document).toContain(
      "### Done\n- From the earlier compaction summary:\n  - COMPAT-SUMMARY: fixed the typo in src/greet.txt (wrold -> world); notes/todo.txt does not exist.\n",
    );
    expect(result.document).toContain("- Files modified (1):\n  - `src/greet.txt`");
    expect(result.document).toContain(
      "- Commands run (2; 0 failed):\n  - `ls src && wc -c src/greet.txt` — exit 0\n  - `test -f notes/todo.txt` — exit 1, `notes/todo.txt` is not there (no such file)",
    );
    // The last request is quoted where the offline document's verbatim tail holds it, not twice.
    expect(result.document).toContain("- Last user request: quoted under Last Exchanges");
    expect(result.document.slice(result.document.indexOf("\n## Last Exchanges\n"))).toContain("**User:**\n> Thanks, that is all.");
  });

  const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000c1", cwd: "/home/dev/shop" };
  const u = (n: number) => uuid("3", n);
  const PASSWORD = "hunter2-staging";
  const GITHUB = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";
  const AWS = "AKIAQ3VX7LM2RT5ZW4NB";
  const secrets = jsonl([
    userLine(place, u(1), null, 1, `Deploy with DB_PASSWORD=${PASSWORD}.`),
    assistantLine(place, u(2), u(1), 2, [{ type: "thinking", thinking: `The token is ${GITHUB}.`, signature: "s" }], {
      messageId: "msg_1",
      stop: null,
    }),
    assistantLine(place, u(3), u(2), 2, [toolUse("toolu_1", "Bash", { command: `git push https://${GITHUB}@github.com/me/app` })], {
      messageId: "msg_1",
      stop: "tool_use",
    }),
    userLine(place, u(4), u(3), 3, [toolResult("toolu_1", `pushed; AWS_ACCESS_KEY_ID=${AWS}`, false)], {
      toolUseResult: { stdout: `pushed; AWS_ACCESS_KEY_ID=${AWS}`, stderr: "", interrupted: false },
    }),
    assistantLine(place, u(5), u(4), 4, [text("Deployed.")], { messageId: "msg_2" }),
  ]);

  test("redaction: a secret in a prompt, a command or a tool's output is never sent to the model", () => {
    const planned = planHandoffRequests(inputFor(secrets, "s.jsonl"));
    const sent = JSON.stringify(planned.requests);
    expect([PASSWORD, GITHUB, AWS].filter((secret) => sent.includes(secret))).toEqual([]);
    expect(planned.redacted).toBeGreaterThanOrEqual(3);
  });

  test("condensing: a transcript larger than the model's window is fitted to it", () => {
    const big = jsonl([
      userLine(place, u(1), null, 1, "Read every log."),
      ...Array.from({ length: 40 }, (_, i) => [
        assistantLine(
          place,
          u(10 + 3 * i),
          i === 0 ? u(1) : u(9 + 3 * i),
          2 + i,
          [toolUse(`toolu_${i}`, "Read", { file_path: `/home/dev/shop/logs/${i}.log` })],
          { messageId: `msg_${i}`, stop: "tool_use" },
        ),
        userLine(place, u(11 + 3 * i), u(10 + 3 * i), 2 + i, [toolResult(`toolu_${i}`, `line of log ${i}\n`.repeat(400))]),
        assistantLine(place, u(12 + 3 * i), u(11 + 3 * i), 2 + i, [text(`Log ${i} read.`)], { messageId: `msg_${i}_done` }),
      ]).flat(),
    ]);
    const planned = planHandoffRequests(inputFor(big, "big.jsonl", { contextWindow: 16_000, maxOutputTokens: 2_000 }));
    expect(planned.condensed).not.toBeNull();
    expect(planned.requests.length).toBeGreaterThan(0);
  });
});
