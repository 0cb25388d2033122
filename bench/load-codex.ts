/**
 * Reading a deterministic ~100 MB Codex rollout (and its context), next to a baseline measured
 * in the same run: read the file and JSON.parse every line, nothing else. Each run is its own
 * process, so peak RSS is per run. Targets (issue 11): ≤ 1.5× the baseline's time, peak RSS ≤
 * 3× the file.
 *
 *   bun bench/load-codex.ts           (BENCH_RUNS=9, LOAD_MB=20 to change the runs or the size)
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { readSessionFile } from "../cli/files.ts";
import { analyzeBranch } from "../core/session/analyze.ts";
import { codex } from "../core/session/formats/codex/index.ts";
import { median, ms } from "./stats.ts";

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
const TARGET_BYTES = Number(process.env.LOAD_MB ?? 100) * 1_000_000;
const OUT = join(import.meta.dir, "out");
/** Bump when the generator changes, so a stale file is not reused. */
const GENERATOR_VERSION = 1;

/** mulberry32: a tiny seeded PRNG, so every run writes the same bytes. */
function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the a to of and in is for that this with on it be as function const return if else await async import export from type " +
  "interface string number boolean null undefined error test file path session entry message context branch compaction " +
  "summary tool call result user assistant model token limit config server request response handler parse write read edit"
).split(" ");
const NON_ASCII = ["café", "naïve", "→", "✓", "“quoted”", "日本語", "🚀", "Ω", "—"];

/**
 * Writes a rollout shaped like a long real one (compare fixtures/real/codex/): per turn a
 * turn_context, Codex's context messages, the user's prompt and its event echo, then model
 * turns of encrypted reasoning, text and exec_command / apply_patch calls with their outputs,
 * token records and events; a compaction with replacement_history every hundred turns.
 */
function writeRollout(path: string, targetBytes: number): void {
  const random = createRng(20261130);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (count: number): string => Array.from({ length: count }, () => pick(WORDS)).join(" ");
  const accent = (): string => (random() < 1 / 16 ? ` ${pick(NON_ASCII)}` : "");
  const code = (lines: number): string =>
    Array.from({ length: lines }, (_, i) => `${"  ".repeat(i % 4)}const ${pick(WORDS)}_${i} = "${words(6)}"; // ${words(4)}`).join("\n");

  const fd = openSync(`${path}.tmp`, "w");
  let buffered: string[] = [];
  let bufferedLength = 0;
  let written = 0;
  let second = 0;
  const start = Date.UTC(2026, 10, 1);
  const emit = (type: string, payload: Record<string, unknown>): void => {
    const line = `${JSON.stringify({ timestamp: new Date(start + ++second * 1000).toISOString(), type, payload })}\n`;
    buffered.push(line);
    bufferedLength += line.length;
    if (bufferedLength > 1 << 20) flush();
  };
  const flush = (): void => {
    written += writeSync(fd, buffered.join(""));
    buffered = [];
    bufferedLength = 0;
  };
  const message = (role: string, text: string) =>
    emit("response_item", { type: "message", role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text }] });

  emit("session_meta", {
    id: "0c0de000-1000-4000-8000-000000000001",
    timestamp: new Date(start).toISOString(),
    cwd: "/home/dev/big",
    originator: "codex_cli_rs",
    cli_version: "0.169.0",
    source: "cli",
    model_provider: "openai",
    base_instructions: { text: words(3000) },
  });
  const prompts: string[] = [];
  for (let turn = 0; written + bufferedLength < targetBytes; turn++) {
    emit("event_msg", { type: "task_started", turn_id: `turn-${turn}` });
    emit("turn_context", {
      turn_id: `turn-${turn}`,
      cwd: "/home/dev/big",
      model: turn % 50 < 45 ? "gpt-5" : "gpt-5-codex",
      summary: "auto",
    });
    emit("world_state", { full: true, state: { environments: { cwd: "/home/dev/big" }, instructions: words(200) } });
    const prompt = words(20 + Math.floor(random() * 120)) + accent();
    prompts.push(prompt);
    message("user", prompt);
    emit("event_msg", { type: "user_message", message: prompt, images: [] });
    const steps = 1 + Math.floor(random() * 4);
    for (let step = 0; step < steps; step++) {
      emit("response_item", { type: "reasoning", summary: [], encrypted_content: `gAAAA${"x".repeat(800 + Math.floor(random() * 2400))}` });
      if (random() < 0.5) message("assistant", words(20 + Math.floor(random() * 60)) + accent());
      const id = `call_${turn}_${step}`;
      if (random() < 0.75) {
        emit("response_item", {
          type: "function_call",
          name: "exec_command",
          arguments: JSON.stringify({ cmd: `bun test src/${pick(WORDS)}.ts` }),
          call_id: id,
        });
        const exit = random() < 0.2 ? 1 : 0;
        emit("response_item", {
          type: "function_call_output",
          call_id: id,
          output: `Chunk ID: ab12cd\nWall time: 0.1000 seconds\nProcess exited with code ${exit}\nOriginal token count: 300\nOutput:\n${code(2 + Math.floor(random() * 40))}${accent()}`,
        });
      } else {
        const file = `src/${pick(WORDS)}/${pick(WORDS)}.ts`;
        emit("response_item", {
          type: "custom_tool_call",
          status: "completed",
          call_id: id,
          name: "apply_patch",
          input: `*** Begin Patch\n*** Update File: ${file}\n@@\n-${code(3)}\n+${code(4)}\n*** End Patch`,
        });
        emit("response_item", {
          type: "custom_tool_call_output",
          call_id: id,
          output: `Success. Updated the following files:\nM ${file}\n`,
        });
      }
      emit("token_usage_record", {
        response_id: `resp_${turn}_${step}`,
        usage: { input_tokens: 12000, output_tokens: 800, total_tokens: 12800 },
      });
      emit("event_msg", { type: "token_count", info: { total_token_usage: { input_tokens: 12000 * turn, output_tokens: 800 * turn } } });
    }
    message("assistant", words(30 + Math.floor(random() * 100)) + accent());
    emit("event_msg", { type: "task_complete", turn_id: `turn-${turn}` });
    if (turn % 100 === 99) {
      const summary = `Another language model started to solve this problem.\n${words(600)}`;
      const kept = prompts.slice(-20).map((text) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] }));
      emit("compacted", {
        message: summary,
        replacement_history: [...kept, { type: "message", role: "user", content: [{ type: "input_text", text: summary }] }],
      });
    }
  }
  flush();
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}

