/**
 * The plan line and `--max-input-tokens`, end to end, for every engine that sends (a model at a
 * fake endpoint on 127.0.0.1, each agent's fake CLI on PATH) and the offline engine, which sends
 * nothing: what stderr says before sending, at each verbosity, and that a refused run sent,
 * started and wrote nothing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { estimateRequestTokens } from "../../../core/handoff/condense/budget.ts";
import { filler } from "../../../core/handoff/condense/condense.testing.ts";
import type { ChatRequest } from "../../../core/index.ts";
import { estimateTextTokens } from "../../../core/session/tokens.ts";
import { CANNED_DOCUMENT, startFakeOpenAI, type FakeServer } from "../../../fixtures/fake-openai.ts";
import { PLAN_LINE, runAgent, type AgentRun } from "../../../fixtures/run-agent.ts";
import { assistant, call, chain, text, toolResult, user } from "../../../fixtures/sessions/builders.ts";
import { EXAMPLE, useAgentSandbox } from "../../agents/agent-engines.testing.ts";

const sandbox = useAgentSandbox();
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A session of ~60,000 tokens: with a 32,000-token window it is condensed into several requests. */
function largeSession(): string {
  const entries = [];
  for (let r = 0; r < 60; r++) {
    if (r % 6 === 0) entries.push(user(r, `REQUEST-${r}: handle case ${r} in src/lib/csv.ts`));
    entries.push(assistant(r, [text(`Checking part ${r}.`), call(`call_${r}`, "read", { path: `src/part-${r}.ts` })], "toolUse"));
    entries.push(toolResult(r, `call_${r}`, "read", filler(4000, `part-${r}`)));
  }
  entries.push(user(60, "LATEST: now make the quoting RFC 4180 compliant"));
  entries.push(assistant(60, [text("On it.")]));
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, chain(entries));
  return path;
}

type Engine = "llm" | "claude-code" | "codex" | "pi" | "omp";
const ENGINES: readonly Engine[] = ["llm", "claude-code", "codex", "pi", "omp"];
const SIZES = {
  small: { source: () => sandbox.source(EXAMPLE), flags: [] as string[] },
  large: { source: largeSession, flags: ["--context-window", "32000"] },
};

/** The engine's environment and a count of what reached it: requests at the endpoint, or runs of the agent's CLI. */
function engineFor(engine: Engine, extra: Record<string, string> = {}) {
  if (engine !== "llm") return { env: sandbox.env(extra), sent: () => sandbox.runs().length, requests: () => [] as ChatRequest[] };
  const s = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
  server = s;
  // A model named: a local endpoint is otherwise asked for it (see the test of that below).
  const env = sandbox.env({ OPENAI_API_KEY: "sk-test-plan-0123456789", OPENAI_BASE_URL: s.url, AGENT_MODEL: "gpt-4.1-mini", ...extra });
  const requests = () => s.requests.map((r) => r.body as ChatRequest);
  return { env, sent: () => s.requests.length + s.modelLists.length, requests };
}

/** The plan line runAgent took out of stderr (fixtures/run-agent.ts), read: how many requests, how many tokens. */
function planIn(run: AgentRun): { requests: number; tokens: number } | undefined {
  const match =
    /^plan: (\d+) (?:requests? to (?:gpt-4\.1-mini|fake-model)|runs? of (?:claude-code|codex|pi|omp)), ~([\d,]+) input tokens(?: \(it adds its own instructions and uses its own model\))?$/.exec(
      run.plan ?? "",
    );
  if (match === null) return undefined;
  // Said once: no second plan line is left in the rest.
  expect(run.stderr).not.toMatch(PLAN_LINE);
  return { requests: Number(match[1]), tokens: Number((match[2] ?? "").replaceAll(",", "")) };
}

/** The files of the work folder: only the source, byte for byte as it was, after a refused run. */
function expectOnlySource(path: string, original: Buffer): void {
  expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  expect(readFileSync(path).equals(original)).toBe(true);
}

