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
  const cpu: Partial<Record<Phase, number>> = {};
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let at = performance.now();
  let cpuAt = cpuNow();
  const lap = (phase: Phase) => {
    const now = performance.now();
    const cpuThen = cpuAt;
    cpuAt = cpuNow();
    took[phase] = now - at;
    cpu[phase] = cpuAt - cpuThen;
    at = now;
  };
  took.import = at - started;
  cpu.import = cpuAt;
  const text = readFileSync(SESSION, "utf8");
  at = performance.now();
  cpuAt = cpuNow();
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
  console.log(JSON.stringify({ wall: took, cpu }));
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
  const samples = new Map<string, { wall: Record<Phase, number>; cpu: Record<Phase, number> }[]>(trees.map((tree) => [tree, []]));
  for (let i = 0; i < rounds; i++) {
    // Turn the order each round: neither tree always runs first.
    for (const tree of i % 2 === 0 ? trees : [...trees].reverse()) {
      const flags = profileDir && tree === REPO ? ["--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${profileDir}`] : [];
      const proc = Bun.spawnSync([process.execPath, ...flags, import.meta.path, "--round", tree], { stdout: "pipe", stderr: "inherit" });
      if (proc.exitCode !== 0) throw new Error(`round ${i} of ${tree} failed`);
      samples.get(tree)?.push(JSON.parse(proc.stdout.toString()));
    }
  }
  const medianOf = (tree: string, phase: Phase, of: "wall" | "cpu") => median((samples.get(tree) ?? []).map((s) => s[of][phase]));
  const totalOf = (tree: string, of: "wall" | "cpu") =>
    PHASES.filter((p) => p !== "import").reduce((sum, p) => sum + medianOf(tree, p, of), 0);
  const row = (label: string, now: (of: "wall" | "cpu") => number, then?: (of: "wall" | "cpu") => number) => {
    const share = (of: "wall" | "cpu") => (then === undefined ? "" : ` (${(now(of) / then(of)).toFixed(2)}× then)`);
    console.log(`  ${label.padEnd(14)} ${ms(now("wall")).padStart(9)}${share("wall")}   cpu ${ms(now("cpu")).padStart(9)}${share("cpu")}`);
  };
  console.log(`core phases of the 1 MB handoff, ${rounds} rounds in fresh processes, medians${before ? ` (then: ${before})` : ""}`);
  for (const phase of PHASES)
    row(phase, (of) => medianOf(REPO, phase, of), before === undefined ? undefined : (of) => medianOf(before, phase, of));
  row("all but import", (of) => totalOf(REPO, of), before === undefined ? undefined : (of) => totalOf(before, of));
  const [load1] = loadavg();
  console.log(`  load average ${load1?.toFixed(2)} on ${availableParallelism()} cores`);
}
