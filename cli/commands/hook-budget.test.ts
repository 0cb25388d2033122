import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { installFakeAgents } from "../../fixtures/fake-agents.ts";
import { FAKE_MODEL, startFakeOpenAI } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

/**
 * A session too long for the hook's time: the offline engine writes the document and the answer
 * says so (core/agent-run/integration/hook-budget.ts). The budget is made small for the test
 * (AGENT_TEST_HOOK_SECONDS); what is asserted is what the engine was sent and what the user reads.
 */

const root = mkdtempSync(join(tmpdir(), "agent-hook-budget-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "5b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
const CWD = join(root, "project");
mkdirSync(CWD);

let homes = 0;
function homeWith(agent: "claude-code" | "pi", words = 0) {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home);
  const path = plantSession({ home, env: {}, tmpdir: tmpdir(), runFolder: CWD }, { agent, id: ID, cwd: CWD, mtime: 1_764_000_000 });
  if (words > 0) appendLongTurn(path, words);
  const log = join(home, "fake-log");
  mkdirSync(log);
  const env = cleanEnv(home, { PATH: `${installFakeAgents(join(home, "bin"))}:/usr/bin:/bin`, FAKE_AGENT_LOG: log });
  return { home, path, env, log };
}

/** A Claude Code user turn of `count` words (about 1.2 tokens each), on the branch's leaf. */
function appendLongTurn(path: string, count: number) {
  const last = JSON.parse(
    readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .findLast((line) => line.includes('"uuid"')) ?? "{}",
  );
  const words = Array.from({ length: count }, (_, i) => `w${i % 997}`).join(" ");
  const entry = {
    parentUuid: last.uuid,
    isSidechain: false,
    type: "user",
    message: { role: "user", content: `Here is the whole log: ${words}` },
    uuid: "9f0e1d2c-3b4a-4596-8877-665544332211",
    timestamp: "2026-11-30T15:00:00.000Z",
    cwd: CWD,
    sessionId: ID,
  };
  appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

function claudeInput(path: string, args: string): Uint8Array {
  const input = { session_id: ID, transcript_path: path, cwd: CWD, hook_event_name: "UserPromptExpansion" };
  return new TextEncoder().encode(JSON.stringify({ ...input, command_name: "handoff", command_args: args, prompt: `/handoff ${args}` }));
}

/** The runs the fake agents logged (each one a start of the engine's agent). */
function runsIn(log: string): { argv: string[] }[] {
  return readdirSync(log)
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(readFileSync(join(log, name), "utf8")));
}

/** The new session's first message: the document. */
function documentOf(file: string): string {
  return JSON.parse(readFileSync(file, "utf8").split("\n")[0] ?? "").message.content as string;
}

/** The session files beside `path` (the source and what the handoff wrote). */
function sessionsBeside(path: string): string[] {
  return readdirSync(dirname(path)).filter((name) => name.endsWith(".jsonl"));
}

const FAKE_DOCUMENT_LINE = "1. Fix it.";
const OFFLINE_FOCUS = 'Focus for this handoff: "finish the parser"';

describe("agent hook: a session too long for the hook's time", () => {
  test("a plan the engine cannot finish in time: the agent is never started, the offline engine writes it, one line says why", async () => {
    // 40 s: the engine's share is 30 s, which ~120,000 tokens at 1,500 a second exceed.
    const { path, env, log } = homeWith("claude-code", 100_000);
    const run = await runAgent(
      ["hook", "claude-code"],
      { ...env, AGENT_TEST_HOOK_SECONDS: "40" },
      REPO,
      claudeInput(path, "finish the parser"),
    );
    expect(run.code).toBe(0);
    const reason: string = JSON.parse(run.stdout).reason;
    const [where = "", next = "", note = "", ...more] = reason.split("\n");
    expect(more).toEqual([]);
    expect(where).toMatch(/^New session [0-9a-f-]{36}: /);
    expect(next).toMatch(/^Type \/resume [0-9a-f-]{36} to continue in it\.$/);
    expect(note).toMatch(
      /^The offline engine wrote the document: this session is too long for claude-code to finish within the hook's time \(1 run, ~[\d,]+ input tokens: ~[\d,]+ s, more than the 30 s it has\)\.$/,
    );
    expect(runsIn(log)).toEqual([]);
    const file = where.replace(/^New session [0-9a-f-]{36}: /, "");
    expect(documentOf(file)).toContain(OFFLINE_FOCUS);
    expect(documentOf(file)).not.toContain(FAKE_DOCUMENT_LINE);
  });

  test("a plan that fits: the agent writes the document, nothing more is said", async () => {
    const { path, env, log } = homeWith("claude-code", 2_000);
    const run = await runAgent(
      ["hook", "claude-code"],
      { ...env, AGENT_TEST_HOOK_SECONDS: "40" },
      REPO,
      claudeInput(path, "finish the parser"),
    );
    const reason: string = JSON.parse(run.stdout).reason;
    expect(reason.split("\n")).toHaveLength(2);
    expect(runsIn(log)).toHaveLength(1);
    expect(documentOf(reason.split("\n")[0]?.replace(/^New session [0-9a-f-]{36}: /, "") ?? "")).toContain(FAKE_DOCUMENT_LINE);
  });

  test("an agent that has not finished within its share: stopped, nothing of it written, the offline engine writes it", async () => {
    const { path, env, log } = homeWith("claude-code");
    const before = sessionsBeside(path);
    const run = await runAgent(
      ["hook", "claude-code"],
      { ...env, AGENT_TEST_HOOK_SECONDS: "8", FAKE_AGENT_MODE: "hang" },
      REPO,
      claudeInput(path, "finish the parser"),
    );
    const reason: string = JSON.parse(run.stdout).reason;
    const [where = "", , note] = reason.split("\n");
    expect(note).toBe(
      "The offline engine wrote the document: claude-code had not finished within the 6 s the hook gives it, and was stopped.",
    );
    // The agent was started once, with the prompt; one new session, the offline engine's.
    const runs = runsIn(log);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.argv).toContain("--no-session-persistence");
    expect(sessionsBeside(path)).toHaveLength(before.length + 1);
    expect(documentOf(where.replace(/^New session [0-9a-f-]{36}: /, ""))).toContain(OFFLINE_FOCUS);
  }, 30_000);

  test("pi: the extension's answer switches to the offline engine's session and its line says so", async () => {
    const { path, env, log } = homeWith("pi");
    const run = await runAgent(
      ["hook", "pi", "--session", path, "--cwd", CWD, "--", "finish the parser"],
      { ...env, AGENT_TEST_HOOK_SECONDS: "8", FAKE_AGENT_MODE: "hang" },
      REPO,
    );
    const answer = JSON.parse(run.stdout) as { switchTo: string; message: string };
    expect(answer.message).toBe(
      `Handed off: this is the new session, opened with the handoff document (${answer.switchTo}). The offline engine wrote the document: pi had not finished within the 6 s the hook gives it, and was stopped.`,
    );
    expect(runsIn(log)).toHaveLength(1);
    expect(readFileSync(answer.switchTo, "utf8")).toContain("finish the parser");
  }, 30_000);

  test("hook-engine llm: a model that has not answered within its share is left, and the offline engine writes it", async () => {
    // A share (9 s) long enough that the model port's silence limit (half the handoff's --timeout, 7 s) plus its
    // backoff ends inside it: a stalled first answer is not tried again when the retry would have no time to finish.
    const server = startFakeOpenAI(() => ({ text: "## Goal\n", hangAfterFirstChunk: true }));
    try {
      const { path, env } = homeWith("claude-code");
      const run = await runAgent(
        ["hook", "claude-code"],
        {
          ...env,
          AGENT_TEST_HOOK_SECONDS: "12",
          AGENT_HOOK_ENGINE: "llm",
          OPENAI_BASE_URL: server.url,
          AGENT_MODEL: FAKE_MODEL,
          OPENAI_API_KEY: "sk-test",
        },
        REPO,
        claudeInput(path, "finish the parser"),
      );
      const [where = "", , note] = (JSON.parse(run.stdout).reason as string).split("\n");
      expect(note).toBe(
        "The offline engine wrote the document: the model had not finished within the 9 s the hook gives it, and was stopped.",
      );
      expect(server.requests.filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(1);
      expect(documentOf(where.replace(/^New session [0-9a-f-]{36}: /, ""))).toContain(OFFLINE_FOCUS);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