describe("the plan line, and --max-input-tokens refusing a larger run before anything is sent", () => {
  for (const engine of ENGINES) {
    for (const [size, { source, flags }] of Object.entries(SIZES)) {
      test(`--engine ${engine}, a ${size} session: planned as sent; one token under the plan sends nothing (exit 2); the plan itself is allowed`, async () => {
        const src = source();
        const original = readFileSync(src);
        const target = engineFor(engine);
        const args = ["handoff", src, "--engine", engine, "--no-record", ...flags];

        const first = await runAgent([...args, "-o", join(sandbox.dir, "first.jsonl")], target.env);
        expect(first.code).toBe(0);
        const plan = planIn(first);
        if (plan === undefined) throw new Error(`no plan line in:\n${first.stderr}`);
        expect(plan.requests).toBe(target.sent());
        if (size === "large") expect(plan.requests).toBeGreaterThan(1);
        // What was sent, by our estimate: the requests at the endpoint, or what each run of the
        // agent was given (its prompt on stdin, its arguments, the files written for it; its folder
        // counted as "."), not the chat request the prompt was made from.
        const sentTokens =
          engine === "llm"
            ? target.requests().reduce((sum, r) => sum + estimateRequestTokens(r), 0)
            : sandbox
                .runs()
                .reduce(
                  (sum, run) =>
                    sum +
                    estimateTextTokens(run.stdin) +
                    estimateTextTokens(run.argv.slice(1).join(" ").replaceAll(run.cwd, ".")) +
                    Object.values(run.scratch).reduce((n, t) => n + estimateTextTokens(t), 0),
                  0,
                );
        // Notes not yet written count at their limit: a condensed run sends no more than planned.
        // (Parts estimated apart round up apart: up to a token each.)
        if (size === "small") expect(Math.abs(sentTokens - plan.tokens)).toBeLessThanOrEqual(engine === "llm" ? 0 : 3);
        else expect(sentTokens).toBeLessThanOrEqual(plan.tokens + 3 * plan.requests);
        const sentBefore = target.sent();
        for (const file of readdirSync(sandbox.dir)) if (file !== "source.jsonl") Bun.spawnSync(["rm", join(sandbox.dir, file)]);

        const refused = await runAgent([...args, "--max-input-tokens", String(plan.tokens - 1)], target.env);
        const who = engine === "llm" ? `to gpt-4.1-mini` : `of ${engine}`;
        const what = `${plan.requests} ${engine === "llm" ? "request" : "run"}${plan.requests === 1 ? "" : "s"} ${who}`;
        expect([refused.code, refused.stdout, refused.stderr]).toEqual([
          2,
          "",
          `error: the handoff would send ~${plan.tokens.toLocaleString("en-US")} input tokens (${what}), more than --max-input-tokens ${plan.tokens - 1} allows; nothing was sent\n`,
        ]);
        expect(target.sent()).toBe(sentBefore);
        expectOnlySource(src, original);

        const allowed = await runAgent(
          [...args, "--max-input-tokens", String(plan.tokens), "-o", join(sandbox.dir, "at.jsonl")],
          target.env,
        );
        expect(allowed.code).toBe(0);
        expect(planIn(allowed)?.tokens).toBe(plan.tokens);
      });
    }
  }
});

describe("the plan line at each verbosity", () => {
  test.each(
    ENGINES.flatMap((engine) => [[engine, "-q", false] as const, [engine, "-v", true] as const, [engine, "--json", true] as const]),
  )("--engine %s %s: the plan line shown: %p", async (engine, flag, shown) => {
    const target = engineFor(engine);
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), "--engine", engine, "--no-record", flag], target.env);
    expect(run.code).toBe(0);
    expect(planIn(run) !== undefined).toBe(shown);
    expect(target.sent()).toBeGreaterThan(0);
  });

  test("the offline engine sends nothing: no plan line, and no limit applies, however low", async () => {
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), "--engine", "offline", "--max-input-tokens", "1"], sandbox.env());
    expect(run.code).toBe(0);
    expect([run.plan, run.stderr]).not.toContain(expect.stringContaining("plan:"));
    expect(run.stderr).toContain("New session started with handoff context");
  });
});

