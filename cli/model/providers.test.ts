/**
 * A condensed handoff through every provider profile, end to end: the CLI spawned with an
 * explicit environment against fixtures/fake-providers.ts, where each mode is as strict as the
 * provider it stands for (refusals, error shapes, reasoning in its own field, the output limit
 * spent partly on reasoning). Every run must give a clean document: the canned one, no reasoning
 * text, nothing refused that the profile should have known.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filler } from "../../core/handoff/condense/condense.testing.ts";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { MODES } from "../../fixtures/fake-provider-modes.ts";
import { reasonsFor } from "../../fixtures/fake-provider-shape.ts";
import { REASONING_SPEND, REASONING_TEXT, startFakeProviders, type FakeProviders } from "../../fixtures/fake-providers.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { assistant, call, chain, text, toolResult, user } from "../../fixtures/sessions/builders.ts";

const WINDOW = 12_000;
/** Below what the fake's reasoning models spend thinking: only the room added for reasoning lets them answer. */
const MAX_OUTPUT = 500;

interface Row {
  mode: string;
  /** `--provider`; the fake listens on 127.0.0.1, where the URL names no provider. */
  provider: string;
  model: string;
  /** Reasoning tokens the provider counts in usage (per request). */
  countsReasoning: boolean;
  /** Requests the fake refuses before the adaptive fallbacks learn (endpoints whose rules no profile holds). */
  refusals: number;
  /** What `-v` says the fallbacks changed. */
  notices?: string[];
  /** The provider words a prompt over its window in a way we recognise (not: Ollama cuts silently; Mistral's words are unknown). */
  windowWording: boolean;
}

const ROWS: Row[] = [
  { mode: "openai", provider: "openai", model: "gpt-5-mini", countsReasoning: true, refusals: 0, windowWording: true },
  { mode: "openrouter", provider: "openrouter", model: "openai/gpt-5", countsReasoning: true, refusals: 0, windowWording: true },
  { mode: "anthropic", provider: "anthropic", model: "claude-sonnet-4-5", countsReasoning: false, refusals: 0, windowWording: true },
  { mode: "google", provider: "google", model: "gemini-2.5-flash", countsReasoning: false, refusals: 0, windowWording: true },
  {
    mode: "openrouter",
    provider: "openrouter",
    model: "mistralai/mistral-small-3.2-24b-instruct",
    countsReasoning: true,
    refusals: 1,
    windowWording: true,
    notices: [
      "debug: OpenRouter refused `messages[].role` (",
      "Mistral: Unexpected role 'user' after role 'tool'); putting a short assistant turn between a tool result and a user turn right after it, for the rest of this run",
    ],
  },
  { mode: "deepseek", provider: "deepseek", model: "deepseek-reasoner", countsReasoning: true, refusals: 0, windowWording: true },
  { mode: "deepseek", provider: "deepseek", model: "deepseek-v4-flash", countsReasoning: true, refusals: 0, windowWording: true },
  { mode: "deepseek", provider: "deepseek", model: "deepseek-chat", countsReasoning: true, refusals: 0, windowWording: true },
  { mode: "groq", provider: "groq", model: "openai/gpt-oss-20b", countsReasoning: false, refusals: 0, windowWording: true },
  { mode: "mistral", provider: "mistral", model: "magistral-medium-latest", countsReasoning: false, refusals: 0, windowWording: false },
  { mode: "mistral", provider: "mistral", model: "mistral-small-latest", countsReasoning: false, refusals: 0, windowWording: false },
  { mode: "ollama", provider: "ollama", model: "qwen3:8b", countsReasoning: false, refusals: 0, windowWording: false },
  { mode: "vllm", provider: "vllm", model: "Qwen/Qwen3-8B", countsReasoning: false, refusals: 0, windowWording: true },
  { mode: "llamacpp", provider: "llamacpp", model: "qwen3-8b-q4_k_m", countsReasoning: false, refusals: 0, windowWording: true },
  // The template opened the think block: the answer carries only its end.
  {
    mode: "llamacpp",
    provider: "llamacpp",
    model: "DeepSeek-R1-Distill-Qwen-7B-Q4_K_M",
    countsReasoning: false,
    refusals: 0,
    windowWording: true,
  },
  { mode: "lmstudio", provider: "lmstudio", model: "qwen/qwen3-8b", countsReasoning: false, refusals: 0, windowWording: true },
  {
    mode: "strict",
    provider: "auto",
    model: "qwen3-32b",
    countsReasoning: false,
    refusals: 2,
    windowWording: true,
    notices: [
      "debug: the endpoint refused `max_tokens`",
      "sending the output limit as `max_completion_tokens` instead, for the rest of this run",
      "debug: the endpoint refused `stream_options`",
    ],
  },
  // An OpenAI reasoning model behind an endpoint nobody documented (Azure, LiteLLM): room to think by its family.
  { mode: "strict", provider: "auto", model: "gpt-5-mini", countsReasoning: false, refusals: 2, windowWording: true },
];

