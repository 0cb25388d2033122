/**
 * End-to-end `agent handoff` of the shared 1 MB session with the compiled binary, against a fake
 * endpoint on 127.0.0.1 that answers at once, side by side with its `--no-redact` twin, the dry
 * runs and a bare `bun -e 0`. The rounds are interleaved (each round runs every row once, in a
 * turned order), so a neighbour's burst of load falls on every row alike; each row is the median.
 * Every run has a scratch HOME of its own. Beside the wall time, each row's CPU time (user and
 * system, of the process alone): on a shared machine it moves far less with the neighbours' load.
 * Targets (issue 23): the handoff ≤ 50 ms, a redacted dry run ≤ 1.2× an unredacted one.
 * BENCH_BEFORE=path adds an older build's handoff and dry runs to the same rounds, and each
 * figure now as a share of its figure then: a before/after measured under the same load. Several
 * paths, comma-separated (one build per step of a change), add each build's rows, named by its file.
 *
 *   bun run build && bun bench/handoff.ts      (BENCH_RUNS=9 to change the rounds, BENCH_BINARY=path another build)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";
import { median, ms } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const REPO = join(import.meta.dir, "..");
const SESSIONS = join(REPO, "..", "shared", "sessions");
const SESSION = join(SESSIONS, "large-session.jsonl");
// BENCH_BINARY: another build to measure (an older one, for a before/after).
// Each run has its scratch HOME as its cwd: a relative path is taken from where the bench was started.
const BINARY = process.env.BENCH_BINARY ? resolve(process.env.BENCH_BINARY) : join(REPO, "dist", "agent");
const BEFORE = (process.env.BENCH_BEFORE ?? "")
  .split(",")
  .filter((path) => path !== "")
  .map((path) => resolve(path));

if (!existsSync(SESSION)) {
  console.log(`handoff bench skipped: ${SESSION} is not here (the shared sessions live beside the checkout, in ../shared/sessions)`);
  process.exit(0);
}
if (!existsSync(BINARY)) {
  console.log(`handoff bench skipped: ${BINARY} is not built (bun run build first)`);
  process.exit(0);
}
const missing = BEFORE.find((path) => !existsSync(path));
if (missing !== undefined) {
  console.log(`handoff bench skipped: BENCH_BEFORE ${missing} is not there`);
  process.exit(1);
}

const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
const dir = mkdtempSync(join(tmpdir(), "agent-bench-"));
let n = 0;

/** A scratch HOME for one run: nothing of one run's config, lock or output is seen by the next. */
function scratchHome(): string {
  const home = join(dir, `home-${n++}`);
  mkdirSync(home);
  return home;
}

const handoff = (exe: string[], home: string, extra: string[]) => [
  ...exe,
  "handoff",
  SESSION,
  "--context-window",
  "400000",
  "--no-record",
  "-q",
  "-o",
  join(home, "out.jsonl"),
  ...extra,
];
const dryRun = (extra: string[], binary = BINARY) => [binary, "handoff", SESSION, "--context-window", "400000", "--dry-run", ...extra];

interface Row {
  label: string;
  command(home: string): string[];
}

const ROWS = {
  bare: { label: "bun -e 0 (bare start)", command: () => [process.execPath, "-e", "0"] },
  handoff: { label: "handoff (dist/agent)", command: (home) => handoff([BINARY], home, []) },
  handoffNoRedact: { label: "handoff --no-redact", command: (home) => handoff([BINARY], home, ["--no-redact"]) },
  dry: { label: "dry run", command: () => dryRun([]) },
  dryNoRedact: { label: "dry run --no-redact", command: () => dryRun(["--no-redact"]) },
  source: {
    label: "handoff (bun cli/index.ts)",
    command: (home) => handoff([process.execPath, join(REPO, "cli", "index.ts")], home, []),
  },
} satisfies Record<string, Row>;
type RowName = keyof typeof ROWS;
/** An older build's row: the row of this build it is compared with. */
interface BeforeRow extends Row {
  now: RowName;
}
/** Each older build's rows, named by the build's file when there are several. */
const BEFORE_ROWS: Record<string, BeforeRow> = Object.fromEntries(
  BEFORE.flatMap((binary) => {
    const name = BEFORE.length === 1 ? "before" : `before ${basename(binary)}`;
    const rows: [string, BeforeRow][] = [
      [`${name}: handoff`, { label: `${name}: handoff`, now: "handoff", command: (home) => handoff([binary], home, []) }],
      [
        `${name}: handoff --no-redact`,
        { label: `${name}: handoff --no-redact`, now: "handoffNoRedact", command: (home) => handoff([binary], home, ["--no-redact"]) },
      ],
      [`${name}: dry run`, { label: `${name}: dry run`, now: "dry", command: () => dryRun([], binary) }],
      [
        `${name}: dry run --no-redact`,
        { label: `${name}: dry run --no-redact`, now: "dryNoRedact", command: () => dryRun(["--no-redact"], binary) },
      ],
    ];
    return rows;
  }),
);
const ALL_ROWS: Record<string, Row> = { ...ROWS, ...BEFORE_ROWS };
type Name = string;
const NAMES = Object.keys(ALL_ROWS);