describe("where the limit came from, named in the refusal", () => {
  test.each([
    ["the flag", ["--max-input-tokens", "10"], {}, undefined, "--max-input-tokens 10"],
    ["the environment", [], { AGENT_MAX_INPUT_TOKENS: "10" }, undefined, "AGENT_MAX_INPUT_TOKENS=10"],
    ["the config file", [], {}, 'model = "gpt-4.1-mini"\nmax-input-tokens = 10\n', "max-input-tokens = 10 (<config>:2)"],
    ["the flag over the environment", ["--max-input-tokens", "12"], { AGENT_MAX_INPUT_TOKENS: "10" }, undefined, "--max-input-tokens 12"],
  ])("%s", async (_, flags, extra, config, setBy) => {
    const configHome = join(sandbox.root, "config");
    const configFile = join(configHome, "agent", "config.toml");
    if (config !== undefined) {
      mkdirSync(join(configHome, "agent"), { recursive: true });
      writeFileSync(configFile, config);
    }
    const target = engineFor("llm", { XDG_CONFIG_HOME: configHome, ...extra });
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), ...flags], target.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error: the handoff would send ~[\d,]+ input tokens \(1 request to gpt-4\.1-mini\), more than (.*) allows; nothing was sent\n$/,
    );
    expect(run.stderr).toContain(`more than ${setBy.replace("<config>", configFile)} allows`);
    expect(target.sent()).toBe(0);
  });

  test.each([["0"], ["-5"], ["1.5"], ["many"]])("--max-input-tokens %s is a usage error before anything is read", async (value) => {
    const target = engineFor("llm");
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), `--max-input-tokens=${value}`], target.env);
    expect([run.code, run.stderr]).toEqual([
      2,
      `error: --max-input-tokens takes a whole number of tokens, not ${JSON.stringify(value)} (see agent handoff --help)\n`,
    ]);
    expect(target.sent()).toBe(0);
  });
});

describe("a local endpoint asked for its model", () => {
  test("a run over the limit is refused before the endpoint is contacted at all; within it, the plan names the model it serves", async () => {
    const target = engineFor("llm", { AGENT_MODEL: "" });
    const src = sandbox.source(EXAMPLE);
    const refused = await runAgent(["handoff", src, "--max-input-tokens", "10"], target.env);
    expect([refused.code, target.sent()]).toEqual([2, 0]);
    expect(refused.stderr).toMatch(
      /^error: the handoff would send ~[\d,]+ input tokens \(1 request to the model the endpoint serves\), more than --max-input-tokens 10 allows; nothing was sent\n$/,
    );
    const run = await runAgent(["handoff", src, "--no-record", "--max-input-tokens", "100000"], target.env);
    expect(run.code).toBe(0);
    expect(run.plan).toMatch(/^plan: 1 request to fake-model, ~[\d,]+ input tokens$/);
  });
});

describe("--dry-run and the limit: shown whole, then refused as the real run would be", () => {
  test.each<[Engine]>([["llm"], ["claude-code"]])(
    "--engine %s over the limit: the requests on stdout, the refusal last, exit 2",
    async (engine) => {
      const target = engineFor(engine);
      const src = sandbox.source(EXAMPLE);
      const within = await runAgent(["handoff", src, "--engine", engine, "--dry-run"], target.env);
      expect(within.code).toBe(0);
      const over = await runAgent(["handoff", src, "--engine", engine, "--dry-run", "--max-input-tokens", "10"], target.env);
      expect(over.code).toBe(2);
      expect(over.stdout).toBe(within.stdout);
      const lines = over.stderr.trimEnd().split("\n");
      expect(lines.slice(0, -1).join("\n")).toBe(within.stderr.trimEnd());
      expect(lines.at(-1)).toMatch(
        /^error: the handoff would send ~[\d,]+ input tokens \(1 (?:request to gpt-4\.1-mini|run of claude-code)\), more than --max-input-tokens 10 allows; nothing was sent$/,
      );
      expect(target.sent()).toBe(0);
    },
  );
});

