/**
 * The SQLite port, on real databases built from the schema the real Codex 0.169.0 makes
 * (fixtures/codex-state/state_5.sql), in every state a user's Codex home is in: the one row is
 * added, exactly as asked, or left out with the reason; no other row ever changes.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codex } from "../../core/session/formats/codex/index.ts";
import type { SessionIndex } from "../../core/index.ts";
import { columnDefaults, createCodexState, threadRows } from "../../fixtures/codex-state.ts";
import { REPO } from "../../fixtures/run-agent.ts";
import { addIndexRow, type IndexOutcome } from "./session-index.ts";

const index = codex.sessionIndex as SessionIndex;
const ID = "3ca016fe-698b-45f9-88b6-1f81b7db7775";
const CWD = "/home/me/app";
const HISTORY = [
  { id: "01a23323-a7bd-7741-bcfb-ed40ef0ac6d8", cwd: CWD, atMs: 1796154304520, prompt: "first task" },
  { id: "01a23323-aece-7d42-a354-9e78d59db8a6", cwd: CWD, atMs: 1796154306390, prompt: "second task" },
];

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "session-index-"));
  db = join(dir, "state_5.sqlite");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function ourRow() {
  const content = codex.renderNewSession({
    wrappedDocument: "<handoff-context>\nthe document\n</handoff-context>",
    sessionId: ID,
    newEntryId: () => "00000000",
    timestamp: new Date("2026-12-01T19:45:08.036Z"),
    utcOffsetMinutes: 0,
    cwd: CWD,
    parentSession: undefined,
    model: { pi: undefined, omp: undefined },
    source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
    acknowledgement: "",
  }).content;
  return index.row({ content, path: join(dir, `rollout-${ID}.jsonl`), modifiedMs: 1796154308710.4, config: undefined });
}

/** Holds the database's write lock from another process for `ms`; resolves once it holds it. */
async function lockFor(path: string, ms: number): Promise<Bun.Subprocess> {
  const holder = Bun.spawn([process.execPath, join(REPO, "fixtures/hold-sqlite-lock.ts"), path, String(ms)], {
    stdout: "pipe",
    stderr: "inherit",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  const reader = holder.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toBe("locked\n");
  reader.releaseLock();
  return holder;
}

/** What is there to compare after: the rows of a database, the bytes of another file, or the kind of thing it is. */
function snapshot(path: string): unknown {
  if (!existsSync(path)) return "nothing";
  if (!statSync(path).isFile()) return "no regular file";
  try {
    return threadRows(path);
  } catch {
    return readFileSync(path);
  }
}

type Expected = "added" | { needless: string } | { leftOut: string };

// [case, how the home's database is made (undefined: none), what becomes of the row]
const STATES: [string, ((path: string) => void) | undefined, Expected][] = [
  ["no database (a fresh home)", undefined, { needless: "there is no database yet" }],
  ["scanned (backfill complete)", (p) => createCodexState(p, { backfill: "complete", threads: HISTORY }), "added"],
  ["no scan mark yet", (p) => createCodexState(p, { threads: HISTORY }), { needless: "has not scanned its sessions yet" }],
  ["a scan not begun", (p) => createCodexState(p, { backfill: "pending", threads: HISTORY }), { needless: "has not scanned" }],
  ["a scan still running", (p) => createCodexState(p, { backfill: "running", threads: HISTORY }), { needless: "has not scanned" }],
  [
    "a newer schema version",
    (p) => createCodexState(p, { backfill: "complete", schemaVersion: 63, threads: HISTORY }),
    { leftOut: "its schema is at version 63, not one tested (62)" },
  ],
  [
    "an older schema version",
    (p) => createCodexState(p, { backfill: "complete", schemaVersion: 61, threads: HISTORY }),
    { leftOut: "its schema is at version 61, not one tested (62)" },
  ],
  [
    "a migration that did not finish",
    (p) => createCodexState(p, { backfill: "complete", failedMigration: true, threads: HISTORY }),
    { leftOut: "its schema is at version unknown (a migration did not finish), not one tested (62)" },
  ],
  [
    "a file that is not a database",
    (p) => writeFileSync(p, "not a database, ".repeat(64)),
    { leftOut: "cannot write to it (file is not a database)" },
  ],
  [
    "an empty database (no tables)",
    (p) => new Database(p, { create: true }).close(),
    { leftOut: "cannot write to it (no such table: _sqlx_migrations)" },
  ],
  ["a folder in its place", (p) => mkdirSync(p), { leftOut: "it is not a regular file" }],
  // SQLite would wait on it for ever.
  ["a pipe in its place", (p) => void Bun.spawnSync(["mkfifo", p]), { leftOut: "it is not a regular file" }],
  [
    "a row with the new session's id already there",
    (p) => createCodexState(p, { backfill: "complete", threads: [...HISTORY, { id: ID, cwd: "/elsewhere", atMs: 1, prompt: "mine" }] }),
    { leftOut: "cannot write to it (UNIQUE constraint failed: threads.id)" },
  ],
];

function expectOutcome(outcome: IndexOutcome, expected: Expected): void {
  if (expected === "added") expect(outcome).toEqual({ added: true });
  else if ("needless" in expected) expect("needless" in outcome && outcome.needless).toContain(expected.needless);
  else expect("leftOut" in outcome && outcome.leftOut).toBe(expected.leftOut);
}

describe("the SQLite port adds the new session's row to Codex's thread index", () => {
  test.each(STATES)("%s", (_, make, expected) => {
    make?.(db);
    const before = snapshot(db);
    const outcome = addIndexRow(db, index, ourRow);
    expectOutcome(outcome, expected);
    if (expected !== "added") {
      expect(snapshot(db)).toEqual(before);
      return;
    }
    const rows = threadRows(db);
    expect<unknown>(rows.filter((row) => row.id !== ID)).toEqual(before);
    expect(rows.map((row) => row.id)).toEqual([...HISTORY.map((h) => h.id), ID].sort());
    expect(rows.find((row) => row.id === ID)).toEqual({ ...columnDefaults(db), ...ourRow().values });
  });

  test("the other rows stay as they were, byte for byte, and ours is the newest of its folder", () => {
    createCodexState(db, { backfill: "complete", threads: HISTORY });
    const before = threadRows(db);
    expect(addIndexRow(db, index, ourRow)).toEqual({ added: true });
    const after = threadRows(db);
    expect(after.filter((row) => row.id !== ID)).toEqual(before);
    const handle = new Database(db, { readonly: true });
    const newest = handle
      .query<{ id: string }, [string]>("SELECT id FROM threads WHERE cwd = ? ORDER BY recency_at_ms DESC LIMIT 1")
      .get(CWD);
    handle.close();
    expect(newest?.id).toBe(ID);
  });

  test("a database another process holds for less than 2 s: waited for, then the row is added", async () => {
    createCodexState(db, { backfill: "complete", threads: HISTORY });
    const holder = await lockFor(db, 500);
    const outcome = addIndexRow(db, index, ourRow);
    await holder.exited;
    expect(outcome).toEqual({ added: true });
    expect(threadRows(db).map((row) => row.id)).toContain(ID);
  });

  test("a database another process holds for more than 2 s: left out, saying so, nothing changed", async () => {
    createCodexState(db, { backfill: "complete", threads: HISTORY });
    const before = threadRows(db);
    const holder = await lockFor(db, 4000);
    const outcome = addIndexRow(db, index, ourRow);
    // It gave up; the holder's other seconds are only there so it outlasts the wait on a busy machine.
    holder.kill();
    await holder.exited;
    expect(outcome).toEqual({ added: false, leftOut: "it stayed locked by another process for 2 s (a Codex writing to it?)" });
    expect(threadRows(db)).toEqual(before);
  });

  test("the row is asked for only once the checks passed (reading the configuration may fail)", () => {
    createCodexState(db, { backfill: "pending" });
    let asked = 0;
    addIndexRow(db, index, () => {
      asked++;
      return ourRow();
    });
    expect(asked).toBe(0);
  });
});
