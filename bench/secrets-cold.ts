/**
 * The secrets guard as one handoff meets it: cold, once, in a fresh `bun` process per round
 * (bench/redact.ts times it warm, in one process). Each round reads and analyses the 1 MB
 * session (untimed, it only warms what the handoff has warmed by then), then times
 * `guard.outgoing()` (the key `sk-bench` withheld, as bench/handoff.ts configures it) and
 * `guard.forDocument(facts, cwd)`. Medians of the rounds, this tree and another ref's `core/`
 * (default `lead`, extracted with `git archive`) interleaved, so both see the same noise.
 *
 *   bun bench/secrets-cold.ts [rounds=15] [before ref=lead]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, ms } from "./stats.ts";

const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "large-session.jsonl");
const [roundsArg = "15", ref = "lead"] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);

/** One round in this process: what a child prints (JSON), for the core under `root`. */
async function child(root: string): Promise<void> {
  const [{ readSession }, { analyzeBranch }, { createSecretsGuard }] = await Promise.all([
    import(join(root, "core/session/formats/read.ts")),
    import(join(root, "core/session/analyze.ts")),
    import(join(root, "core/secrets/secrets-guard.ts")),
  ]);
  const { session } = readSession(readFileSync(SESSION, "utf8"), SESSION);
  const analysis = analyzeBranch(session);
  const facts = analysis.facts;
  const guard = createSecretsGuard({ context: analysis.context, withheld: ["sk-bench"] });
  const started = performance.now();
  guard.outgoing();
  const outgoing = performance.now() - started;
  const documented = performance.now();
  guard.forDocument(facts, session.header.cwd);
  const forDocument = performance.now() - documented;
  console.log(JSON.stringify({ outgoing, forDocument }));
}

if (process.env.SECRETS_COLD_ROOT !== undefined) {
  await child(process.env.SECRETS_COLD_ROOT);
} else {
  if (!existsSync(SESSION)) {
    console.log(`skipped: ${SESSION} is not here`);
    process.exit(0);
  }
  const before = mkdtempSync(join(tmpdir(), "secrets-cold-"));
  execFileSync("sh", ["-c", 'git -C "$0" archive "$1" core | tar -x -C "$2"', REPO, ref, before], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const roots = { [ref]: before, now: REPO };
  const times: Record<string, { outgoing: number[]; forDocument: number[] }> = {};
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, root] of Object.entries(roots)) {
        const proc = Bun.spawnSync([process.execPath, import.meta.path], { env: { ...process.env, SECRETS_COLD_ROOT: root } });
        if (proc.exitCode !== 0) throw new Error(`${name}: ${proc.stderr.toString()}`);
        const { outgoing, forDocument } = JSON.parse(proc.stdout.toString());
        const row = times[name] ?? { outgoing: [], forDocument: [] };
        times[name] = row;
        row.outgoing.push(outgoing);
        row.forDocument.push(forDocument);
      }
    }
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  console.log(`secrets guard, cold (${ROUNDS} rounds, medians): outgoing, forDocument`);
  for (const [name, row] of Object.entries(times))
    console.log(`  ${name.padEnd(10)} ${ms(median(row.outgoing)).padStart(10)} ${ms(median(row.forDocument)).padStart(10)}`);
}
