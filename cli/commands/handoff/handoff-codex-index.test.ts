/**
 * `agent handoff --to codex` in a Codex home that Codex has already used (its thread index
 * `state_5.sqlite` exists and its first scan is done): the new rollout gets its row, after the
 * file, so `codex resume --last` and the picker list it first; when the row cannot be added, one
 * warning says so and the handoff still succeeds. Spawned as a user runs it, HOME of its own.
 * (compat/checks/codex-index.ts proves with the real Codex that it then lists the session.)
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODEX_STATE_SQL, createCodexState, threadRows } from "../../../fixtures/codex-state.ts";
import { cleanEnv, REPO, runAgent, type AgentRun } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";
import { CLI_ARGV } from "../../../fixtures/built-cli.ts";

const sandbox = useHandoffSandbox();
const CWD = "/home/me/parser";
const HISTORY = [
  { id: "01a23323-a7bd-7741-bcfb-ed40ef0ac6d8", cwd: CWD, atMs: 1796154304520, prompt: "first task" },
  { id: "01a23323-aece-7d42-a354-9e78d59db8a6", cwd: CWD, atMs: 1796154306390, prompt: "second task" },
];
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

const codexHome = () => join(sandbox.home, ".codex");
const database = () => join(codexHome(), "state_5.sqlite");

/** A Codex home that Codex has used: its configuration and a scanned thread index holding two threads of the source's folder. */
function usedHome(config = 'model = "gpt-5"\n', backfill: "complete" | "pending" = "complete"): void {
  mkdirSync(codexHome(), { recursive: true });
  writeFileSync(join(codexHome(), "config.toml"), config);
  createCodexState(database(), { backfill, threads: HISTORY });
}

async function handOff(...extra: string[]): Promise<AgentRun & { json: { sessionFile: string; sessionId: string } | undefined }> {
  const run = await runAgent(
    ["handoff", sandbox.source(), "--to", "codex", "--engine", "offline", "--json", ...extra],
    cleanEnv(sandbox.home),
  );
  return { ...run, json: run.code === 0 && run.stdout.startsWith("{") ? JSON.parse(run.stdout) : undefined };
}

const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("warning:"));

/** The one warning a row left out gives: what went wrong, what will not show the session, and what opens it. */
const leftOut = (reason: string, id: string) =>
  `warning: ${database()}: ${reason}; the new session was not added to Codex's thread index, so \`codex resume --last\` and its picker will not show it; \`codex resume ${id}\` opens it`;

function newest(cwd: string): { id: string; rollout_path: string; updated_at_ms: number; model_provider: string } | null {
  const db = new Database(database(), { readonly: true });
  try {
    return db
      .query<{ id: string; rollout_path: string; updated_at_ms: number; model_provider: string }, [string]>(
        "SELECT id, rollout_path, updated_at_ms, model_provider FROM threads WHERE cwd = ? AND archived = 0 ORDER BY recency_at_ms DESC, id DESC LIMIT 1",
      )
      .get(cwd);
  } finally {
    db.close();
  }
}

