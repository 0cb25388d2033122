/**
 * The reader benchmark's harness, for any format: a deterministic ~100 MB file (written once,
 * kept in bench/out/), then, each in a process of its own so peak RSS is per run, a baseline
 * (read the file and JSON.parse every line, nothing else) and ours (what the CLI does: read in
 * chunks, the format's reader, the branch and its context). Targets (issue 2): time ≤ 1.5× the
 * baseline's, peak RSS ≤ 3× the file. The reader alone (no branch, no context) is measured too,
 * for information: it says how the cost splits, the target stays on the whole.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readSessionFile } from "../cli/sessions/session-file.ts";
import { analyzeBranch } from "../core/session/analyze.ts";
import type { SessionBytes } from "../core/session/lines.ts";
import type { Session } from "../core/session/types.ts";
import { median, ms } from "./stats.ts";

export interface LoadBench {
  /** What the file is, for the report: `Claude Code transcript`. */
  label: string;
  /** The file's name in bench/out/ (change it when the generator changes). */
  fileName: string;
  /** Writes the file at `path` with about `targetBytes` bytes. */
  generate(path: string, targetBytes: number): void;
  read(input: SessionBytes, file: string): Session;
  /** This script (`import.meta.path`): the runs are children of it. */
  script: string;
}

/** mulberry32: a tiny seeded PRNG, so every run writes the same bytes. */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words every generated session is written in, and the non-ASCII bits mixed in. */
export const WORDS = (
  "the a to of and in is for that this with on it be as function const return if else await async import export from type " +
  "interface string number boolean null undefined error test file path session entry message context branch compaction " +
  "summary tool call result user assistant model token limit config server request response handler parse write read edit"
).split(" ");
export const NON_ASCII = ["café", "naïve", "→", "✓", "“quoted”", "日本語", "🚀", "Ω", "—"];

/** Seeded text for a generator: the same seed, the same bytes. */
export function syntheticText(seed: number) {
  const random = createRng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (count: number): string => Array.from({ length: count }, () => pick(WORDS)).join(" ");
  // One text in sixteen has non-ASCII in it.
  const accent = (): string => (random() < 1 / 16 ? ` ${pick(NON_ASCII)}` : "");
  const code = (lines: number): string =>
    Array.from({ length: lines }, (_, i) => `${"  ".repeat(i % 4)}const ${pick(WORDS)}_${i} = "${words(6)}"; // ${words(4)}`).join("\n");
  return { random, pick, words, accent, code };
}

/** The work measured in a child: returns nothing, so only what it keeps alive counts toward RSS. */
function runChild(bench: LoadBench, mode: string, path: string): void {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let kept: unknown;
  if (mode === "baseline") {
    const text = readFileSync(path, "utf8");
    const values: unknown[] = [];
    for (const line of text.split("\n")) if (line !== "") values.push(JSON.parse(line));
    kept = values;
  } else if (mode === "reader") {
    kept = bench.read(readSessionFile(path, process.cwd()).chunks, path);
  } else {
    const analysis = analyzeBranch(bench.read(readSessionFile(path, process.cwd()).chunks, path));
    // Session Facts are read off the branch on first use; a handoff reads them, so this does too.
    kept = [analysis, analysis.facts];
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  // maxRSS is in kilobytes.
  const report = {
    ms: elapsed,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRss: process.resourceUsage().maxRSS * 1024,
    kept: kept !== undefined,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

interface Run {
  ms: number;
  cpuMs: number;
  peakRss: number;
}

async function measure(bench: LoadBench, mode: string, path: string): Promise<Run> {
  const proc = Bun.spawn([process.execPath, bench.script, "--child", mode, path], { stdout: "pipe", stderr: "inherit" });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`${mode} run exited ${code}`);
  const result: unknown = JSON.parse(stdout);
  if (typeof result !== "object" || result === null || !("ms" in result) || !("cpuMs" in result) || !("peakRss" in result))
    throw new Error(`${mode}: unexpected output ${stdout}`);
  return { ms: Number(result.ms), cpuMs: Number(result.cpuMs), peakRss: Number(result.peakRss) };
}

/** Interleaved, so a neighbour's burst of load falls on every mode alike. */
const MODES = ["baseline", "ours", "reader"] as const;
type Mode = (typeof MODES)[number];

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;

async function compare(bench: LoadBench): Promise<void> {
  const runs = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
  const targetBytes = Number(process.env.LOAD_MB ?? 100) * 1_000_000;
  const out = join(import.meta.dir, "out");
  mkdirSync(out, { recursive: true });
  const path = join(out, bench.fileName.replace(".jsonl", `-${targetBytes / 1_000_000}mb.jsonl`));
  if (!existsSync(path)) {
    const started = performance.now();
    bench.generate(path, targetBytes);
    console.log(`wrote ${path} in ${ms(performance.now() - started)}`);
  }
  const size = statSync(path).size;
  const lines = readFileSync(path, "latin1").split("\n").length - 1;

  await measure(bench, "baseline", path); // warm the file cache
  const results: Record<Mode, Run[]> = { baseline: [], ours: [], reader: [] };
  for (let i = 0; i < runs; i++) for (const mode of MODES) results[mode].push(await measure(bench, mode, path));
  const time = (mode: Mode) => median(results[mode].map((r) => r.ms));
  // On a shared machine the wall time also measures the neighbours. CPU time is not the work alone
  // either: it counts the threads beside it, the optimizing compiler above all, which compiles our
  // code on a spare core while it runs (the baseline has almost no code to compile). Measured on a
  // 100 MB Codex rollout: with the top tier off (BUN_JSC_useFTLJIT=false) ours drops from 1.7-1.9x
  // the baseline's CPU to 1.4x; with compiling on the main thread (BUN_JSC_useConcurrentJIT=false)
  // the wall time shows it: 1.7x instead of 1.1-1.3x. The target judges wall time, as the issue says.
  const cpu = (mode: Mode) => median(results[mode].map((r) => r.cpuMs));
  const rss = (mode: Mode) => median(results[mode].map((r) => r.peakRss));
  const ratio = time("ours") / time("baseline");
  const rssRatio = rss("ours") / size;
  console.log(
    `load + context: ${mb(size)} ${bench.label}, ${lines.toLocaleString("en-US")} lines, medians of ${runs} runs (one process each)`,
  );
  const row = (mode: Mode) => `${ms(time(mode)).padStart(10)}   cpu ${ms(cpu(mode)).padStart(10)}   peak RSS ${mb(rss(mode))}`;
  console.log(`  baseline (read + JSON.parse each line)   ${row("baseline")}`);
  console.log(`  ours (reader + analyzeBranch)            ${row("ours")}`);
  console.log(
    `  of which the reader alone                ${row("reader")}   (${(time("reader") / time("baseline")).toFixed(2)}×, cpu ${(cpu("reader") / cpu("baseline")).toFixed(2)}×)`,
  );
  console.log(
    `  time ${ratio.toFixed(2)}× baseline (target ≤ 1.5×) ${ratio <= 1.5 ? "ok" : "MISSED"}; cpu ${(cpu("ours") / cpu("baseline")).toFixed(2)}×`,
  );
  console.log(`  peak RSS ${rssRatio.toFixed(2)}× file size (target ≤ 3×) ${rssRatio <= 3 ? "ok" : "MISSED"}`);
}

/** The benchmark's entry point: the comparison, or (`--child <mode> <path>`) one measured run. */
export async function runLoadBench(bench: LoadBench): Promise<void> {
  if (process.argv[2] === "--child") runChild(bench, process.argv[3] ?? "", process.argv[4] ?? "");
  else await compare(bench);
}
