import { describe, expect, test } from "bun:test";
import { isAgentError } from "../errors.ts";
import { createSecretsGuard, type SecretsGuard } from "../secrets/secrets-guard.ts";
import { mapContextText } from "../secrets/outgoing-strings.ts";
import { buildRequest } from "../llm/request.ts";
import { analyzeBranch, describeSessionProblems } from "./analyze.ts";
import type { ContextMessage } from "./messages.ts";
import { parseSession } from "./formats/pi/parse.ts";
import { buildInspectReport, renderInspectReport } from "./inspect-report.ts";
import {
  CORE_TYPES,
  createMutators,
  createRng,
  decode,
  deepArrays,
  deepObjects,
  hashText,
  joinLines,
  linesOf,
  loadSeeds,
  paths,
  setAt,
  tryParse,
  type Rng,
} from "../../fixtures/mutate.ts";

/** Fields as they are, cut as the CLI cuts (the CLI also withholds and escapes). */
const showAsIs = (text: string, max?: number) => (max !== undefined && text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Mutation fuzzing of the session reader: thousands of broken variants of the fixture sessions
 * go through everything `agent inspect` and `agent handoff --dry-run` do in-process. Each must
 * either load or be refused with an AgentError; nothing else (TypeError, RangeError, a hang)
 * may come out. Deterministic: a failure names its case, and `FUZZ_SEED=<n>` replays a run.
 * `FUZZ_SCALE=10` runs ten times as many cases.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const SEEDS = loadSeeds();
const MUTATORS = createMutators(SEEDS);

// ---------------------------------------------------------------------------------------------
// The property: load or refuse, never crash, and a loaded session goes all the way to a request.

interface Outcome {
  loaded: number;
  refused: number;
  failures: string[];
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const where = error.stack?.split("\n").find((l) => l.includes("/core/")) ?? "";
  return `${error.name}: ${error.message.slice(0, 200)} ${where.trim()}`;
}

/** Every text of a context that requests are built from, in one fixed order. */
function textsOf(context: readonly ContextMessage[]): string[] {
  const texts: string[] = [];
  const collect = (text: string) => (texts.push(text), text);
  mapContextText(context, { text: collect, assigned: (_key, value) => collect(value), opaque: (text) => text });
  return texts;
}

/**
 * Restoring never substitutes what the run did not issue: the input's own texts (which may hold
 * placeholder-looking text) come back from restore unchanged, and each redacted text restores
 * to exactly the text it came from (well-formed: a lone surrogate is U+FFFD once it leaves).
 */
function restoreProblems(context: readonly ContextMessage[], guard: SecretsGuard): string[] {
  const before = textsOf(context);
  const after = textsOf(guard.outgoing().context);
  const problems: string[] = [];
  if (before.length !== after.length) return [`${before.length} texts in, ${after.length} out`];
  before.forEach((text, i) => {
    if (guard.restore(text) !== text) problems.push(`restore changed an input text: ${JSON.stringify(text.slice(0, 120))}`);
    // Lone surrogates leave as U+FFFD (secrets-guard.ts): the input as it may leave is what comes back.
    if (guard.restore(after[i] ?? "") !== text.toWellFormed())
      problems.push(`a redacted text did not restore to its input: ${JSON.stringify(text.slice(0, 120))}`);
  });
  return problems;
}

function exercise(input: Uint8Array | string, label: string, outcome: Outcome, rng: Rng, redact = true): void {
  const text = typeof input === "string" ? input : decode(input);
  let session: ReturnType<typeof parseSession>;
  try {
    session = parseSession(text, "fuzz.jsonl");
  } catch (error) {
    if (isAgentError(error)) outcome.refused++;
    else outcome.failures.push(`${label}: parseSession threw ${describeError(error)}`);
    return;
  }
  outcome.loaded++;
  try {
    const analysis = analyzeBranch(session);
    const report = buildInspectReport("fuzz.jsonl", session, analysis, describeSessionProblems(session, analysis));
    renderInspectReport(report, session.version, showAsIs);
    JSON.stringify(report);
    const guard = createSecretsGuard({ context: analysis.context, redact });
    const request = buildRequest({ model: "m", systemPrompt: "s", context: guard.outgoing().context, instruction: "hand off" });
    JSON.stringify(guard.request(request));
    if (redact) for (const problem of restoreProblems(analysis.context, guard).slice(0, 1)) outcome.failures.push(`${label}: ${problem}`);
    // Another branch: any entry of the file can be a leaf.
    const leaf = session.entries.length > 0 ? rng.pick(session.entries) : undefined;
    if (leaf) analyzeBranch(session, { leafId: leaf.id });
  } catch (error) {
    outcome.failures.push(`${label}: after loading, ${describeError(error)}`);
  }
}

/**
 * Each mutator takes every seed twice, a fresh random draw each time (3,040 cases; with the
 * systematic swaps below over 10,000). Cut from 10,000 random cases (500 a mutator, where 50 would
 * never reach the last seeds): the file still runs the same lines of core/ (`bun test --coverage`,
 * lcov) and its cases still end in the same kinds of refusal and warning.
 */
const ROUNDS = 2;
const CASES_PER_MUTATOR = Math.ceil(ROUNDS * SCALE) * SEEDS.length;

describe("fuzzing the session reader", () => {
  test("has seeds to mutate", () => {
    expect(SEEDS.length).toBeGreaterThanOrEqual(3);
    expect(SEEDS.map((s) => s.name)).toContain("example.jsonl");
  });

  let total = 0;
  test.each(Object.keys(MUTATORS))(
    `%s: ${CASES_PER_MUTATOR} cases load or are refused with an AgentError`,
    (name) => {
      const mutate = MUTATORS[name];
      if (!mutate) throw new Error(`no mutator ${name}`);
      const rng = createRng(SEED ^ hashText(name));
      const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
      for (let i = 0; i < CASES_PER_MUTATOR; i++) {
        const seed = SEEDS[i % SEEDS.length];
        if (!seed) continue;
        exercise(mutate(rng, seed), `${name} #${i} of ${seed.name} (FUZZ_SEED=${SEED})`, outcome, rng);
      }
      total += outcome.loaded + outcome.refused + outcome.failures.length;
      expect(outcome.failures.slice(0, 10)).toEqual([]);
      // Both ways out were taken, or the mutator tests less than it claims.
      expect(outcome.loaded).toBeGreaterThan(0);
    },
    60_000,
  );

  test("every field of every fixture line, swapped to every other JSON type", () => {
    const rng = createRng(SEED);
    const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
    for (const seed of SEEDS.filter((s) =>
      ["example.jsonl", "sessions/v3-branches.jsonl", "sessions/omp.jsonl", "sessions/v1.jsonl"].includes(s.name),
    )) {
      const lines = linesOf(seed.bytes);
      lines.forEach((line, index) => {
        const parsed = tryParse(line);
        for (const path of paths(parsed)) {
          for (const replacement of CORE_TYPES) {
            const copy = tryParse(line);
            setAt(copy, path, replacement);
            const mutated = lines.slice();
            mutated[index] = JSON.stringify(copy);
            // Without redaction, which the random cases cover: it is most of the time per case.
            exercise(
              joinLines(mutated),
              `${seed.name}:${index + 1} ${path.join(".")} = ${JSON.stringify(replacement)}`,
              outcome,
              rng,
              false,
            );
          }
        }
      });
    }
    total += outcome.loaded + outcome.refused + outcome.failures.length;
    expect(outcome.failures.slice(0, 10)).toEqual([]);
    expect(outcome.loaded).toBeGreaterThan(1000);
    expect(outcome.refused).toBeGreaterThan(10);
  }, 60_000);

  test("ran at least 10,000 cases in all", () => {
    expect(total).toBeGreaterThanOrEqual(10_000);
  });
});

describe("hostile shapes the mutators do not reach", () => {
  const header = '{"type":"session","version":3,"id":"h","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/x"}';
  const entry = (id: string, parentId: string | null, body: string) =>
    `{"type":"message","id":"${id}","parentId":${JSON.stringify(parentId)},"timestamp":"t","message":${body}}`;
  const toolCall = (args: string) =>
    `{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":${args}}],"stopReason":"toolUse"}`;
  const result = '{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[{"type":"text","text":"ok"}]}';

  const cases: [name: string, text: () => string][] = [
    ["a 10,000-deep array as a whole line", () => `${header}\n${deepArrays(10_000)}\n`],
    ["a 1,000,000-deep array as a whole line", () => `${header}\n${deepArrays(1_000_000)}\n`],
    ["an unclosed 100,000-deep array", () => `${header}\n${"[".repeat(100_000)}\n`],
    ["a 10,000-deep header", () => `${deepObjects(10_000)}\n`],
    [
      "tool-call arguments nested 100,000 deep",
      () => `${header}\n${entry("a", null, toolCall(deepArrays(100_000)))}\n${entry("b", "a", result)}\n`,
    ],
    ["user content nested 100,000 deep", () => `${header}\n${entry("a", null, `{"role":"user","content":${deepArrays(100_000)}}`)}\n`],
    ["a header repeated on every line", () => `${header}\n`.repeat(5_000)],
    [
      "50,000 entries with one id",
      () => `${header}\n${Array.from({ length: 50_000 }, () => entry("same", "same", '{"role":"user","content":"hi"}')).join("\n")}`,
    ],
    [
      "a 100,000-entry parent chain",
      () =>
        `${header}\n${Array.from({ length: 100_000 }, (_, i) => entry(`e${i}`, i === 0 ? null : `e${i - 1}`, '{"role":"user","content":"hi"}')).join("\n")}`,
    ],
    ["1,100,000 lines that are not entries", () => `${header}\n${'{"type":"message"}\n'.repeat(1_100_000)}`],
    ["200,000 broken lines", () => `${header}\n${"{\n".repeat(200_000)}`],
    [
      "a 5 MB string of backticks in a user command",
      () => `${header}\n${entry("a", null, `{"role":"bashExecution","command":"${"`".repeat(5_000_000)}","output":"","exitCode":0}`)}\n`,
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
