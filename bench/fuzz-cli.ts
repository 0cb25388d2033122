/**
 * Mutation fuzzing through the real CLI: FUZZ_CLI_RUNS (default 300) mutated sessions from
 * fixtures/mutate.ts, each through `agent inspect` and `agent handoff --dry-run` (offline and
 * llm engines). Every run must exit 0, 2 or 3, print no stack trace, print nothing on stdout
 * when it fails, and write or change nothing. Prints the count of each exit code per command;
 * exits 1 when any case fails, naming its seed and mutator.
 * `bun bench/fuzz-cli.ts`; FUZZ_CLI_SEED=<n> FUZZ_CLI_RUNS=1 replays one case.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { describeCase, FUZZ_COMMANDS, fuzzCli } from "../fixtures/fuzz-cli-check.ts";

const RUNS = Number(process.env.FUZZ_CLI_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_CLI_SEED ?? 20261130);

const dir = mkdtempSync(join(tmpdir(), "agent-fuzz-cli-"));
const started = performance.now();
let done = 0;
try {
  const results = await fuzzCli({
    seed: SEED,
    runs: RUNS,
    dir,
    parallel: availableParallelism(),
    onCase: () => {
      done++;
      if (process.stderr.isTTY) process.stderr.write(`\r${done}/${RUNS}`);
    },
  });
  if (process.stderr.isTTY) process.stderr.write("\r");
  const seconds = (performance.now() - started) / 1000;

  console.log(
    `CLI fuzzing: ${RUNS} mutated sessions × ${FUZZ_COMMANDS.length} commands, seeds ${SEED}..${SEED + RUNS - 1}, ${seconds.toFixed(1)} s`,
  );
  for (const { label } of FUZZ_COMMANDS) {
    const counts = new Map<number, number>();
    for (const result of results) {
      const code = result.exits[label];
      if (code !== undefined) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    const summary = [...counts].sort(([a], [b]) => a - b).map(([code, count]) => `exit ${code}: ${count}`);
    console.log(`  ${label.padEnd(16)} ${summary.join(", ")}`);
  }
  const mutators = new Set(results.map((r) => r.case.mutator));
  console.log(`  ${mutators.size} mutators, ${new Set(results.map((r) => r.case.fixture)).size} fixtures`);

  const failed = results.filter((r) => r.problems.length > 0);
  console.log(`  ${failed.length} failing cases`);
  for (const result of failed) {
    console.log(`\nFAIL ${describeCase(result.case)}`);
    for (const problem of result.problems.slice(0, 5)) console.log(`  ${problem}`);
  }
  if (failed.length > 0) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