function reasonsIn(mode: string, model: string): boolean {
  const found = MODES[mode];
  return found !== undefined && reasonsFor(found, model);
}

let fake: FakeProviders;
let root: string;
let dir: string;
let home: string;
let session: string;

beforeAll(() => {
  fake = startFakeProviders({ window: WINDOW, answer: CANNED_DOCUMENT });
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "agent-providers-"));
  [dir, home] = [join(root, "work"), join(root, "home")];
  for (const folder of [dir, home]) mkdirSync(folder);
  session = join(dir, "source.jsonl");
  writeFileSync(session, largeSession());
  fake.requests.length = 0;
  return () => rmSync(root, { recursive: true, force: true });
});

/** ~20,000 tokens of requests, tool calls and long results: more than the window holds. */
function largeSession(): string {
  const entries = [];
  for (let r = 0; r < 30; r++) {
    if (r % 5 === 0) entries.push(user(r, `REQUEST-${r}: handle case ${r} in src/lib/csv.ts`));
    entries.push(assistant(r, [text(`Checking part ${r}.`), call(`call_${r}`, "read", { path: `src/part-${r}.ts` })], "toolUse"));
    entries.push(toolResult(r, `call_${r}`, "read", filler(2400, `part-${r}`)));
  }
  entries.push(user(30, "LATEST-REQUEST: now make the quoting RFC 4180 compliant"));
  entries.push(assistant(30, [text("On it.")]));
  return chain(entries);
}

async function handoff(row: Row, contextWindow: number, extra: string[] = []) {
  const out = join(dir, `next-${contextWindow}.jsonl`);
  const args = [
    "handoff",
    session,
    "--provider",
    row.provider,
    "-m",
    row.model,
    "--context-window",
    String(contextWindow),
    "--max-output-tokens",
    String(MAX_OUTPUT),
    "--json",
    "--no-record",
    "-o",
    out,
    ...extra,
  ];
  const run = await runAgent(
    args,
    cleanEnv(home, { OPENAI_API_KEY: "sk-test-providers-0123456789", OPENAI_BASE_URL: `${fake.url}/${row.mode}/v1` }),
  );
  return { run, out };
}

describe(`a condensed handoff through each provider, --max-output-tokens ${MAX_OUTPUT}: a clean document`, () => {
  test.each(ROWS)("$mode ($model)", async (row) => {
    const { run, out } = await handoff(row, WINDOW, ["-v"]);
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(run.stdout);
    expect(report.condensed).not.toBeNull();
    expect(report.condensed.requests).toBeGreaterThan(1);
    // The document is the model's answer and nothing else: no reasoning, in any field it came in.
    expect(report.document.startsWith(CANNED_DOCUMENT)).toBe(true);
    expect(run.stdout).not.toContain("REASONING-NOT-FOR-THE-DOCUMENT");
    expect(readFileSync(out, "utf8")).not.toContain("REASONING-NOT-FOR-THE-DOCUMENT");
    expect(REASONING_TEXT).toContain("REASONING-NOT-FOR-THE-DOCUMENT");
    // Nothing the profile should have known was refused; nothing went over the window.
    const outcomes = fake.requests.map((r) => r.outcome);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(row.refusals);
    expect(outcomes.filter((o) => o === "window" || o === "truncated")).toEqual([]);
    expect(report.condensed.requests).toBe(fake.requests.length);
    const answered = outcomes.filter((o) => o === "ok").length;
    const reasons = reasonsIn(row.mode, row.model);
    if (row.countsReasoning && reasons) expect(report.usage.reasoningTokens).toBe(answered * REASONING_SPEND);
    else if (row.countsReasoning) expect(report.usage.reasoningTokens).toBe(0);
    else expect(report.usage.reasoningTokens).toBeUndefined();
    for (const notice of row.notices ?? []) expect(run.stderr).toContain(notice);
  });
});

