import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startFakeOpenAI, type FakeServer } from "../fixtures/fake-openai.ts";
import { cliEngine, formatQuality, measureQuality, skipReason } from "./quality.ts";
import { formatScore, scoreDocument, type Fact } from "./quality-score.ts";

const FACTS: Fact[] = [
  { kind: "path", text: "src/api/checkout.ts" },
  { kind: "command", text: "bun test test/checkout.test.ts" },
  { kind: "constraint", text: "Never touch src/payments/stripe.ts, it is shared with the billing service." },
  {
    kind: "request",
    text: "Now make the limit configurable with the RATE_LIMIT_PER_MINUTE environment variable (default 10), and document it in README.md.",
  },
];

describe("scoreDocument: what the model's own sections kept", () => {
  test.each([
    [
      "everything, in the model's words where words are enough",
      "Edit src/api/checkout.ts; run `bun test test/checkout.test.ts`.\nNever touch src/payments/stripe.ts: the billing service shares it.\nNext: make the limit configurable via the RATE_LIMIT_PER_MINUTE environment variable, default 10, documented in README.md.",
      4,
    ],
    ["nothing", "## Goal\nRate limiting.", 0],
    [
      "only what Session Facts lists: not the model's",
      "## Goal\nRate limiting.\n\n## Session Facts\n- src/api/checkout.ts\n- bun test test/checkout.test.ts",
      0,
    ],
    ["a path and a command, the command over several spaces", "see src/api/checkout.ts and run   bun test  test/checkout.test.ts", 2],
    ["a rule with too few of its words", "Don't touch stripe.", 0],
  ])("%s", (_, document, kept) => {
    const score = scoreDocument(document, FACTS);
    expect(score.kept).toHaveLength(kept);
    expect(score.missed).toHaveLength(FACTS.length - kept);
    expect(score.share).toBe(kept / FACTS.length);
  });

  test("a long command is kept by its first 80 characters", () => {
    const command = `git commit -m "${"x".repeat(120)}"`;
    expect(scoreDocument(`ran ${command.slice(0, 85)}…`, [{ kind: "command", text: command }]).share).toBe(1);
  });

  test("no facts: a full score", () => {
    expect(scoreDocument("anything", []).share).toBe(1);
  });

  test("the report line counts by kind and lists the misses", () => {
    const lines = formatScore("planted-facts", scoreDocument("src/api/checkout.ts", FACTS));
    expect(lines[0]).toBe("planted-facts: 1/4 planted facts kept (25%) — paths 1/1, commands 0/1, rules 0/1, last request 0/1");
    expect(lines.slice(1)).toEqual([
      "  - missed command: bun test test/checkout.test.ts",
      `  - missed constraint: ${FACTS[2]?.text}`,
      `  - missed request: ${FACTS[3]?.text.slice(0, 99)}…`,
    ]);
  });
});

describe("bench quality through the CLI, with a fake model", () => {
  let server: FakeServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test("the planted-facts session: the share the fake's document kept", async () => {
    // The fake writes a document naming two of the three paths and one of the two commands.
    server = startFakeOpenAI(() => ({
      text: "## Goal\nRate limit src/api/checkout.ts via src/api/rate-limit.ts.\n\n## Next Steps\n1. Run `git diff --stat`.",
    }));
    const session = join(import.meta.dir, "..", "fixtures", "sessions", "planted-facts.jsonl");
    const engine = cliEngine({ PATH: process.env.PATH, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-bench-quality-0123" });
    const [result] = await measureQuality([session], engine);
    expect(result?.error).toBeUndefined();
    expect(result?.score?.kept.map((f) => f.text)).toEqual(["src/api/checkout.ts", "src/api/rate-limit.ts", "git diff --stat"]);
    expect(result?.score?.missed).toHaveLength(4);
    expect(formatQuality(result ? [result] : [])).toContain("total: 3/7 planted facts kept (43%) over 1 sessions; 0 failed");
  });

  test("a failed handoff is reported, not scored", async () => {
    server = startFakeOpenAI(() => ({ status: 400, error: { message: "model 'nope' does not exist" } }));
    const engine = cliEngine({ PATH: process.env.PATH, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-bench-quality-0123" });
    const results = await measureQuality([join(import.meta.dir, "..", "fixtures", "example.jsonl")], engine);
    expect(formatQuality(results)).toContain("example: HANDOFF FAILED: Handoff failed:");
  });
});

describe("bench quality runs only with an endpoint and a key, never in CI", () => {
  test.each([
    [{}, "skipped; set OPENAI_BASE_URL and OPENAI_API_KEY"],
    [{ OPENAI_API_KEY: "k" }, "skipped; set OPENAI_BASE_URL and OPENAI_API_KEY"],
    [{ OPENAI_BASE_URL: "http://localhost:11434/v1" }, "skipped; set OPENAI_BASE_URL and OPENAI_API_KEY"],
    [{ OPENAI_BASE_URL: "https://api.openai.com/v1", OPENAI_API_KEY: "k", CI: "true" }, "skipped in CI"],
  ])("%o", (env, reason) => {
    expect(skipReason(env)).toContain(reason);
  });

  test("configured, outside CI: it runs", () => {
    expect(skipReason({ OPENAI_BASE_URL: "https://api.openai.com/v1", OPENAI_API_KEY: "k" })).toBeUndefined();
  });
});
