/**
 * Hostile input through the real CLI: writes files no unit test should (a 100 MB line, a million
 * lines, a million-deep array, raw binary) into a temp folder and runs `agent inspect --json` and
 * `agent handoff --dry-run` on each, reporting exit code, wall time and peak memory.
 * A bench, not a test: `bun bench/hostile.ts` (HOSTILE_MB=20 for a quicker run).
 * Fails (exit 1) when a run exits outside the documented codes, prints a stack trace, or leaves
 * a file behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPO = join(import.meta.dir, "..");
const MB = Number(process.env.HOSTILE_MB ?? 100);
const SIZE = MB * 1024 * 1024;
const DOCUMENTED_EXITS = new Set([0, 2, 3]);
const TIME = "/usr/bin/time";
const RSS_MARK = "agent-bench-maxrss-kb=";

const header =
  '{"type":"session","version":3,"id":"0b5e55ed-0000-4000-8000-000000000000","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/home/me/app"}';
const entry = (id: string, parentId: string | null, message: string): string =>
  `{"type":"message","id":"${id}","parentId":${JSON.stringify(parentId)},"timestamp":"2026-11-29T10:01:00.000Z","message":${message}}`;
const user = (text: string): string => `{"role":"user","content":${JSON.stringify(text)},"timestamp":1764410460000}`;
const assistantCall = (args: string): string =>
  `{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":${args}}],"provider":"openai","model":"gpt-5","stopReason":"toolUse","timestamp":1764410470000}`;
const toolResult =
  '{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1764410480000}';
const reply =
  '{"role":"assistant","content":[{"type":"text","text":"Done."}],"provider":"openai","model":"gpt-5","stopReason":"stop","timestamp":1764410490000}';

/** A small valid conversation around one big or odd message. */
function conversation(middle: string): string {
  return `${header}\n${entry("a1", null, user("start"))}\n${entry("a2", "a1", middle)}\n${entry("a3", "a2", reply)}\n`;
}

function chain(count: number, line: (i: number, parent: string | null) => string): string {
  const lines = [header];
  for (let i = 0; i < count; i++) lines.push(line(i, i === 0 ? null : `e${i - 1}`));
  return `${lines.join("\n")}\n`;
}

function randomBytes(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** The text as UTF-8, with every U+FFFD (EF BF BD) turned into three bytes that are not UTF-8. */
function invalidUtf8(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) bytes.set([0xff, 0xc0, 0x80], i);
  }
  return bytes;
}

