/**
 * `bun run bench quality`: hands off the planted-facts session and the graded sessions of
 * fixtures/offline/ through a real model and reports, per session, the share of its planted
 * facts (paths, commands, the user's rules, the last request) the model's own sections kept.
 * It runs only when a base URL and a key are given (OPENAI_BASE_URL, OPENAI_API_KEY; the model
 * from AGENT_MODEL, the provider from AGENT_PROVIDER) and never in CI: it spends money.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { formatScore, plantedFacts, scoreDocument, type Score } from "./quality-score.ts";

const REPO = join(import.meta.dir, "..");

/** Who writes a session's document: the real CLI here, a fake in the test. */
export type Engine = (sessionFile: string) => Promise<{ document: string } | { error: string }>;

export interface SessionResult {
  name: string;
  score?: Score;
  error?: string;
}

/** The sessions measured: the one with planted facts, and the graded ones. */
export function qualitySessions(): string[] {
  const graded = join(REPO, "fixtures", "offline");
  const gradedFiles = readdirSync(graded)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => join(graded, f));
  return [join(REPO, "fixtures", "sessions", "planted-facts.jsonl"), ...gradedFiles];
}

/** One session after another: a real endpoint's rate limits, and a readable order. */
export async function measureQuality(files: readonly string[], engine: Engine): Promise<SessionResult[]> {
  const results: SessionResult[] = [];
  for (const file of files) {
    const name = basename(file, ".jsonl");
    const result = await engine(file);
    results.push(
      "error" in result
        ? { name, error: result.error }
        : { name, score: scoreDocument(result.document, plantedFacts(readFileSync(file, "utf8"))) },
    );
  }
  return results;
}

export function formatQuality(results: readonly SessionResult[]): string {
  const lines = results.flatMap((r) => (r.score ? formatScore(r.name, r.score) : [`${r.name}: HANDOFF FAILED: ${r.error}`]));
  const scored = results.flatMap((r) => (r.score ? [r.score] : []));
  const kept = scored.reduce((n, s) => n + s.kept.length, 0);
  const all = scored.reduce((n, s) => n + s.kept.length + s.missed.length, 0);
  const failed = results.length - scored.length;
  lines.push(
    "",
    `total: ${kept}/${all} planted facts kept (${all === 0 ? 100 : Math.round((kept / all) * 100)}%) over ${scored.length} sessions; ${failed} failed`,
  );
  return lines.join("\n");
}

/** The CLI as a user runs it, against the configured endpoint; nothing recorded, the new session in a temp folder. */
export function cliEngine(env: Record<string, string | undefined>): Engine {
  return async (sessionFile) => {
    const work = mkdtempSync(join(tmpdir(), "bench-quality-"));
    try {
      const pass = ["OPENAI_API_KEY", "OPENAI_BASE_URL", "AGENT_MODEL", "AGENT_PROVIDER"].flatMap((k) => (env[k] ? [[k, env[k]]] : []));
      const childEnv = { PATH: env.PATH ?? "", HOME: work, TMPDIR: work, NO_COLOR: "1", ...Object.fromEntries(pass) };
      const args = ["handoff", sessionFile, "--engine", "llm", "--json", "--no-record", "--no-facts", "-o", join(work, "next.jsonl")];
      // The built binary (or the sources with AGENT_TEST_CLI=source): fixtures/built-cli.ts.
      const { CLI_ARGV } = await import("../fixtures/built-cli.ts");
      const proc = Bun.spawn([...CLI_ARGV, ...args], { cwd: REPO, env: childEnv, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) return { error: stderr.trim().split("\n").at(-1) || `exit ${code}` };
      const report: unknown = JSON.parse(stdout);
      const document =
        typeof report === "object" && report !== null && "document" in report && typeof report.document === "string" ? report.document : "";
      return { document };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
}

/** Why the bench does not run here, or `undefined` when it may. */
export function skipReason(env: Record<string, string | undefined>): string | undefined {
  if (env.CI) return "bench quality: skipped in CI (it calls a real model)";
  if (!env.OPENAI_BASE_URL || !env.OPENAI_API_KEY)
    return "bench quality: skipped; set OPENAI_BASE_URL and OPENAI_API_KEY (and AGENT_MODEL) to measure a real model";
  return undefined;
}

if (import.meta.main) {
  const skip = skipReason(process.env);
  if (skip) console.log(skip);
  else {
    console.log(`bench quality: ${process.env.AGENT_MODEL ?? "the default model"} at the configured endpoint`);
    console.log(formatQuality(await measureQuality(qualitySessions(), cliEngine(process.env))));
  }
}
