/**
 * `agent ls` on a generated home of 2,000 sessions (pi, omp, Claude Code and Codex, a quarter
 * each, over ten project folders), next to `ls -t` of the same session folders. Sizes are
 * spread on a log scale from 1 KB to 50 MB, most of them small, 2 GB at most in all. Each file
 * is its agent's real transcript's first and last lines (the cwd and id made its own) around a
 * hole: sparse, so the home costs little disk and no time to write, and `agent ls` reads only
 * the ends anyway. Median of BENCH_RUNS runs; the home is deleted at the end.
 * Target (issue 12): 2,000 sessions listed in well under a second.
 *
 *   bun bench/ls.ts           (BENCH_RUNS=7, LS_SESSIONS=2000 to change the runs or the count)
 */
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, utimesSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatNamed } from "../core/session/formats/table.ts";
import type { FileAgentName } from "../core/session/types.ts";
import { median, ms, timeCommand } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SESSIONS = Number(process.env.LS_SESSIONS ?? 2000);
const FOLDERS = 10;
const MIN_BYTES = 1_000;
const MAX_BYTES = 50_000_000;
const MAX_TOTAL = 2_000_000_000;
const REPO = join(import.meta.dir, "..");

/** Each agent's real transcript and the folder it was recorded in. */
const TRANSCRIPTS: Record<FileAgentName, string> = {
  pi: "fixtures/real/pi/session.jsonl",
  omp: "fixtures/real/omp/session.jsonl",
  "claude-code": "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
  codex: "fixtures/real/codex/rollout.jsonl",
  gemini: "fixtures/real/gemini/session-2026-12-03T05-51-ac74b73f.jsonl",
};
const AGENTS = Object.keys(TRANSCRIPTS) as FileAgentName[];

/** The first five and last three lines of the transcript, and the id and cwd to replace in them. */
function ends(agent: FileAgentName): { head: string; tail: string; id: string; cwd: string } {
  const file = TRANSCRIPTS[agent];
  const lines = readFileSync(join(REPO, file), "utf8").trimEnd().split("\n");
  const glance = formatNamed(agent).glance({ head: lines.slice(0, 5), tail: lines.slice(-3), fileName: file.split("/").pop() ?? "" });
  if (!glance?.cwd) throw new Error(`${file}: its first lines name no id and cwd`);
  return { head: `${lines.slice(0, 5).join("\n")}\n`, tail: `${lines.slice(-3).join("\n")}\n`, id: glance.id, cwd: glance.cwd };
}

/**
 * Sizes from MIN_BYTES to MAX_BYTES on a log scale, skewed toward small ones (as real homes
 * are: many short sessions, a few long ones) just enough to stay within MAX_TOTAL.
 */
function sizes(count: number): number[] {
  const at = (skew: number) =>
    Array.from({ length: count }, (_, i) => Math.round(MIN_BYTES * (MAX_BYTES / MIN_BYTES) ** ((i / (count - 1)) ** skew)));
  let skew = 1;
  while (at(skew).reduce((a, b) => a + b, 0) > MAX_TOTAL) skew += 0.05;
  return at(skew);
}

/** A sparse session file: the head, a hole, then the tail ending at `bytes`. */
function writeSparse(path: string, head: string, tail: string, bytes: number): number {
  const size = Math.max(bytes, Buffer.byteLength(head) + Buffer.byteLength(tail) + 1);
  const fd = openSync(path, "w");
  try {
    writeSync(fd, head);
    ftruncateSync(fd, size - Buffer.byteLength(tail) - 1);
    writeSync(fd, `\n${tail}`, size - Buffer.byteLength(tail) - 1);
  } finally {
    closeSync(fd);
  }
  return size;
}

/** The name the agent gives a session file. */
function fileName(agent: FileAgentName, id: string, time: Date): string {
  const stamp = time.toISOString().replace(/[:.]/g, "-");
  if (agent === "claude-code") return `${id}.jsonl`;
  if (agent === "codex") return `rollout-${stamp.slice(0, 19)}-${id}.jsonl`;
  return `${stamp}_${id}.jsonl`;
}

/** A deterministic UUID-shaped id for session `n`. */
const idOf = (n: number) => `0b5e55ed-0000-4000-8000-${String(n).padStart(12, "0")}`;

function generateHome(root: string): { projects: string[]; folders: Set<string>; total: number } {
  const home = join(root, "home");
  const projects = Array.from({ length: FOLDERS }, (_, i) => join(root, "projects", `project-${i}`));
  for (const project of projects) mkdirSync(project, { recursive: true });
  const byAgent = new Map(AGENTS.map((agent) => [agent, ends(agent)]));
  const folders = new Set<string>();
  const now = Date.now();
  let total = 0;
  // Interleaved so that every agent and folder gets sizes from the whole range.
  for (const [n, bytes] of sizes(SESSIONS).entries()) {
    const agent = AGENTS[n % AGENTS.length] ?? "pi";
    const source = byAgent.get(agent);
    if (!source) continue;
    const cwd = projects[Math.floor(n / AGENTS.length) % FOLDERS] ?? root;
    const id = idOf(n);
    const time = new Date(now - ((n * 7919) % SESSIONS) * 3_600_000);
    const folder = join(
      ...formatNamed(agent).location.sessionFolder({
        home,
        env: {},
        tmpdir: join(root, "tmp"),
        runFolder: root,
        cwd,
        timestamp: time,
        utcOffsetMinutes: 0,
      }),
    );
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
    const own = (text: string) => text.replaceAll(source.cwd, cwd).replaceAll(source.id, id);
    const path = join(folder, fileName(agent, id, time));
    total += writeSparse(path, own(source.head), own(source.tail), bytes);
    utimesSync(path, time, time);
  }
  return { projects, folders, total };
}

const root = mkdtempSync(join(tmpdir(), "agent-bench-ls-"));
try {
  const { projects, folders, total } = generateHome(root);
  const env = { PATH: process.env.PATH ?? "", HOME: join(root, "home"), TMPDIR: join(root, "tmp"), NO_COLOR: "1" };
  const agent = [process.execPath, join(REPO, "cli", "index.ts"), "ls"];
  const sample = async (cmd: string[], cwd = root) => {
    await timeCommand(cmd, { env, cwd }); // warm the file cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timeCommand(cmd, { env, cwd }));
    return median(times);
  };
  const listedAll = Bun.spawnSync([...agent, "--all", "--json"], { env, cwd: root }).stdout.toString();
  const listed: unknown = JSON.parse(listedAll);
  const count = Array.isArray(listed) ? listed.length : 0;
  const bare = await sample([process.execPath, "-e", "0"]);
  const lsT = await sample(["ls", "-t", ...folders]);
  const all = await sample([...agent, "--all"]);
  const here = await sample([...agent], projects[0]);
  console.log(
    `agent ls (${count} sessions of 4 agents in ${folders.size} folders, ${(total / 1e9).toFixed(2)} GB sparse, ${RUNS} runs, medians)`,
  );
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(34)}${value}`);
  row("bun -e '0' (bare start)", ms(bare));
  row(`ls -t <the ${folders.size} session folders>`, ms(lsT));
  row("agent ls --all", `${ms(all)}   +${ms(all - bare)} over bare startup (target: well under 1 s)`);
  row("agent ls (one project folder)", ms(here));
} finally {
  rmSync(root, { recursive: true, force: true });
}
