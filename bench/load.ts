/**
 * Load + context on a deterministic ~100 MB version 3 session, next to a baseline measured in the
 * same run: read the file and JSON.parse every line, nothing else. Each run is its own process,
 * so peak RSS is per run. Targets (issue 2): ≤ 1.5× the baseline's time, peak RSS ≤ 3× the file.
 *
 *   bun bench/load.ts                 (BENCH_RUNS=9, LOAD_MB=20 to change the runs or the size)
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { readSessionFile } from "../cli/sessions/session-file.ts";
import { analyzeBranch } from "../core/session/analyze.ts";
import { readSession } from "../core/session/formats/read.ts";
import { median, ms } from "./stats.ts";
import { createRng, NON_ASCII, WORDS } from "./load-harness.ts";

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 5));
const TARGET_BYTES = Number(process.env.LOAD_MB ?? 100) * 1_000_000;
const OUT = join(import.meta.dir, "out");
/** Bump when the generator changes, so a stale file is not reused. */
const GENERATOR_VERSION = 2;

/**
 * Writes a session shaped like a long real one: turns of user → assistant (thinking, text, tool
 * calls) → tool results, with `!` and `!!` runs, custom entries, aborted turns, abandoned branches
 * with branch summaries, and a compaction every few hundred entries. About one line in sixteen
 * carries non-ASCII text, as in the real sample sessions (so one decoded string of the whole
 * file would be UTF-16, twice the file's size).
 */