const FILES: [name: string, make: () => string | Uint8Array][] = [
  [`${MB} MB single line, not JSON, no newline`, () => "a".repeat(SIZE)],
  [`${MB} MB header line (a huge cwd)`, () => `${header.replace('"/home/me/app"', JSON.stringify(`/${"d".repeat(SIZE)}`))}\n`],
  [`${MB} MB user message on one line`, () => conversation(user(`lorem ipsum password=hunter22 `.repeat(SIZE / 30)))],
  [`${MB} MB user message, torn (no closing brace)`, () => conversation(user("x".repeat(SIZE))).slice(0, -40)],
  [`${MB} MB of raw random bytes`, () => randomBytes(SIZE, 7)],
  [`${Math.max(1, MB / 10)} MB of NUL bytes`, () => new Uint8Array((SIZE / 10) | 0)],
  // A Codex event the pass-over walks without parsing: every escape of its one string must cost one look, not one search to its end.
  [
    `${MB} MB Codex event line of escapes`,
    () =>
      [
        '{"timestamp":"2026-11-30T12:00:00.000Z","type":"session_meta","payload":{"id":"0b5e55ed-0000-4000-8000-000000000001","timestamp":"2026-11-30T12:00:00.000Z","cwd":"/home/me/app","originator":"codex_cli_rs","cli_version":"0.169.0"}}',
        '{"timestamp":"2026-11-30T12:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"start"}]}}',
        `{"timestamp":"2026-11-30T12:00:02.000Z","type":"event_msg","payload":{"type":"agent_message_delta","delta":"${"\\t".repeat(SIZE / 2)}"}}`,
        "",
      ].join("\n"),
  ],
  ["1,000,000-deep array line after the header", () => `${header}\n${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}\n`],
  [
    "tool-call arguments nested 1,000,000 deep",
    () =>
      conversation(assistantCall(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`)).replace(
        entry("a3", "a2", reply),
        `${entry("r", "a2", toolResult)}\n${entry("a3", "r", reply)}`,
      ),
  ],
  [
    "1,500,000 entries without ids",
    () => `${header}\n${'{"type":"message","message":{"role":"user","content":"hi"}}\n'.repeat(1_500_000)}`,
  ],
  ["1,500,000 lines of broken JSON", () => `${header}\n${'{"type":"message",\n'.repeat(1_500_000)}`],
  ["300,000-entry parent chain", () => chain(300_000, (i, parent) => entry(`e${i}`, parent, user(`step ${i}`)))],
  ["300,000 entries in one parent cycle", () => chain(300_000, (i) => entry(`e${i}`, `e${(i + 1) % 300_000}`, user("loop")))],
  ["200,000 entries sharing one id", () => chain(200_000, () => entry("same", "same", user("dup")))],
  ["header repeated 500,000 times", () => `${header}\n`.repeat(500_000)],
  // Each found secret is replaced wherever it recurs: one scan per text, however many were found.
  [
    "100,000 distinct passwords, each recurring bare",
    () =>
      chain(100_000, (i, parent) =>
        entry(
          `e${i}`,
          parent,
          user(`password=Pw${i}-${(i * 7919).toString(36)}x, later: Pw${Math.max(0, i - 1)}-${(Math.max(0, i - 1) * 7919).toString(36)}x`),
        ),
      ),
  ],
  ["invalid UTF-8 in every message", () => invalidUtf8(chain(100_000, (i, parent) => entry(`e${i}`, parent, user("\uFFFD ok"))))],
];

interface Row {
  file: string;
  command: string;
  exit: number;
  ms: number;
  rssMb: number;
  stderr: string;
  ok: boolean;
}

async function run(args: string[], cwd: string, home: string): Promise<Omit<Row, "file" | "command" | "ok"> & { stack: boolean }> {
  const started = performance.now();
  // An explicit environment: no real key, no network beyond the loopback the dry run never uses.
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    NO_COLOR: "1",
    OPENAI_API_KEY: "sk-hostile-bench",
    OPENAI_BASE_URL: "http://127.0.0.1:9",
  };
  // Peak memory through GNU time: a child's own maxRSS would include this process's pages at fork.
  const timed = existsSync(TIME) ? [TIME, "-f", `${RSS_MARK}%M`] : [];
  const proc = Bun.spawn([...timed, process.execPath, join(REPO, "cli", "index.ts"), ...args], {
    cwd,
    env,
    stdout: "ignore",
    stderr: "pipe",
  });
  const [output, exit] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - started;
  const rssKb = Number(/^agent-bench-maxrss-kb=(\d+)$/m.exec(output)?.[1] ?? Number.NaN);
  const stderr = output.replace(/^agent-bench-maxrss-kb=\d+\n?/m, "");
  return {
    exit,
    ms,
    rssMb: rssKb / 1024,
    stderr,
    stack: /^\s+at .+:\d+:\d+\)?$/m.test(stderr) || stderr.includes("unexpected internal error"),
  };
}

const root = mkdtempSync(join(tmpdir(), "agent-hostile-"));
// Files under test in one folder (anything else appearing there is a leftover); HOME apart.
const dir = join(root, "work");
const home = join(root, "home");
mkdirSync(dir);
mkdirSync(home);
const rows: Row[] = [];
try {
  for (const [name, make] of FILES) {
    const file = join(dir, "hostile.jsonl");
    writeFileSync(file, make());
    for (const args of [
      ["inspect", "--json", "hostile.jsonl"],
      ["handoff", "--dry-run", "hostile.jsonl"],
    ]) {
      const result = await run(args, dir, home);
      const leftovers = readdirSync(dir).filter((f) => f !== "hostile.jsonl");
      const ok = DOCUMENTED_EXITS.has(result.exit) && !result.stack && leftovers.length === 0;
      const firstLine =
        leftovers.length > 0 ? `left behind: ${leftovers.join(", ")}` : (result.stderr.split("\n").find((l) => l.trim() !== "") ?? "");
      rows.push({
        file: name,
        command: args.slice(0, 2).join(" "),
        exit: result.exit,
        ms: result.ms,
        rssMb: result.rssMb,
        stderr: firstLine,
        ok,
      });
      const row = rows.at(-1);
      if (row) {
        console.log(
          `${row.ok ? "ok  " : "FAIL"} ${row.file.padEnd(46)} ${row.command.padEnd(17)} exit ${String(row.exit).padStart(3)} ` +
            `${(row.ms / 1000).toFixed(2).padStart(7)} s ${Number.isNaN(row.rssMb) ? "     ?" : row.rssMb.toFixed(0).padStart(6)} MB  ${row.stderr.slice(0, 110)}`,
        );
      }
      for (const leftover of leftovers) rmSync(join(dir, leftover), { recursive: true, force: true });
    }
    rmSync(file, { force: true });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const failed = rows.filter((r) => !r.ok);
console.log(`\n${rows.length} runs, ${failed.length} failed`);
process.exitCode = failed.length > 0 ? 1 : 0;
