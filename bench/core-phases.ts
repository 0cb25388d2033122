/**
 * Core's share of the 1 MB handoff, phase by phase, each round in a fresh `bun` process (so each
 * phase runs cold, as in one `agent handoff`): read the session (peek, recognise, parse), analyse
 * the branch (context, Session Facts), the handoff itself (guard, plan, one request to a model
 * that answers at once, Session Facts' section, the new session) and the dry run's plan. Medians
 * of the rounds. Where `bench/profile.ts` says which function, this says how much each phase
 * costs without the CLI, the SDK and the profiler around it.
 *
 *   bun bench/core-phases.ts [rounds=9]     (BENCH_PROFILE=folder: each round writes a CPU profile there)
 *
 * BENCH_BEFORE=<another checkout> runs its core in the same rounds, interleaved (its rounds read
 * this checkout's session and fixture), and prints each phase now as a share of then.
 */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { median, ms } from "./stats.ts";

const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "large-session.jsonl");
const PHASES = ["import", "read", "analyze", "handoff", "dry run plan"] as const;
type Phase = (typeof PHASES)[number];

async function oneRound(root: string): Promise<void> {
  const started = performance.now();
  const [{ readSession }, { analyzeBranch }, { runHandoff, planHandoffRequests }, { CANNED_DOCUMENT }] = await Promise.all([
    import(join(root, "core/session/formats/read.ts")),
    import(join(root, "core/session/analyze.ts")),
    import(join(root, "core/handoff/pipeline.ts")),
    import("../fixtures/fake-openai.ts"),
  ]);
  const took: Partial<Record<Phase, number>> = {};
  let at = performance.now();
  const lap = (phase: Phase) => {
    const now = performance.now();
    took[phase] = now - at;
    at = now;
  };
  took.import = at - started;
  const text = readFileSync(SESSION, "utf8");
  at = performance.now();
  const { session } = readSession(text, SESSION);
  lap("read");
  const analysis = analyzeBranch(session);
  lap("analyze");
  const input = {
    session,
    analysis,
    sourcePath: SESSION,
    model: "fake-model",
    provider: "local",
    contextWindow: 400_000,
    withheld: ["sk-bench"],
  };
  let n = 0;
  await runHandoff(input, {
    complete: async () => ({ text: CANNED_DOCUMENT, finishReason: "stop", usage: { inputTokens: 1, outputTokens: 1 } }),
    now: () => new Date("2026-12-03T12:00:00Z"),
    newSessionId: () => "0b9c8d7e-6f50-4a41-9b32-1c2d3e4f5a6b",
    newEntryId: () => `e${++n}`,
  });
  lap("handoff");
  planHandoffRequests(input);
  lap("dry run plan");
  console.log(JSON.stringify(took));
}

if (process.argv[2] === "--round") {
  await oneRound(process.argv[3] ?? REPO);
} else {
  if (!existsSync(SESSION)) {
    console.log(`core-phases skipped: ${SESSION} is not here`);
    process.exit(0);
  }
  const rounds = Number(process.argv[2] ?? 9);
  const profileDir = process.env.BENCH_PROFILE;
  const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined;
  const trees = before === undefined ? [REPO] : [REPO, before];
  const samples = new Map<string, Record<Phase, number>[]>(trees.map((tree) => [tree, []]));
  for (let i = 0; i < rounds; i++) {
    // Turn the order each round: neither tree always runs first.
    for (const tree of i % 2 === 0 ? trees : [...trees].reverse()) {
      const flags = profileDir && tree === REPO ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
      const proc = Bun.spawnSync([process.execPath, ...flags, import.meta.path, "--round", tree], { stdout: "pipe", stderr: "inherit" });
      if (proc.exitCode !== 0) throw new Error(`round ${i} of ${tree} failed`);
      samples.get(tree)?.push(JSON.parse(proc.stdout.toString()));
    }
  }
  const medianOf = (tree: string, phase: Phase) => median((samples.get(tree) ?? []).map((s) => s[phase]));
  const totalOf = (tree: string) => PHASES.filter((p) => p !== "import").reduce((sum, p) => sum + medianOf(tree, p), 0);
  console.log(`core phases of the 1 MB handoff, ${rounds} rounds in fresh processes, medians${before ? ` (then: ${before})` : ""}`);
  for (const phase of PHASES) {
    const now = medianOf(REPO, phase);
    const then =
      before === undefined ? "" : `   then ${ms(medianOf(before, phase)).padStart(9)}   ${(now / medianOf(before, phase)).toFixed(2)}×`;
    console.log(`  ${phase.padEnd(14)} ${ms(now).padStart(9)}${then}`);
  }
  const then = before === undefined ? "" : `   then ${ms(totalOf(before)).padStart(9)}   ${(totalOf(REPO) / totalOf(before)).toFixed(2)}×`;
  console.log(`  ${"all but import".padEnd(14)} ${ms(totalOf(REPO)).padStart(9)}${then}`);
  const [load1] = loadavg();
  console.log(`  load average ${load1?.toFixed(2)} on ${availableParallelism()} cores`);
}