function writeSession(path: string, targetBytes: number): void {
  const random = createRng(20261129);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (count: number): string => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(pick(WORDS));
    return out.join(" ");
  };
  // One line in sixteen gets a non-ASCII word: about the share in the real sample sessions.
  const accent = (): string => (random() < 1 / 16 ? ` ${pick(NON_ASCII)}` : "");
  const code = (lines: number): string => {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(`${"  ".repeat(i % 4)}const ${pick(WORDS)}_${i} = "${words(6)}"; // ${words(4)}`);
    return out.join("\n");
  };

  const fd = openSync(`${path}.tmp`, "w");
  let buffered: string[] = [];
  let bufferedLength = 0;
  let written = 0;
  const emit = (record: Record<string, unknown>): void => {
    const line = `${JSON.stringify(record)}\n`;
    buffered.push(line);
    bufferedLength += line.length;
    if (bufferedLength > 1 << 20) flush();
  };
  const flush = (): void => {
    written += writeSync(fd, buffered.join(""));
    buffered = [];
    bufferedLength = 0;
  };

  let counter = 0;
  let minute = 0;
  let leaf: string | null = null;
  const start = Date.UTC(2026, 10, 1);
  const add = (fields: Record<string, unknown>, parentId: string | null = leaf): string => {
    const id = (++counter).toString(16).padStart(8, "0");
    emit({ type: fields.type, id, parentId, timestamp: new Date(start + ++minute * 1000).toISOString(), ...fields });
    return id;
  };
  const message = (m: Record<string, unknown>, parentId: string | null = leaf) =>
    add({ type: "message", message: { ...m, timestamp: start + minute * 1000 } }, parentId);
  const usage = {
    input: 12000,
    output: 800,
    cacheRead: 9000,
    cacheWrite: 0,
    totalTokens: 21800,
    cost: { input: 0.03, output: 0.01, cacheRead: 0, cacheWrite: 0, total: 0.04 },
  };
  const assistant = (content: unknown[], stopReason: string) => ({
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage,
    stopReason,
  });

  emit({
    type: "session",
    version: 3,
    id: "0b5e55ed-1000-4000-8000-000000000001",
    timestamp: new Date(start).toISOString(),
    cwd: "/home/dev/big",
  });
  leaf = add({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });

  for (let turn = 0; written + bufferedLength < targetBytes; turn++) {
    leaf = message({ role: "user", content: words(20 + Math.floor(random() * 120)) + accent() });
    const calls = 1 + Math.floor(random() * 3);
    const blocks: unknown[] = [
      { type: "thinking", thinking: words(40 + Math.floor(random() * 200)) },
      { type: "text", text: words(20 + Math.floor(random() * 60)) + accent() },
    ];
    const results: [string, string, string][] = [];
    for (let c = 0; c < calls; c++) {
      const id = `toolu_${turn}_${c}`;
      const file = `src/${pick(WORDS)}/${pick(WORDS)}.ts`;
      const kind = pick(["read", "read", "edit", "bash"]);
      if (kind === "read") {
        blocks.push({ type: "toolCall", id, name: "read", arguments: { path: file } });
        results.push([id, "read", code(5 + Math.floor(random() * 100)) + accent()]);
      } else if (kind === "edit") {
        blocks.push({ type: "toolCall", id, name: "edit", arguments: { path: file, oldText: code(3), newText: code(4) } });
        results.push([id, "edit", `Successfully replaced text in ${file}.`]);
      } else {
        blocks.push({ type: "toolCall", id, name: "bash", arguments: { command: `bun test ${file}` } });
        results.push([
          id,
          "bash",
          `${code(2 + Math.floor(random() * 40))}${accent()}\n\nCommand exited with code ${random() < 0.2 ? 1 : 0}`,
        ]);
      }
    }
    const aborted = random() < 0.03;
    leaf = message(assistant(blocks, aborted ? "aborted" : "toolUse"));
    for (const [id, name, output] of results) {
      leaf = message({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text: output }], isError: aborted });
    }
    leaf = message(assistant([{ type: "text", text: words(30 + Math.floor(random() * 100)) + accent() }], "stop"));

    if (turn % 20 === 7) {
      const exitCode = random() < 0.3 ? 1 : 0;
      leaf = message({
        role: "bashExecution",
        command: "git status --short",
        output: code(5),
        exitCode,
        cancelled: false,
        truncated: false,
      });
      leaf = message({
        role: "bashExecution",
        command: "cat .env",
        output: "TOKEN=secret\n",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
      });
    }
    if (turn % 15 === 3) {
      leaf = add({ type: "custom", customType: "todo-state", data: { open: words(10).split(" ") } });
      leaf = add({ type: "custom_message", customType: "lint-report", content: words(30), display: false });
    }
    if (turn % 37 === 11) {
      // An abandoned branch from here, then a summary of it on the live branch.
      const from = leaf;
      let side = message({ role: "user", content: words(30) }, from);
      side = message(assistant([{ type: "text", text: words(80) }], "stop"), side);
      leaf = add({ type: "branch_summary", fromId: side, summary: words(120), details: { readFiles: [], modifiedFiles: [] } }, from);
    }
    if (turn % 120 === 119) {
      // Keep the last few entries; everything before is summarised.
      const keptFrom = (counter - 6).toString(16).padStart(8, "0");
      leaf = add({
        type: "compaction",
        summary: words(600),
        firstKeptEntryId: keptFrom,
        tokensBefore: 150000,
        details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
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
  let kept: unknown;
  if (mode === "baseline") {
    const text = readFileSync(path, "utf8");
    const values: unknown[] = [];
    for (const line of text.split("\n")) if (line !== "") values.push(JSON.parse(line));
    kept = values;
  } else {
    // What the CLI does (cli/sessions/load-session.ts): read the file in chunks, recognise its format from the
    // first lines, parse, then the branch and its context.
    const { session } = readSession(readSessionFile(path, process.cwd()).chunks, path);
    const analysis = analyzeBranch(session);
    // Session Facts are read off the branch on first use; a handoff reads them, so this does too.
    kept = [analysis, analysis.facts];
  }
  const elapsed = performance.now() - started;
  // maxRSS is in kilobytes.
  process.stdout.write(`${JSON.stringify({ ms: elapsed, peakRss: process.resourceUsage().maxRSS * 1024, kept: kept !== undefined })}\n`);
}

async function measure(mode: string, path: string): Promise<{ ms: number; peakRss: number }> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--child", mode, path], { stdout: "pipe", stderr: "inherit" });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`${mode} run exited ${code}`);
  const result: unknown = JSON.parse(stdout);
  if (typeof result !== "object" || result === null || !("ms" in result) || !("peakRss" in result))
    throw new Error(`${mode}: unexpected output ${stdout}`);
  return { ms: Number(result.ms), peakRss: Number(result.peakRss) };
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `session-v${GENERATOR_VERSION}-${TARGET_BYTES / 1_000_000}mb.jsonl`);
  if (!existsSync(path)) {
    const started = performance.now();
    writeSession(path, TARGET_BYTES);
    console.log(`wrote ${path} in ${ms(performance.now() - started)}`);
  }
  const size = statSync(path).size;
  const lines = readFileSync(path, "latin1").split("\n").length - 1;

  await measure("baseline", path); // warm the file cache
  const runs: Record<"baseline" | "ours", { ms: number; peakRss: number }[]> = { baseline: [], ours: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.baseline.push(await measure("baseline", path));
    runs.ours.push(await measure("ours", path));
  }
  const time = (mode: "baseline" | "ours") => median(runs[mode].map((r) => r.ms));
  const rss = (mode: "baseline" | "ours") => median(runs[mode].map((r) => r.peakRss));
  const ratio = time("ours") / time("baseline");
  const rssRatio = rss("ours") / size;

  console.log(`load + context: ${mb(size)} v3 session, ${lines.toLocaleString("en-US")} lines, medians of ${RUNS} runs (one process each)`);
  console.log(`  baseline (read + JSON.parse each line)   ${ms(time("baseline")).padStart(10)}   peak RSS ${mb(rss("baseline"))}`);
  console.log(`  ours (readSession + analyzeBranch)       ${ms(time("ours")).padStart(10)}   peak RSS ${mb(rss("ours"))}`);
  console.log(`  time ${ratio.toFixed(2)}× baseline (target ≤ 1.5×) ${ratio <= 1.5 ? "ok" : "MISSED"}`);
  console.log(`  peak RSS ${rssRatio.toFixed(2)}× file size (target ≤ 3×) ${rssRatio <= 3 ? "ok" : "MISSED"}`);
}

if (process.argv[2] === "--child") runChild(process.argv[3] ?? "", process.argv[4] ?? "");
else await main();