describe("agent handoff --to codex in a used Codex home", () => {
  test("adds the new rollout's row, after the file, as the newest thread of its folder; the other rows stay as they were", async () => {
    usedHome();
    const before = threadRows(database());
    const run = await handOff();
    expect(run.code).toBe(0);
    expect(warnings(run.stderr)).toEqual([]);
    const { sessionFile, sessionId } = run.json ?? { sessionFile: "", sessionId: "" };
    expect(newest(CWD)).toEqual({
      id: sessionId,
      rollout_path: sessionFile,
      // Written after the file's last change: the time it lists by is the file's own.
      updated_at_ms: Math.floor(statSync(sessionFile).mtimeMs),
      model_provider: "openai",
    });
    const after = threadRows(database());
    expect(after.filter((row) => row.id !== sessionId)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
  });

  // [case, config.toml, the provider the row names]
  const PROVIDERS: [string, string, string][] = [
    ["no provider configured", 'model = "gpt-5"\n', "openai"],
    ["a provider of the user's own", 'model_provider = "fake"\n[model_providers.fake]\nname = "fake"\n', "fake"],
    ["a profile's provider", 'model_provider = "fake"\nprofile = "work"\n[profiles.work]\nmodel_provider = "azure"\n', "azure"],
  ];
  test.each(PROVIDERS)("names the provider Codex lists sessions under: %s", async (_, config, provider) => {
    usedHome(config);
    const run = await handOff();
    expect(run.code).toBe(0);
    expect(newest(CWD)).toMatchObject({ id: run.json?.sessionId, model_provider: provider });
  });

  // [case, config.toml, the environment's extra variables]: Codex's database placed elsewhere.
  const PLACES: [string, (dir: string) => string, (dir: string) => Record<string, string>][] = [
    ["sqlite_home in config.toml", (dir) => `sqlite_home = "${dir}"\n`, () => ({})],
    ["CODEX_SQLITE_HOME", () => "", (dir) => ({ CODEX_SQLITE_HOME: dir })],
    // As Codex reads them: `~/` is HOME, a relative path lies in Codex's home (the config file's folder).
    ["sqlite_home = ~/codex-db", () => 'sqlite_home = "~/codex-db"\n', () => ({})],
    ["sqlite_home relative to Codex's home", () => 'sqlite_home = "../codex-db"\n', () => ({})],
    ["CODEX_SQLITE_HOME with blanks around it", () => "", (dir) => ({ CODEX_SQLITE_HOME: ` ${dir} ` })],
  ];
  test.each(PLACES)("a thread index Codex keeps elsewhere (%s): the row goes there", async (_, config, vars) => {
    const elsewhere = join(sandbox.home, "codex-db");
    mkdirSync(elsewhere);
    mkdirSync(codexHome(), { recursive: true });
    writeFileSync(join(codexHome(), "config.toml"), config(elsewhere));
    createCodexState(join(elsewhere, "state_5.sqlite"), { backfill: "complete", threads: HISTORY });
    const args = ["handoff", sandbox.source(), "--to", "codex", "--engine", "offline", "--json"];
    const run = await runAgent(args, cleanEnv(sandbox.home, vars(elsewhere)));
    expect(run.code).toBe(0);
    expect(warnings(run.stderr)).toEqual([]);
    expect(threadRows(join(elsewhere, "state_5.sqlite")).map((row) => row.id)).toContain(JSON.parse(run.stdout).sessionId);
    expect(existsSync(database())).toBe(false);
  });

  test.each(["", "  "])("CODEX_SQLITE_HOME=%j is not set: the row goes in Codex's home", async (blank) => {
    usedHome();
    const args = ["handoff", sandbox.source(), "--to", "codex", "--engine", "offline", "--json"];
    const run = await runAgent(args, cleanEnv(sandbox.home, { CODEX_SQLITE_HOME: blank }));
    expect(run.code).toBe(0);
    expect(warnings(run.stderr)).toEqual([]);
    expect(threadRows(database()).map((row) => row.id)).toContain(JSON.parse(run.stdout).sessionId);
  });

  test("--dry-run writes nothing: no rollout, no row", async () => {
    usedHome();
    const before = threadRows(database());
    const files = readdirSync(codexHome()).sort();
    const run = await runAgent(["handoff", sandbox.source(), "--to", "codex", "--engine", "offline", "--dry-run"], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(threadRows(database())).toEqual(before);
    expect(readdirSync(codexHome()).sort()).toEqual(files);
  });

  test("-o elsewhere: the file is written, no row (Codex cannot open it there)", async () => {
    usedHome();
    const before = threadRows(database());
    const out = join(sandbox.dir, "rollout-2026-12-01T10-00-00-0c0de000-1000-4000-8000-000000000001.jsonl");
    const run = await handOff("-o", out);
    expect(run.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(threadRows(database())).toEqual(before);
  });

  test("-o into Codex's own folder: a row when the name is a rollout's carrying the id, none for another name", async () => {
    usedHome();
    const day = join(codexHome(), "sessions", "2026", "12", "01");
    mkdirSync(day, { recursive: true });
    const id = "0c0de000-1000-4000-8000-000000000001";
    const named = await handOff("-o", join(day, `rollout-2026-12-01T10-00-00-${id}.jsonl`));
    expect(named.code).toBe(0);
    expect(newest(CWD)).toMatchObject({ id, rollout_path: join(day, `rollout-2026-12-01T10-00-00-${id}.jsonl`) });
    const before = threadRows(database());
    const other = await handOff("-o", join(day, "handoff.jsonl"));
    expect(other.code).toBe(0);
    expect(threadRows(database())).toEqual(before);
  });

  test("a fresh home (no thread index) or one not scanned yet: no row and no database made; Codex's scan finds the file", async () => {
    const fresh = await handOff();
    expect(fresh.code).toBe(0);
    expect(existsSync(database())).toBe(false);
    usedHome(undefined, "pending");
    const before = threadRows(database());
    const run = await handOff("-v");
    expect(run.code).toBe(0);
    expect(warnings(run.stderr)).toEqual([]);
    expect(run.stderr).toContain("not added to Codex's thread index: the agent has not scanned its sessions yet");
    expect(threadRows(database())).toEqual(before);
  });

  test("a thread index that is not a database: one warning, and the handoff succeeds", async () => {
    mkdirSync(codexHome(), { recursive: true });
    writeFileSync(database(), "not a database, ".repeat(64));
    const run = await handOff();
    expect(run.code).toBe(0);
    expect(existsSync(run.json?.sessionFile ?? "")).toBe(true);
    expect(warnings(run.stderr)).toEqual([leftOut("cannot write to it (file is not a database)", run.json?.sessionId ?? "")]);
  });

  test("a thread index at a schema version not tested: one warning, the row left out", async () => {
    mkdirSync(codexHome(), { recursive: true });
    createCodexState(database(), { backfill: "complete", schemaVersion: 63, threads: HISTORY });
    const before = threadRows(database());
    const run = await handOff();
    expect(run.code).toBe(0);
    expect(warnings(run.stderr)).toEqual([leftOut("its schema is at version 63, not one tested (62)", run.json?.sessionId ?? "")]);
    expect(threadRows(database())).toEqual(before);
  });

  test("a configuration Codex could not read either: one warning naming it, the row left out", async () => {
    usedHome('model_provider = "fake\n');
    const before = threadRows(database());
    const run = await handOff();
    expect(run.code).toBe(0);
    const config = join(codexHome(), "config.toml");
    const [warning = ""] = warnings(run.stderr);
    expect(warnings(run.stderr)).toHaveLength(1);
    expect(warning).toStartWith(`warning: ${config}: cannot read it (TOML Parse error: `);
    expect(warning).toEndWith(leftOut("", run.json?.sessionId ?? "").slice(`warning: ${database()}: `.length));
    expect(threadRows(database())).toEqual(before);
  });

  test("a thread index another process keeps locked past 2 s: one warning, the row left out", async () => {
    usedHome();
    const before = threadRows(database());
    const holder = Bun.spawn([process.execPath, join(REPO, "fixtures/hold-sqlite-lock.ts"), database(), "6000"], {
      stdout: "pipe",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("locked\n");
    const run = await handOff();
    // It gave up; the holder's other seconds are only there so it outlasts the wait on a busy machine.
    holder.kill();
    await holder.exited;
    expect(run.code).toBe(0);
    expect(warnings(run.stderr)).toEqual([
      leftOut("it stayed locked by another process for 2 s (a Codex writing to it?)", run.json?.sessionId ?? ""),
    ]);
    expect(threadRows(database())).toEqual(before);
  });

  test("a thread index the user cannot write (root's, after `sudo codex`): one warning, the handoff succeeds", async () => {
    usedHome();
    const before = threadRows(database());
    const env = cleanEnv(sandbox.home, { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" });
    let run: AgentRun;
    if (isRoot) {
      // Root writes any file: the CLI runs as nobody, in folders nobody may write, the database root's.
      for (const dir of [sandbox.dir, sandbox.home, codexHome()]) chmodSync(dir, 0o777);
      const source = sandbox.source();
      chownSync(source, NOBODY, NOBODY);
      const argv = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", ...CLI_ARGV];
      const proc = Bun.spawn([...argv, "handoff", source, "--to", "codex", "--engine", "offline", "--json"], {
        env,
        cwd: REPO,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      run = { stdout, stderr, code };
    } else {
      for (const file of readdirSync(codexHome()).filter((name) => name.startsWith("state_5"))) chmodSync(join(codexHome(), file), 0o444);
      run = await runAgent(["handoff", sandbox.source(), "--to", "codex", "--engine", "offline", "--json"], env);
    }
    expect(run.code).toBe(0);
    const json: { sessionFile: string; sessionId: string } = JSON.parse(run.stdout);
    expect(existsSync(json.sessionFile)).toBe(true);
    const found = warnings(run.stderr);
    if (isRoot) expect(found).toEqual([leftOut("cannot write to it (attempt to write a readonly database)", json.sessionId)]);
    else {
      // SQLite may refuse at the open or at the write, as the file system has it.
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^warning: .*state_5\.sqlite: cannot (?:open|write to) it \(/);
      expect(found[0]).toEndWith(leftOut("", json.sessionId).slice(`warning: ${database()}: `.length));
    }
    expect(threadRows(database())).toEqual(before);
  });
});

test("the fixture is the schema the real Codex made (a file compat compares)", () => {
  expect(existsSync(CODEX_STATE_SQL)).toBe(true);
});