/** The work measured in a child: returns nothing, so only what it keeps alive counts toward RSS. */
function runChild(mode: string, path: string): void {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let kept: unknown;
  if (mode === "baseline") {
    const text = readFileSync(path, "utf8");
    const values: unknown[] = [];
    for (const line of text.split("\n")) if (line !== "") values.push(JSON.parse(line));
    kept = values;
  } else {
    // What the CLI does: read the file in chunks, read it as a Codex rollout, then the branch and its context.
    const session = codex.read(readSessionFile(path).chunks, path);
    kept = analyzeBranch(session);
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(
    `${JSON.stringify({ ms: elapsed, cpuMs: (cpu.user + cpu.system) / 1000, peakRss: process.resourceUsage().maxRSS * 1024, kept: kept !== undefined })}\n`,
  );
}

async function measure(mode: string, path: string): Promise<{ ms: number; cpuMs: number; peakRss: number }> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--child", mode, path], { stdout: "pipe", stderr: "inherit" });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`${mode} run exited ${code}`);
  const result: unknown = JSON.parse(stdout);
  if (typeof result !== "object" || result === null || !("ms" in result) || !("cpuMs" in result) || !("peakRss" in result))
    throw new Error(`${mode}: unexpected output ${stdout}`);
  return { ms: Number(result.ms), cpuMs: Number(result.cpuMs), peakRss: Number(result.peakRss) };
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `codex-rollout-v${GENERATOR_VERSION}-${TARGET_BYTES / 1_000_000}mb.jsonl`);
  if (!existsSync(path)) {
    const started = performance.now();
    writeRollout(path, TARGET_BYTES);
    console.log(`wrote ${path} in ${ms(performance.now() - started)}`);
  }
  const size = statSync(path).size;
  const lines = readFileSync(path, "latin1").split("\n").length - 1;

  await measure("baseline", path); // warm the file cache
  const runs: Record<"baseline" | "ours", { ms: number; cpuMs: number; peakRss: number }[]> = { baseline: [], ours: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.baseline.push(await measure("baseline", path));
    runs.ours.push(await measure("ours", path));
  }
  const time = (mode: "baseline" | "ours") => median(runs[mode].map((r) => r.ms));
  // On a shared machine the wall time also measures the neighbours; CPU time says what the work costs.
  const cpu = (mode: "baseline" | "ours") => median(runs[mode].map((r) => r.cpuMs));
  const rss = (mode: "baseline" | "ours") => median(runs[mode].map((r) => r.peakRss));
  const ratio = time("ours") / time("baseline");
  const rssRatio = rss("ours") / size;

  console.log(
    `Codex rollout read + context: ${mb(size)}, ${lines.toLocaleString("en-US")} lines, medians of ${RUNS} runs (one process each)`,
  );
  console.log(
    `  baseline (read + JSON.parse each line)   ${ms(time("baseline")).padStart(10)}   cpu ${ms(cpu("baseline")).padStart(10)}   peak RSS ${mb(rss("baseline"))}`,
  );
  console.log(
    `  ours (codex.read + analyzeBranch)        ${ms(time("ours")).padStart(10)}   cpu ${ms(cpu("ours")).padStart(10)}   peak RSS ${mb(rss("ours"))}`,
  );
  console.log(
    `  time ${ratio.toFixed(2)}× baseline (target ≤ 1.5×) ${ratio <= 1.5 ? "ok" : "MISSED"}; cpu ${(cpu("ours") / cpu("baseline")).toFixed(2)}×`,
  );
  console.log(`  peak RSS ${rssRatio.toFixed(2)}× file size (target ≤ 3×) ${rssRatio <= 3 ? "ok" : "MISSED"}`);
}

if (process.argv[2] === "--child") runChild(process.argv[3] ?? "", process.argv[4] ?? "");
else await main();
