/**
 * The secrets guard as one handoff meets it: cold, once per process, compiled as the CLI is
 * (`--compile --bytecode --minify`). bench/redact.ts times it warm, in one process. Each round's
 * binary reads and analyses the 1 MB session (untimed), then times `guard.outgoing()` (the key
 * `sk-bench` withheld, as bench/handoff.ts configures it) and `guard.forDocument(facts, cwd)`.
 * Medians of the rounds: wall time, and the process's CPU time (the regex and JIT threads too;
 * a neighbour's load moves it less). This tree beside another ref's `core/` (default `lead`,
 * extracted with `git archive`), the rounds interleaved so both see the same load.
 *
 *   bun bench/secrets-cold.ts [rounds=21] [before ref=lead]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, ms } from "./stats.ts";

const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "large-session.jsonl");
const [roundsArg = "21", ref = "lead"] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);

/** The program each round runs, for the core under `root`. */
function entry(root: string): string {
  return `
import { readFileSync } from "node:fs";
import { readSession } from ${JSON.stringify(join(root, "core/session/formats/read.ts"))};
import { analyzeBranch } from ${JSON.stringify(join(root, "core/session/analyze.ts"))};
import { createSecretsGuard } from ${JSON.stringify(join(root, "core/secrets/secrets-guard.ts"))};
const file = process.argv[2];
const { session } = readSession(readFileSync(file, "utf8"), file);
const analysis = analyzeBranch(session);
const facts = analysis.facts;
const guard = createSecretsGuard({ context: analysis.context, withheld: ["sk-bench"] });
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const started = performance.now();
const cpuStarted = cpu();
guard.outgoing();
const outgoing = performance.now() - started;
const outgoingCpu = cpu() - cpuStarted;
const documented = performance.now();
guard.forDocument(facts, session.header.cwd);
console.log(JSON.stringify({ outgoing, outgoingCpu, forDocument: performance.now() - documented }));
`;
}

if (!existsSync(SESSION)) {
  console.log(`skipped: ${SESSION} is not here`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "secrets-cold-"));
try {
  const before = join(dir, "before");
  execFileSync("sh", ["-c", 'mkdir "$3" && git -C "$0" archive "$1" core | tar -x -C "$2"', REPO, ref, before, before], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const binaries: Record<string, string> = {};
  for (const [name, root] of [
    [ref, before],
    ["now", REPO],
  ] as const) {
    const source = join(dir, `${name}-entry.ts`);
    writeFileSync(source, entry(root));
    const binary = join(dir, `${name}-bin`);
    execFileSync(process.execPath, ["build", source, "--compile", "--bytecode", "--minify", "--format=esm", "--outfile", binary], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    binaries[name] = binary;
  }
  const times: Record<string, { outgoing: number[]; outgoingCpu: number[]; forDocument: number[] }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, binary] of Object.entries(binaries)) {
      const proc = Bun.spawnSync([binary, SESSION]);
      if (proc.exitCode !== 0) throw new Error(`${name}: ${proc.stderr.toString()}`);
      const { outgoing, outgoingCpu, forDocument } = JSON.parse(proc.stdout.toString());
      const row = times[name] ?? { outgoing: [], outgoingCpu: [], forDocument: [] };
      times[name] = row;
      row.outgoing.push(outgoing);
      row.outgoingCpu.push(outgoingCpu);
      row.forDocument.push(forDocument);
    }
  }
  console.log(`secrets guard, cold, compiled (${ROUNDS} rounds, medians): outgoing (wall, cpu), forDocument (wall)`);
  for (const [name, row] of Object.entries(times)) {
    const figures = [row.outgoing, row.outgoingCpu, row.forDocument].map((values) => ms(median(values)).padStart(10));
    console.log(`  ${name.padEnd(10)} ${figures.join(" ")}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
