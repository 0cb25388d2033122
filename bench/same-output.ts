/**
 * Whether two builds hand off the shared 1 MB session alike: the request body the endpoint
 * receives, byte for byte, and the new session file, byte for byte once its fresh ids and times
 * are masked (each run makes its own). For a change meant to be faster only (issue 23).
 *
 *   bun bench/same-output.ts <before binary> [after binary = dist/agent] [extra handoff flags…]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";

const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "large-session.jsonl");
const [beforeArg, ...rest] = process.argv.slice(2);
// The second build is optional: what follows the first that starts with "-" is a handoff flag.
const afterArg = rest[0]?.startsWith("-") ? undefined : rest[0];
const extra = afterArg === undefined ? rest : rest.slice(1);
if (beforeArg === undefined) {
  console.log("usage: bun bench/same-output.ts <before binary> [after binary] [extra handoff flags…]");
  process.exit(2);
}
const builds = [resolve(beforeArg), resolve(afterArg ?? join(REPO, "dist", "agent"))];

// The fake's replies, with each request's body kept as it came on the wire.
const fake = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
const bodies: string[] = [];
const raw = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const body = await req.text();
    bodies.push(`${req.method} ${new URL(req.url).pathname}\n${body}`);
    const target = new URL(req.url);
    return fetch(`${fake.url.replace(/\/v1$/, "")}${target.pathname}`, {
      method: req.method,
      headers: req.headers,
      body: body || undefined,
    });
  },
});

/** Ids and times a run makes afresh: UUIDs, entry ids (8 hex digits), ISO times, epoch milliseconds, its HOME. */
const mask = (text: string, home: string) =>
  text
    .split(home)
    .join("<home>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>")
    .replace(/"[0-9a-f]{8}"/g, '"<id>"')
    .replace(/\b1[6-9]\d{11}\b/g, "<ms>");

const dir = mkdtempSync(join(tmpdir(), "agent-same-"));
try {
  const outputs: { body: string; session: string; stdout: string }[] = [];
  for (const [i, binary] of builds.entries()) {
    const home = join(dir, `home-${i}`);
    mkdirSync(home);
    const out = join(home, "out.jsonl");
    const sent = bodies.length;
    const proc = Bun.spawn([binary, "handoff", SESSION, "--context-window", "400000", "--no-record", "-q", "-o", out, ...extra], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        NO_COLOR: "1",
        OPENAI_API_KEY: "sk-bench",
        OPENAI_BASE_URL: `http://127.0.0.1:${raw.port}/v1`,
      },
      cwd: home,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`${binary} exited ${code}:\n${stderr}`);
    const session = extra.includes("--dry-run") ? "" : readFileSync(out, "utf8");
    outputs.push({ body: bodies.slice(sent).join("\n"), session: mask(session, home), stdout: mask(stdout, home) });
  }
  const [before, after] = outputs;
  let same = true;
  for (const key of ["body", "session", "stdout"] as const) {
    const equal = before?.[key] === after?.[key];
    same &&= equal;
    console.log(`${key.padEnd(8)} ${equal ? "same" : "DIFFERENT"} (${before?.[key].length} and ${after?.[key].length} characters)`);
  }
  process.exitCode = same ? 0 : 1;
} finally {
  raw.stop(true);
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
}
