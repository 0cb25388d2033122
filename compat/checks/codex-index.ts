/**
 * Codex's thread index, against the real Codex: the row `agent handoff` adds for a new rollout
 * (core/session/formats/codex/thread-index.ts) must be the row Codex's own scan makes for the
 * same file, column by column, and the schema the tests build their databases from
 * (fixtures/codex-state/state_5.sql) must be the one this Codex creates. That Codex then lists
 * the row (`--last`, the picker, in a used home) is codex-handoff.ts's.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codex } from "../../core/session/formats/codex/index.ts";
import { CODEX_STATE_SQL, columnDefaults, dumpCodexState, FIXTURE_SCHEMA_VERSION } from "../../fixtures/codex-state.ts";
import type { Agent } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { codexEnv, codexHomeOf, execStart, prepareCodex } from "./codex.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";
import { startHandoffFake } from "./resume.ts";

/** A pi session of the sandbox's project to hand off. */
function source(sandbox: Sandbox): string {
  const lines = readFileSync(join(REPO, "fixtures/sessions/v3-branches.jsonl"), "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes('"type":"session"'));
  lines[index] = JSON.stringify({ ...JSON.parse(lines[index] ?? "{}"), cwd: sandbox.project });
  const path = join(sandbox.project, "source.jsonl");
  writeFileSync(path, lines.join("\n"));
  return path;
}

/** `agent handoff --to codex --json`: the new rollout's path and id. */
async function handOff(sandbox: Sandbox, dns: DnsLog): Promise<{ path: string; id: string }> {
  const run = await runAgent(
    [
      process.execPath,
      join(REPO, "cli/index.ts"),
      "handoff",
      source(sandbox),
      "--to",
      "codex",
      "--engine",
      "offline",
      "--json",
      "--no-record",
    ],
    { cwd: sandbox.project, env: sandbox.env({ CODEX_HOME: codexHomeOf(sandbox) }), timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent handoff --to codex failed: ${describeRun(run)}`);
  const json: { sessionFile?: string; sessionId?: string } = JSON.parse(run.stdout);
  must(json.sessionFile !== undefined && json.sessionId !== undefined, `--json has no session: ${run.stdout.slice(0, 200)}`);
  return { path: json.sessionFile, id: json.sessionId };
}

/** The columns where two rows differ, each with both values, for a failure message. */
function differences(ours: Record<string, unknown>, codexs: Record<string, unknown>): string[] {
  const columns = new Set([...Object.keys(ours), ...Object.keys(codexs)]);
  const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 120);
  return [...columns].filter((c) => ours[c] !== codexs[c]).map((c) => `${c}: ours ${shown(ours[c])}, Codex's ${shown(codexs[c])}`);
}

export async function checkCodexIndex(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const fake = startHandoffFake();
  try {
    await checks.run(agent.name, `its thread index is the schema the tests build (version ${FIXTURE_SCHEMA_VERSION})`, async () => {
      const sandbox = createSandbox("codex-index-schema");
      prepareCodex(sandbox, fake);
      await execStart(agent, dir, sandbox, codexHomeOf(sandbox), "COMPAT-HISTORY: make the index", dns);
      const db = new Database(join(codexHomeOf(sandbox), "state_5.sqlite"), { readonly: true });
      const dump = dumpCodexState(db);
      db.close();
      // Kept with the sandbox when the run fails: the file to commit when this Codex is the one to pin.
      writeFileSync(join(sandbox.tmp, "state_5.sql"), dump);
      must(
        dump === readFileSync(CODEX_STATE_SQL, "utf8"),
        `it differs from fixtures/codex-state/state_5.sql; this Codex's is ${join(sandbox.tmp, "state_5.sql")}`,
      );
      return undefined;
    });
    await checks.run(
      agent.name,
      "the row agent handoff adds is the row its own scan makes for the same rollout, column by column",
      async () => {
        // A fresh home: no index yet, so agent adds nothing and Codex's first scan makes the row.
        const sandbox = createSandbox("codex-index-row");
        prepareCodex(sandbox, fake);
        const written = await handOff(sandbox, dns);
        const elsewhere = join(sandbox.tmp, "elsewhere");
        mkdirSync(elsewhere);
        const run = await runAgent(
          [join(dir, agent.bin), "exec", "--skip-git-repo-check", "--json", "COMPAT-HISTORY: scan"],
          { cwd: elsewhere, env: codexEnv(sandbox), timeoutMs: 120_000 },
          dns,
        );
        must(run.exitCode === 0, describeRun(run));
        const database = join(codexHomeOf(sandbox), "state_5.sqlite");
        const db = new Database(database, { readonly: true });
        const codexs = db.query<Record<string, unknown>, [string]>("SELECT * FROM threads WHERE id = ?").get(written.id);
        db.close();
        must(codexs !== null, "Codex's scan made no row for the new rollout");
        const config = Bun.TOML.parse(readFileSync(join(codexHomeOf(sandbox), "config.toml"), "utf8"));
        const content = readFileSync(written.path, "utf8");
        const row = codex.sessionIndex?.row({ content, path: written.path, modifiedMs: statSync(written.path).mtimeMs, config });
        must(row !== undefined, "the Codex format declares no thread index");
        const ours = { ...columnDefaults(database), ...row.values };
        const differ = differences(ours, codexs);
        must(differ.length === 0, `they differ: ${differ.join("; ")}`);
        return `${Object.keys(codexs).length} columns`;
      },
    );
  } finally {
    await fake.stop();
  }
}
