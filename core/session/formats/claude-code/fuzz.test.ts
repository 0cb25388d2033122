import { describe, expect, test } from "bun:test";
import {
  CORE_TYPES,
  createMutators,
  createRng,
  decode,
  hashText,
  joinLines,
  linesOf,
  loadSeeds,
  paths,
  setAt,
  tryParse,
  type Rng,
} from "../../../../fixtures/mutate.ts";
import { isAgentError } from "../../../errors.ts";
import { createSecretsGuard } from "../../../secrets/secrets-guard.ts";
import { buildRequest } from "../../../llm/request.ts";
import { analyzeBranch, describeSessionProblems } from "../../analyze.ts";
import { buildInspectReport, renderInspectReport } from "../../inspect-report.ts";
import { readClaudeCodeSession } from "./read.ts";
import { renderClaudeCodeSession } from "./write.ts";

/** Fields as they are, cut as the CLI cuts (the CLI also withholds and escapes). */
const showAsIs = (text: string, max?: number) => (max !== undefined && text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The session fuzz (core/session/fuzz.test.ts) for Claude Code's reader: broken variants of the
 * Claude Code fixtures go through everything `agent inspect` and `agent handoff` do in-process,
 * and into a new Claude Code session read back. Each must load or be refused with an
 * AgentError; nothing else may come out. `FUZZ_SEED=<n>` replays a run, `FUZZ_SCALE=10` runs more.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const ALL = loadSeeds();
const SEEDS = ALL.filter((seed) => seed.name.includes("claude-code/"));
// Splicing mutators take lines from every fixture: a pi line inside a Claude Code file is a case too.
const MUTATORS = createMutators(ALL);

interface Outcome {
  loaded: number;
  refused: number;
  failures: string[];
}

function exercise(input: Uint8Array | string, label: string, outcome: Outcome, rng: Rng): void {
  const text = typeof input === "string" ? input : decode(input);
  let session: ReturnType<typeof readClaudeCodeSession>;
  try {
    session = readClaudeCodeSession(text, "fuzz.jsonl");
  } catch (error) {
    if (isAgentError(error)) outcome.refused++;
    else
      outcome.failures.push(
        `${label}: the reader threw ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error)}`,
      );
    return;
  }
  outcome.loaded++;
  try {
    const analysis = analyzeBranch(session);
    renderInspectReport(
      buildInspectReport("fuzz.jsonl", session, analysis, describeSessionProblems(session, analysis)),
      session.version,
      showAsIs,
    );
    const guard = createSecretsGuard({ context: analysis.context, redact: true });
    JSON.stringify(
      guard.request(buildRequest({ model: "m", systemPrompt: "s", context: guard.outgoing().context, instruction: "hand off" })),
    );
    const leaf = session.entries.length > 0 ? rng.pick(session.entries) : undefined;
    if (leaf) analyzeBranch(session, { leafId: leaf.id });
    let n = 0;
    const file = renderClaudeCodeSession({
      wrappedDocument: `doc ${session.header.id}`,
      acknowledgement: "ok",
      sessionId: "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b",
      newEntryId: () => String(++n).padStart(8, "0"),
      timestamp: new Date(0),
      utcOffsetMinutes: 0,
      cwd: session.header.cwd,
      parentSession: undefined,
      model: { pi: undefined, omp: undefined },
      source: { format: "claude-code", agentVersion: session.header.agentVersion, modelProvider: undefined },
    });
    const back = analyzeBranch(readClaudeCodeSession(file.content, file.fileName)).context.map((m) => m.role);
    if (back.join() !== "user,assistant") outcome.failures.push(`${label}: the new session reads back as ${back.join()}`);
  } catch (error) {
    outcome.failures.push(
      `${label}: after loading, ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error)}`,
    );
  }
}

describe("fuzzing the Claude Code reader", () => {
  test("has the Claude Code fixtures and the real transcript to mutate", () => {
    expect(SEEDS.map((s) => s.name)).toContain("real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl");
    expect(SEEDS.length).toBeGreaterThanOrEqual(8);
  });

  const perMutator = Math.ceil((2_000 * SCALE) / Object.keys(MUTATORS).length);
  test.each(Object.keys(MUTATORS))(
    `%s: ${perMutator} cases load or are refused with an AgentError`,
    (name) => {
      const mutate = MUTATORS[name];
      if (!mutate) throw new Error(`no mutator ${name}`);
      const rng = createRng(SEED ^ hashText(name));
      const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
      for (let i = 0; i < perMutator; i++) {
        const seed = SEEDS[i % SEEDS.length];
        if (seed) exercise(mutate(rng, seed), `${name} #${i} of ${seed.name} (FUZZ_SEED=${SEED})`, outcome, rng);
      }
      expect(outcome.failures.slice(0, 10)).toEqual([]);
      expect(outcome.loaded).toBeGreaterThan(0);
    },
    60_000,
  );

  test("every field of every line of the hand-made fixtures, swapped to every other JSON type", () => {
    const rng = createRng(SEED);
    const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
    for (const seed of SEEDS.filter((s) => ["split", "compaction", "notes"].some((name) => s.name.endsWith(`claude-code/${name}.jsonl`)))) {
      const lines = linesOf(seed.bytes);
      lines.forEach((line, index) => {
        for (const path of paths(tryParse(line))) {
          for (const replacement of CORE_TYPES) {
            const copy = tryParse(line);
            setAt(copy, path, replacement);
            const mutated = lines.slice();
            mutated[index] = JSON.stringify(copy);
            exercise(joinLines(mutated), `${seed.name}:${index + 1} ${path.join(".")} = ${JSON.stringify(replacement)}`, outcome, rng);
          }
        }
      });
    }
    expect(outcome.failures.slice(0, 10)).toEqual([]);
    expect(outcome.loaded).toBeGreaterThan(1000);
  }, 60_000);
});

describe("hostile Claude Code shapes the mutators do not reach", () => {
  const base = '"isSidechain":false,"sessionId":"s","cwd":"/x","version":"2.1.328","timestamp":"2026-11-30T09:00:00.000Z"';
  const user = (uuid: string, parent: string | null, content: string) =>
    `{"parentUuid":${JSON.stringify(parent)},${base},"type":"user","message":{"role":"user","content":${content}},"uuid":"${uuid}"}`;
  const answer = (uuid: string, parent: string | null, id: string, block: string) =>
    `{"parentUuid":${JSON.stringify(parent)},${base},"type":"assistant","message":{"id":"${id}","role":"assistant","model":"claude-sonnet-4-5","content":[${block}]},"uuid":"${uuid}"}`;
  const attachment = (uuid: string, parent: string | null) =>
    `{"parentUuid":${JSON.stringify(parent)},${base},"type":"attachment","attachment":{"type":"date"},"uuid":"${uuid}"}`;
  const many = (count: number, line: (i: number) => string) => Array.from({ length: count }, (_, i) => line(i)).join("\n");

  const cases: [name: string, text: () => string][] = [
    [
      "one answer streamed over 100,000 lines",
      () =>
        `${user("u", null, '"go"')}\n${many(100_000, (i) => answer(`a${i}`, i === 0 ? "u" : `a${i - 1}`, "msg_1", '{"type":"text","text":"x"}'))}\n`,
    ],
    [
      "100,000 attachments between a prompt and its answer",
      () =>
        `${user("u", null, '"go"')}\n${many(100_000, (i) => attachment(`t${i}`, i === 0 ? "u" : `t${i - 1}`))}\n${answer("a", "t99999", "msg_1", '{"type":"text","text":"x"}')}\n`,
    ],
    [
      "1,000,000 bookkeeping lines",
      () => `${user("u", null, '"go"')}\n${'{"type":"queue-operation","operation":"enqueue","sessionId":"s"}\n'.repeat(1_000_000)}`,
    ],
    [
      "two answers that are each other's parent",
      () => `${answer("a", "b", "msg_1", '{"type":"text","text":"x"}')}\n${answer("b", "a", "msg_1", '{"type":"text","text":"y"}')}\n`,
    ],
    ["an answer that is its own parent", () => `${answer("a", "a", "msg_1", '{"type":"text","text":"x"}')}\n`],
    [
      "tool input nested 100,000 deep",
      () =>
        `${user("u", null, '"go"')}\n${answer("a", "u", "msg_1", `{"type":"tool_use","id":"t","name":"Bash","input":${"[".repeat(100_000)}${"]".repeat(100_000)}}`)}\n${user("r", "a", '[{"type":"tool_result","tool_use_id":"t","content":"ok"}]')}\n`,
    ],
    [
      "100,000 tool results in one line",
      () =>
        `${user("u", null, '"go"')}\n${user(
          "r",
          "u",
          `[${many(100_000, (i) => `{"type":"tool_result","tool_use_id":"t${i}","content":"ok"}`)
            .split("\n")
            .join(",")}]`,
        )}\n`,
    ],
    [
      "a compaction summary of 300,000 reminders never closed",
      () =>
        `${user("s", null, JSON.stringify(`This session is being continued from a previous conversation\n\n${"<system-reminder>".repeat(300_000)}`)).replace('"type":"user"', '"isCompactSummary":true,"type":"user"')}\n`,
    ],
    [
      "a 1,000,000-line compaction summary with no blank line",
      () =>
        `${user("s", null, JSON.stringify(`This session is being continued from a previous conversation${"\nx".repeat(1_000_000)}`)).replace('"type":"user"', '"isCompactSummary":true,"type":"user"')}\n`,
    ],
    [
      "a compaction boundary that is its own logical parent",
      () =>
        `{"parentUuid":null,"logicalParentUuid":"b",${base},"type":"system","subtype":"compact_boundary","uuid":"b","compactMetadata":{"preservedSegment":{"headUuid":"b","tailUuid":"b"}}}\n${user("s", "b", '"summary"').replace('"type":"user"', '"isCompactSummary":true,"type":"user"')}\n`,
    ],
  ];

  test.each(cases)(
    "%s",
    (name, build) => {
      const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
      exercise(build(), name, outcome, createRng(SEED));
      expect(outcome.failures).toEqual([]);
    },
    60_000,
  );
});
