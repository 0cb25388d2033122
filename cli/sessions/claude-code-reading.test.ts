/**
 * Claude Code transcripts read as Claude Code itself loads them, seen through `inspect --json`
 * and the offline handoff as a user runs them (findings 1, 6, 7, 16, 17 and 18 of the attack on
 * issue 11). The fixtures are written by fixtures/sessions/claude-code/generate.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { assistantLine, jsonl, toolResult, toolUse, userLine, uuid } from "../../fixtures/sessions/claude-code/builders.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-cc-reading-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = cleanEnv(dir);
const fixture = (name: string) => `fixtures/sessions/claude-code/${name}`;

async function inspect(name: string) {
  const run = await runAgent(["inspect", fixture(name), "--json"], env);
  expect(run.code).toBe(0);
  const report: unknown = JSON.parse(run.stdout);
  if (!isObject(report)) throw new Error("inspect --json printed no object");
  return { report, warnings: run.stderr.split("\n").filter((line) => line.startsWith("warning:")) };
}

async function handoff(source: string, out: string) {
  return runAgent(["handoff", source, "--engine", "offline", "-o", join(dir, out)], env);
}

/** A section of the document: its heading line up to the next heading of the same level. */
function section(document: string, heading: string): string {
  const start = document.indexOf(`${heading}\n`);
  if (start === -1) return "";
  const level = heading.split(" ")[0] ?? "";
  const rest = document.slice(start + heading.length + 1);
  const end = rest.search(new RegExp(`^${level} `, "m"));
  return (end === -1 ? rest : rest.slice(0, end)).trim();
}

describe("Claude Code transcripts, as Claude Code loads them", () => {
  test("parallel tool calls: every result is in the context, the failed one counts as failed", async () => {
    const { report } = await inspect("parallel.jsonl");
    expect(report.contextRoles).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult", "assistant"]);
    expect(report.commands).toEqual([
      { command: "make lint", exitCode: 2, by: "tool", failed: true },
      { command: "make test", exitCode: 0, by: "tool", failed: false },
    ]);
    const run = await handoff(fixture("parallel.jsonl"), "parallel.jsonl");
    expect(run.code).toBe(0);
    expect(section(run.stdout, "## Goal")).toContain("`make lint` failed: `src/cart.ts:1:1 error no-var`");
    expect(run.stdout).toContain("- Commands run (2; 1 failed):");
  });

  test("a session we wrote, continued: its first line is the previous document, read back exactly", async () => {
    const { report } = await inspect("handed-off.jsonl");
    expect(report.contextRoles).toEqual(["custom", "assistant", "user", "assistant"]);
    const run = await handoff(fixture("handed-off.jsonl"), "handed-off.jsonl");
    expect(run.code).toBe(0);
    expect(section(run.stdout, "## Goal")).toBe("Deploy the shop to staging (from the previous handoff document).");
    // The wrapper's escape is undone: the document's own words, not `<\/handoff-context>`.
    expect(section(run.stdout, "## Constraints & Preferences")).toBe(
      "- From the previous handoff document: Never use sudo.\n- From the previous handoff document: Quote the tag `</handoff-context>` literally in the docs.",
    );
    expect(run.stdout).toContain("> Continue: add a health check endpoint.");
    // The session that handoff wrote holds only the document and our answer: nothing to hand off, as pi's and Codex's.
    const again = await handoff(join(dir, "handed-off.jsonl"), "again.jsonl");
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 3, stdout: "" });
    expect(again.stderr).toContain("Nothing to hand off");
  });

  test("a transcript whose conversation continued elsewhere: one warning naming that session; its name is the title", async () => {
    const moved =
      "warning: fixtures/sessions/claude-code/continued.jsonl: line 5: this conversation continued in Claude Code session 5a1b2c3d-0000-4000-8000-0000000000cc; this file holds it only up to then (hand off 5a1b2c3d-0000-4000-8000-0000000000cc.jsonl, in the same project folder, for where it stands now)";
    const { report, warnings } = await inspect("continued.jsonl");
    expect(warnings).toEqual([moved]);
    expect(report.title).toBe("Deploy fix");
    // Named as Claude Code resumes a file (another name adds a warning of its own).
    const run = await handoff(fixture("continued.jsonl"), "5a1b2c3d-0000-4000-8000-0000000000dd.jsonl");
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n").filter((line) => line.startsWith("warning:"))).toEqual([moved]);
  });

  test("an older Claude Code's compaction: its preface is not the goal", async () => {
    const run = await handoff(fixture("compaction-1.0.jsonl"), "compaction-1.0.jsonl");
    expect(run.code).toBe(0);
    expect(section(run.stdout, "## Goal")).toBe(
      "The user wants the login bug in src/login.ts fixed, without touching the production database (from the earlier compaction summary).",
    );
    expect(run.stdout).not.toContain("This session is being continued");
  });

  test("prompts typed while Claude worked: the user's messages, in place; the last one is the last request", async () => {
    const { report } = await inspect("queued.jsonl");
    expect(report.contextRoles).toEqual(["user", "assistant", "toolResult", "user", "assistant", "user"]);
    expect(report.lastUserRequest).toBe("Now rename cart.ts to basket.ts.");
    const run = await handoff(fixture("queued.jsonl"), "queued.jsonl");
    expect(run.code).toBe(0);
    expect(section(run.stdout, "## Constraints & Preferences")).toBe(
      '- The user: "Never change the public API of cart.ts, and use pnpm, not npm."',
    );
    expect(section(run.stdout, "## Goal")).toContain("Rename cart.ts to basket.ts.");
    expect(run.stdout).not.toContain("build finished");
  });

  test("a background run whose description says 'exit code 0', reported failed with 1: exit 1, failed, never passed", async () => {
    const place = { sessionId: "e0000000-0000-4000-8000-0000000000aa", cwd: "/tmp/shop" };
    const description = "npm test should end with exit code 0";
    const notification = `<task-notification>\n<task-id>bash_7</task-id>\n<status>failed</status>\n<summary>Background command "${description}" failed with exit code 1</summary>\n</task-notification>`;
    const started = { stdout: "", stderr: "", interrupted: false, isImage: false, backgroundTaskId: "bash_7" };
    const lines = [
      userLine(place, uuid("e", 1), null, 1, "Run the checks in the background."),
      assistantLine(
        place,
        uuid("e", 2),
        uuid("e", 1),
        2,
        [toolUse("toolu_1", "Bash", { command: "npm test", description, run_in_background: true })],
        {
          messageId: "msg_1",
          stop: "tool_use",
        },
      ),
      userLine(place, uuid("e", 3), uuid("e", 2), 3, [toolResult("toolu_1", "Command running in background with ID: bash_7.")], {
        toolUseResult: started,
      }),
      userLine(place, uuid("e", 4), uuid("e", 3), 4, notification, { isMeta: true }),
    ];
    const path = join(dir, "e0000000-0000-4000-8000-0000000000aa.jsonl");
    writeFileSync(path, jsonl(lines));
    const run = await runAgent(["inspect", path, "--json"], env);
    expect(run.code).toBe(0);
    const report: unknown = JSON.parse(run.stdout);
    expect(isObject(report) ? report.commands : undefined).toEqual([{ command: "npm test", exitCode: 1, by: "tool", failed: true }]);
    const document = await runAgent(["handoff", path, "--engine", "offline", "--dry-run"], env);
    expect(document.code).toBe(0);
    expect(document.stdout).toContain("`npm test` — exit 1, failed");
    expect(document.stdout).not.toContain("(exit 0)");
  });
});
