/**
 * Two builds, the same results: runs an older binary and a newer one on the same sessions (the
 * shared 1 MB and 2 MB sessions, a few fixtures of each agent) and compares, byte for byte, what
 * a user and an endpoint see: each request body the fake endpoint receives, stdout and stderr,
 * the written session, the dry run's output, the offline engine's document. A speed-up must not
 * change any of them. Ids and times a run makes up are the only things that differ between two
 * runs of one build; they are replaced by placeholders, in the order they first appear, before
 * comparing. Not part of `bun run bench`: a check to run before and after a change.
 *
 *   bun bench/same-output.ts <old binary> [new binary=dist/agent]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";

const REPO = join(import.meta.dir, "..");
const SHARED = join(REPO, "..", "shared", "sessions");
const [oldArg, newArg = join(REPO, "dist", "agent")] = process.argv.slice(2);
if (oldArg === undefined) {
  console.log("usage: bun bench/same-output.ts <old binary> [new binary=dist/agent]");
  process.exit(2);
}
const BUILDS = [resolve(oldArg), resolve(newArg)];
for (const build of BUILDS) if (!existsSync(build)) throw new Error(`${build} is not there`);

const SESSIONS = [
  join(SHARED, "large-session.jsonl"),
  join(SHARED, "before-compaction.jsonl"),
  "fixtures/sessions/secrets.jsonl",
  "fixtures/sessions/planted-facts.jsonl",
  "fixtures/sessions/v3-branches.jsonl",
  "fixtures/sessions/omp.jsonl",
  "fixtures/real/pi/session.jsonl",
  "fixtures/real/omp/session.jsonl",
  "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
  "fixtures/sessions/claude-code/compaction.jsonl",
  "fixtures/real/codex/rollout.jsonl",
  "fixtures/sessions/codex/exec-outcomes.jsonl",
  "fixtures/sessions/codex/compaction.jsonl",
  "fixtures/real/gemini/session-2026-12-03T05-52-ac74b73f.jsonl",
  "fixtures/sessions/gemini/session-2025-09-18T02-45-3b44bc68.json",
].map((path) => resolve(REPO, path));

/** The variants each session runs through: flags after `handoff <session>`. */
const VARIANTS: { name: string; flags: string[]; writes: boolean; key?: string }[] = [
  { name: "handoff", flags: ["--context-window", "400000"], writes: true },
  { name: "handoff --no-redact", flags: ["--context-window", "400000", "--no-redact"], writes: true },
  { name: "handoff condensed", flags: ["--context-window", "24000"], writes: true },
  { name: "handoff --json -f", flags: ["--context-window", "400000", "--json", "-f", "the tests"], writes: true },
  { name: "handoff --to pi", flags: ["--context-window", "400000", "--to", "pi"], writes: true },
  { name: "handoff --to codex", flags: ["--context-window", "400000", "--to", "codex"], writes: true },
  { name: "dry run", flags: ["--context-window", "400000", "--dry-run"], writes: false },
  { name: "dry run --no-redact", flags: ["--context-window", "400000", "--dry-run", "--no-redact"], writes: false },
  { name: "dry run condensed", flags: ["--context-window", "24000", "--dry-run"], writes: false },
  { name: "offline", flags: ["--engine", "offline"], writes: true },
  // A key the sessions hold (as a word, and inside paths and tool arguments): withheld wherever it is.
  { name: "handoff, key file", flags: ["--context-window", "400000"], writes: true, key: "file" },
  { name: "dry run, key import", flags: ["--context-window", "400000", "--dry-run"], writes: false, key: "import" },
];

/** Ids and times a run makes up, each replaced by its first appearance's number. */
const MADE_UP =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d\d-\d\dT\d\d[:-]\d\d[:-]\d\d(?:\.\d+)?Z?|\b1[78]\d{11}\b|\b[0-9a-f]{8}\b/gi;
function normal(text: string, home: string): string {
  const seen = new Map<string, number>();
  return text.replaceAll(home, "<home>").replace(MADE_UP, (found) => {
    if (!seen.has(found)) seen.set(found, seen.size);
    return `<made-up ${seen.get(found)}>`;
  });
}

const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
const dir = mkdtempSync(join(tmpdir(), "agent-same-"));
let n = 0;

/** One run of one build: everything it showed, as one text. */
async function outcome(binary: string, session: string, flags: string[], writes: boolean, key = "sk-bench"): Promise<string> {
  const home = join(dir, `home-${n++}`);
  mkdirSync(home);
  const out = join(home, "out.jsonl");
  const env = { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", OPENAI_API_KEY: key, OPENAI_BASE_URL: server.url };
  const cmd = [binary, "handoff", session, "--no-record", ...flags, ...(writes ? ["-o", out] : [])];
  const before = server.requests.length;
  const proc = Bun.spawn(cmd, { env, cwd: home, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const bodies = server.requests.slice(before).map((request) => JSON.stringify(request.body));
  const written = existsSync(out) ? readFileSync(out, "utf8") : "(nothing written)";
  const parts = [`exit ${code}`, `stdout:\n${stdout}`, `stderr:\n${stderr}`, ...bodies.map((body, i) => `request ${i}:\n${body}`)];
  return normal([...parts, `written:\n${written}`].join("\n---\n"), home);
}

let differ = 0;
let same = 0;
try {
  for (const session of SESSIONS)
    for (const variant of VARIANTS) {
      const [was, now] = [
        await outcome(BUILDS[0] as string, session, variant.flags, variant.writes, variant.key),
        await outcome(BUILDS[1] as string, session, variant.flags, variant.writes, variant.key),
      ];
      if (was === now) {
        same++;
        continue;
      }
      differ++;
      const at = [...was].findIndex((char, i) => char !== now[i]);
      console.log(`DIFFERS: ${basename(session)}, ${variant.name}, from character ${at}:`);
      console.log(`  was: ${JSON.stringify(was.slice(Math.max(0, at - 80), at + 160))}`);
      console.log(`  now: ${JSON.stringify(now.slice(Math.max(0, at - 80), at + 160))}`);
    }
  console.log(
    `${same} runs the same, ${differ} differ (${SESSIONS.length} sessions × ${VARIANTS.length} variants, ${basename(BUILDS[0] as string)} against ${basename(BUILDS[1] as string)})`,
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(differ === 0 ? 0 : 1);