interface Sample {
  wall: number;
  cpu: number;
}

async function run(name: Name): Promise<Sample> {
  const home = scratchHome();
  const env = { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: server.url };
  const cmd = (ALL_ROWS[name] as Row).command(home);
  const started = performance.now();
  const proc = Bun.spawn(cmd, { env, cwd: home, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  const wall = performance.now() - started;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}:\n${stderr}`);
  const usage = proc.resourceUsage();
  const cpu = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 : Number.NaN;
  return { wall, cpu };
}

try {
  for (const name of NAMES) await run(name); // warm the file cache, and check that every row runs
  const times = Object.fromEntries(NAMES.map((name) => [name, [] as Sample[]])) as Record<string, Sample[]>;
  for (let round = 0; round < RUNS; round++) {
    // Turn the order each round: no row always runs right after the same one.
    for (let i = 0; i < NAMES.length; i++) {
      const name = NAMES[(round + i) % NAMES.length] ?? "";
      times[name]?.push(await run(name));
    }
  }
  const samples = (name: Name): Sample[] => times[name] ?? [];
  const m = (name: Name) => median(samples(name).map((t) => t.wall));
  const cpu = (name: Name) => median(samples(name).map((t) => t.cpu));
  const ratio = (a: Name, b: Name) => `${(m(a) / m(b)).toFixed(2)}×`;
  console.log(`handoff of large-session.jsonl (1 MB), --context-window 400000, ${RUNS} interleaved rounds, medians`);
  const labelWidth = Math.max(28, ...NAMES.map((name) => (ALL_ROWS[name] as Row).label.length));
  for (const name of NAMES) {
    const walls = samples(name).map((t) => t.wall);
    const spread = `${ms(Math.min(...walls))}–${ms(Math.max(...walls))}`;
    console.log(
      `  ${(ALL_ROWS[name] as Row).label.padEnd(labelWidth)} ${ms(m(name)).padStart(9)}   cpu ${ms(cpu(name)).padStart(9)}   (wall ${spread})`,
    );
  }
  const fast = m("handoff") <= 50;
  const even = m("dry") / m("dryNoRedact") <= 1.2;
  console.log(`  handoff ${ms(m("handoff"))} (target ≤ 50 ms) ${fast ? "ok" : "MISSED"}; ${ratio("handoff", "bare")} bun -e 0`);
  console.log(`  handoff / handoff --no-redact ${ratio("handoff", "handoffNoRedact")}`);
  console.log(`  dry run / dry run --no-redact ${ratio("dry", "dryNoRedact")} (target ≤ 1.2×) ${even ? "ok" : "MISSED"}`);
  console.log(
    `  cpu: handoff / bun -e 0 ${(cpu("handoff") / cpu("bare")).toFixed(2)}×, dry run / --no-redact ${(cpu("dry") / cpu("dryNoRedact")).toFixed(2)}×`,
  );
  for (const [name, row] of Object.entries(BEFORE_ROWS))
    console.log(
      `  now / ${name.padEnd(labelWidth)} wall ${(m(row.now) / m(name)).toFixed(2)}×, cpu ${(cpu(row.now) / cpu(name)).toFixed(2)}×`,
    );
  const [load1, load5] = loadavg();
  console.log(`  load average at the end: ${load1?.toFixed(2)} (1 min), ${load5?.toFixed(2)} (5 min) on ${availableParallelism()} cores`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