describe("--max-input-tokens covers every request sent, retries included", () => {
  /** A first answer that makes the run send the same request again, and what makes it do so. */
  const FIRST_FAILURES: [string, Record<string, unknown>, string[]][] = [
    ["a 500", { status: 500 }, []],
    ["a 429", { status: 429, headers: { "retry-after-ms": "1" } }, []],
    ["a stream cut before the model finished", { text: "partial", cutBeforeFinish: true }, []],
    [
      "a refused parameter (sent again without it)",
      {
        status: 400,
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model.",
          param: "max_tokens",
          code: "unsupported_parameter",
        },
      },
      ["--max-output-tokens", "500"],
    ],
  ];

  test.each(FIRST_FAILURES)("after %s: a retry past the limit is not sent (exit 1); within it, both count", async (_, first, flags) => {
    const s = startFakeOpenAI((_request, index) => (index <= 1 ? first : { text: CANNED_DOCUMENT }));
    server = s;
    const env = sandbox.env({ OPENAI_API_KEY: "sk-test-plan-0123456789", OPENAI_BASE_URL: s.url, AGENT_MODEL: "gpt-4.1-mini" });
    const src = sandbox.source(EXAMPLE);
    const original = readFileSync(src);
    const args = ["handoff", src, "--no-record", "--retries", "2", ...flags];

    // The plan allows exactly one request: the retry would be a second. (The first request of
    // each run fails: the endpoint sees 0 and 1 fail, 2 answer.)
    const dry = await runAgent([...args, "--dry-run", "--json"], env);
    const planned = (JSON.parse(dry.stdout) as { requests: ChatRequest[] }).requests;
    const tokens = planned.reduce((sum, r) => sum + estimateRequestTokens(r), 0);
    const refused = await runAgent([...args, "--max-input-tokens", String(tokens)], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^Handoff failed: a retry of a request would send ~[\\d,]+ more input tokens, ~[\\d,]+ in all, more than --max-input-tokens ${tokens} allows; it was not sent\\n$`,
      ),
    );
    expect(s.requests).toHaveLength(1);
    expectOnlySource(src, original);

    // Twice the plan: the retry is sent and the run succeeds.
    const allowed = await runAgent([...args, "--max-input-tokens", String(2 * tokens + 100), "-o", join(sandbox.dir, "new.jsonl")], env);
    expect(allowed.code).toBe(0);
    expect(s.requests).toHaveLength(3);
  });
});

describe("--dry-run says the plan line a real run says, with its number", () => {
  test.each<[Engine, string]>([
    ["llm", "small"],
    ["llm", "large"],
    ["claude-code", "small"],
    ["codex", "large"],
  ])("--engine %s, a %s session", async (engine, size) => {
    const { source, flags } = SIZES[size as keyof typeof SIZES];
    const target = engineFor(engine);
    const args = ["handoff", source(), "--engine", engine, "--no-record", ...flags];
    const dry = await runAgent([...args, "--dry-run"], target.env);
    expect(dry.code).toBe(0);
    expect(target.sent()).toBe(0);
    const real = await runAgent([...args, "-o", join(sandbox.dir, "new.jsonl")], target.env);
    expect(real.code).toBe(0);
    expect(planIn(dry)).toEqual(planIn(real));
    expect(dry.plan).toBe(real.plan);
  });
});