describe("an endpoint whose window is half what --context-window says: its refusal, in its own words, re-plans the handoff", () => {
  test.each(ROWS.filter((r) => r.windowWording))("$mode", async (row) => {
    const { run } = await handoff(row, WINDOW * 2);
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(run.stdout);
    const refusedForSize = fake.requests.filter((r) => r.outcome === "window").length;
    expect(refusedForSize).toBeGreaterThan(0);
    expect(report.condensed.halvings).toBe(refusedForSize);
    expect(report.document.startsWith(CANNED_DOCUMENT)).toBe(true);
  });
});

describe("the output limit includes reasoning: without room for it, a reasoning model returns nothing", () => {
  test("the fake stops a request whose limit it spends thinking, and the CLI says why", async () => {
    // The undocumented endpoint with a model name nobody can tell reasons: no room is added.
    const strict = ROWS.find((r) => r.mode === "strict");
    if (!strict) throw new Error("no strict row");
    const { run } = await handoff({ ...strict, model: "mystery-model" }, WINDOW);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("the model used its whole output limit and returned no");
    expect(run.stderr).toContain("raise --max-output-tokens");
  });
});

describe("sessions whose turns the strict providers check: a clean document, nothing refused", () => {
  const SESSIONS: [string, () => string][] = [
    [
      "a session that ends on tool results (mid-diagnosis)",
      () => readFileSync(join(import.meta.dir, "../..", "fixtures", "offline", "mid-diagnosis.jsonl"), "utf8"),
    ],
    [
      "a user steering right after a tool result",
      () =>
        chain([
          user(0, "Run the tests please"),
          assistant(1, [call("toolu_01", "bash", { command: "npm test" })], "toolUse"),
          toolResult(2, "toolu_01", "bash", "1 failed"),
          user(3, "Stop, only run the unit tests."),
        ]),
    ],
  ];
  const PROVIDERS: [string, string, string, number][] = [
    ["mistral", "mistral", "mistral-large-latest", 0],
    ["deepseek", "deepseek", "deepseek-v4-pro", 0],
    ["deepseek", "deepseek", "deepseek-reasoner", 0],
    // No profile holds Mistral's rules behind OpenRouter: one refusal teaches them.
    ["openrouter", "openrouter", "mistralai/mistral-large-2411", 1],
  ];
  const cases = SESSIONS.flatMap(([name, content]) =>
    PROVIDERS.map(([mode, provider, model, refusals]) => ({ name, content, mode, provider, model, refusals })),
  );
  test.each(cases)("$name, through $mode ($model)", async ({ content, mode, provider, model, refusals }) => {
    writeFileSync(session, content());
    const args = ["handoff", session, "--provider", provider, "-m", model, "--json", "--no-record", "-o", join(dir, "next.jsonl")];
    const run = await runAgent(
      args,
      cleanEnv(home, { OPENAI_API_KEY: "sk-test-providers-0123456789", OPENAI_BASE_URL: `${fake.url}/${mode}/v1` }),
    );
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(run.stdout).document.startsWith(CANNED_DOCUMENT)).toBe(true);
    expect(fake.requests.filter((r) => r.outcome === "refused")).toHaveLength(refusals);
  });
});

describe("OpenRouter breaks an answer off mid-stream (an error event in a 200): tried again, said on -v", () => {
  test.each([
    [1, 0, "attempt 1 of 2 failed: URL sent an error in its 200 answer: Provider disconnected unexpectedly; retrying in"],
    [2, 1, "Handoff failed: URL sent an error in its 200 answer: Provider disconnected unexpectedly (gave up after 2 attempts)"],
  ])("broken %d time(s), --retries 1: exit %d", async (breaks, code, said) => {
    const breaking = startFakeProviders({ window: 100_000, answer: CANNED_DOCUMENT, openrouterBreaks: breaks });
    try {
      const url = `${breaking.url}/openrouter/v1`;
      const args = [
        "handoff",
        session,
        "--provider",
        "openrouter",
        "-m",
        "openai/gpt-5",
        "--retries",
        "1",
        "-v",
        "--no-record",
        "-o",
        join(dir, "next.jsonl"),
      ];
      const run = await runAgent(args, cleanEnv(home, { OPENAI_API_KEY: "sk-test-providers-0123456789", OPENAI_BASE_URL: url }));
      expect(run.code).toBe(code);
      expect(run.stderr).toContain(said.replace("URL", url));
      expect(breaking.requests.map((r) => r.outcome)).toEqual(breaks === 1 ? ["broken", "ok"] : ["broken", "broken"]);
    } finally {
      await breaking.stop();
    }
  });
});
