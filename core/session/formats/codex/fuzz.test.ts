import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAgentError } from "../../../errors.ts";
import { createSecretsGuard } from "../../../secrets/secrets-guard.ts";
import { buildRequest } from "../../../llm/request.ts";
import { analyzeBranch, describeSessionProblems } from "../../analyze.ts";
import { buildInspectReport, renderInspectReport } from "../../inspect-report.ts";
import {
  CORE_TYPES,
  createMutators,
  createRng,
  deepArrays,
  hashText,
  joinLines,
  linesOf,
  paths,
  setAt,
  tryParse,
  type Rng,
  type Seed,
} from "../../../../fixtures/mutate.ts";
import { codexFixtureFiles } from "../../../../fixtures/sessions/codex/generate.ts";
import { codex } from "./index.ts";

/** Fields as they are, cut as the CLI cuts (the CLI also withholds and escapes). */
const showAsIs = (text: string, max?: number) => (max !== undefined && text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Mutation fuzzing of the Codex reader, as core/session/fuzz.test.ts does for pi and omp: broken
 * variants of the Codex fixtures and the real rollout go through everything `inspect` and a
 * handoff request do in-process, and each must load or be refused with an AgentError.
 * `FUZZ_SEED=<n>` replays a run; `FUZZ_SCALE=10` runs ten times as many cases.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const REAL = join(import.meta.dir, "../../../../fixtures/real/codex/rollout.jsonl");
const SEEDS: Seed[] = [
  ...Object.entries(codexFixtureFiles()).map(([name, text]) => ({ name: `sessions/codex/${name}`, bytes: new TextEncoder().encode(text) })),
  { name: "real/codex/rollout.jsonl", bytes: new Uint8Array(readFileSync(REAL)) },
];
const MUTATORS = createMutators(SEEDS);

interface Outcome {
  loaded: number;
  refused: number;
  failures: string[];
}

function exercise(input: Uint8Array | string, label: string, outcome: Outcome, rng: Rng): void {
  let session: ReturnType<typeof codex.read>;
  try {
    session = codex.read(input, "fuzz.jsonl");
  } catch (error) {
    if (isAgentError(error)) outcome.refused++;
    else
      outcome.failures.push(
        `${label}: read threw ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error)}`,
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
    const guard = createSecretsGuard({ context: analysis.context, redact: false });
    JSON.stringify(
      guard.request(buildRequest({ model: "m", systemPrompt: "s", context: guard.outgoing().context, instruction: "hand off" })),
    );
    const leaf = session.entries.length > 0 ? rng.pick(session.entries) : undefined;
    if (leaf) analyzeBranch(session, { leafId: leaf.id });
  } catch (error) {
    outcome.failures.push(
      `${label}: after loading, ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error)}`,
    );
  }
}

const CASES_PER_MUTATOR = Math.ceil((3_000 * SCALE) / Object.keys(MUTATORS).length);

describe("fuzzing the Codex reader", () => {
  test.each(Object.keys(MUTATORS))(
    `%s: ${CASES_PER_MUTATOR} cases load or are refused with an AgentError`,
    (name) => {
      const mutate = MUTATORS[name];
      if (!mutate) throw new Error(`no mutator ${name}`);
      const rng = createRng(SEED ^ hashText(name));
      const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
      for (let i = 0; i < CASES_PER_MUTATOR; i++) {
        const seed = SEEDS[i % SEEDS.length];
        if (seed) exercise(mutate(rng, seed), `${name} #${i} of ${seed.name} (FUZZ_SEED=${SEED})`, outcome, rng);
      }
      expect(outcome.failures.slice(0, 10)).toEqual([]);
      expect(outcome.loaded).toBeGreaterThan(0);
    },
    60_000,
  );

  test("every field of every line of the shapes fixture, swapped to every other JSON type", () => {
    const rng = createRng(SEED);
    const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
    for (const seed of SEEDS.filter((s) => s.name.endsWith("shapes.jsonl") || s.name.endsWith("/compaction.jsonl"))) {
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
    expect([outcome.loaded > 1000, outcome.refused > 10]).toEqual([true, true]);
  }, 60_000);
});

describe("hostile rollouts the mutators do not reach", () => {
  const meta = '{"timestamp":"2026-11-30T09:00:00.000Z","type":"session_meta","payload":{"id":"h","cwd":"/x","cli_version":"0.169.0"}}';
  const item = (payload: string) => `{"timestamp":"2026-11-30T09:00:01.000Z","type":"response_item","payload":${payload}}`;
  const cases: [name: string, text: () => string][] = [
    [
      "function-call arguments nested 100,000 deep (a JSON string)",
      () =>
        [
          meta,
          item(`{"type":"function_call","name":"exec_command","call_id":"c","arguments":${JSON.stringify(deepArrays(100_000))}}`),
          item('{"type":"function_call_output","call_id":"c","output":"ok"}'),
        ].join("\n"),
    ],
    [
      "a local shell action nested 100,000 deep",
      () =>
        [meta, item(`{"type":"local_shell_call","call_id":"c","status":"completed","action":{"command":${deepArrays(100_000)}}}`)].join(
          "\n",
        ),
    ],
    ["a payload nested 1,000,000 deep", () => [meta, item(deepArrays(1_000_000))].join("\n")],
    [
      "a replacement history of 100,000 user messages",
      () =>
        [
          meta,
          `{"timestamp":"t","type":"compacted","payload":{"message":"s","replacement_history":[${Array.from({ length: 100_000 }, () => '{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}').join(",")}]}}`,
        ].join("\n"),
    ],
    [
      "100,000 rollbacks of 1,000,000 turns",
      () =>
        [
          meta,
          item('{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}'),
          ...Array.from(
            { length: 100_000 },
            () => '{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1000000}}',
          ),
        ].join("\n"),
    ],
    [
      "100,000 outputs for one call id",
      () =>
        [
          meta,
          item('{"type":"function_call","name":"shell","call_id":"c","arguments":"{}"}'),
          ...Array.from({ length: 100_000 }, () => item('{"type":"function_call_output","call_id":"c","output":"x"}')),
        ].join("\n"),
    ],
    ["200,000 broken lines", () => `${meta}\n${"{\n".repeat(200_000)}`],
    [
      "a 5 MB user shell command",
      () =>
        [
          meta,
          item(
            JSON.stringify({
              type: "message",
              role: "user",
              content: [
                {
                  type: "input_text",
                  text: `<user_shell_command>\n<command>\n${"`".repeat(5_000_000)}\n</command>\n<result>\nExit code: 0\nOutput:\n\n</result>\n</user_shell_command>`,
                },
              ],
            }),
          ),
        ].join("\n"),
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
