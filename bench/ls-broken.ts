/**
 * `agent ls` and a no-path `agent handoff --dry-run` beside broken Codex rollouts: 1,000 sparse
 * files whose first line never ends (a `session_meta` cut off, then a hole of 16 MB), next to
 * 1,000 ordinary rollouts (the real one's lines around a hole). Codex keeps rollouts by date, not
 * by folder, so every one is glanced at whatever the folder. A glance reads a first line once and
 * gives it up past 256 KiB (issue 22 A4: the broken files once cost 8 MB each, twice, 15-20 s in
 * all). Median of BENCH_RUNS runs; the home is deleted at the end.
 *
 *   bun bench/ls-broken.ts      (BENCH_RUNS=5, LS_BROKEN=1000 to change the runs or the count)
 */
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, utimesSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, ms, timeCommand } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const COUNT = Number(process.env.LS_BROKEN ?? 1000);
const SPARSE_BYTES = 16 * 1024 * 1024;
const REPO = join(import.meta.dir, "..");
const ROLLOUT = readFileSync(join(REPO, "fixtures/real/codex/rollout.jsonl"), "utf8");
const REAL_ID = "01a22c83-ffcf-7703-8435-2c3998d6a9a2";
const REAL_CWD = "/tmp/agent-compat/codex-transcript/project";

/** `head`, a hole up to `size` less `tail`, then `tail`. */
function writeSparse(path: string, head: string, size: number, tail: string): void {
  const fd = openSync(path, "w");
  try {
    writeSync(fd, head);
    ftruncateSync(fd, size - Buffer.byteLength(tail));
    if (tail !== "") writeSync(fd, tail, size - Buffer.byteLength(tail));
  } finally {
    closeSync(fd);
  }
}

const idOf = (kind: number, n: number) => `0b5e55ed-000${kind}-4000-8000-${String(n).padStart(12, "0")}`;

function generateHome(root: string, project: string, other: string): void {
  const lines = ROLLOUT.trimEnd().split("\n");
  const day = join(root, "home", ".codex", "sessions", "2026", "11", "30");
  mkdirSync(day, { recursive: true });
  const first = lines[0] ?? "";
  for (let n = 0; n < COUNT; n++) {
    // An ordinary rollout of another folder, then a broken one (newest), and one of the project (oldest).
    for (const [kind, cwd, broken] of [
      [1, other, false],
      [2, other, true],
    ] as const) {
      const id = idOf(kind, n);
      const own = (text: string) => text.replaceAll(REAL_ID, id).replaceAll(REAL_CWD, cwd);
      const path = join(day, `rollout-2026-11-30T12-52-57-${id}.jsonl`);
      if (broken) writeSparse(path, own(first).slice(0, -40), SPARSE_BYTES, "");
      else writeSparse(path, `${own(lines.slice(0, 6).join("\n"))}\n`, SPARSE_BYTES, `\n${own(lines.slice(-3).join("\n"))}\n`);
      const time = new Date(Date.UTC(2026, 10, 30, 12) + n * 1000 + kind);
      utimesSync(path, time, time);
    }
  }
  const mine = join(day, `rollout-2026-11-30T10-00-00-${idOf(3, 0)}.jsonl`);
  writeSparse(mine, ROLLOUT.replaceAll(REAL_ID, idOf(3, 0)).replaceAll(REAL_CWD, project), ROLLOUT.length, "");
}

const root = mkdtempSync(join(tmpdir(), "agent-bench-ls-broken-"));
try {
  const project = join(root, "project");
  const other = join(root, "other");
  mkdirSync(project);
  mkdirSync(other);
  generateHome(root, project, other);
  const env = { PATH: process.env.PATH ?? "", HOME: join(root, "home"), TMPDIR: join(root, "tmp"), NO_COLOR: "1" };
  mkdirSync(env.TMPDIR);
  const agent = [process.execPath, join(REPO, "cli", "index.ts")];
  const sample = async (cmd: string[], cwd: string) => {
    await timeCommand(cmd, { env, cwd }); // warm the file cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timeCommand(cmd, { env, cwd }));
    return median(times);
  };
  const bare = await sample([process.execPath, "-e", "0"], root);
  const ls = await sample([...agent, "ls"], project);
  const all = await sample([...agent, "ls", "--all"], project);
  const handoff = await sample([...agent, "handoff", "--dry-run", "-q"], project);
  console.log(`agent ls beside broken Codex rollouts (${COUNT} ordinary, ${COUNT} whose first line never ends, ${RUNS} runs, medians)`);
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(40)}${value}`);
  row("bun -e '0' (bare start)", ms(bare));
  row("agent ls (a folder with one session)", ms(ls));
  row("agent ls --all", ms(all));
  row("agent handoff --dry-run (no path)", ms(handoff));
} finally {
  rmSync(root, { recursive: true, force: true });
}
