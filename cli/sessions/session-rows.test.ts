import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentError, FORMATS, type NewRow, type Row, type SessionRowStore } from "../../core/index.ts";
import { HANDOFF_ACKNOWLEDGEMENT } from "../../core/session/formats/handoff-text.ts";
import { everyRow, realOpencodeDatabase } from "../../fixtures/opencode-db.ts";
import { listRowSessions, projectPlace, readRowSession, writeRowSession } from "./session-rows.ts";

const REPO = join(import.meta.dir, "../..");
const REAL = join(REPO, "fixtures/real/opencode");
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "session-rows-"));
  made.push(dir);
  return dir;
}

/** Every format that keeps its sessions as rows: the port is tested on each. */
const STORES = FORMATS.flatMap((format) => (format.rows ? [[format.name, format.rows] as const] : []));
const store = STORES[0]?.[1] as SessionRowStore;

const realDatabase = (dir = scratch()) => realOpencodeDatabase(join(dir, "opencode.db"));
const everything = everyRow;

let entry = 0;
function newRows(cwd = "/tmp/agent-compat/plain"): { rows: NewRow[]; sessionId: string } {
  const made = store.newRows(
    {
      wrappedDocument: "<handoff-context>\nThe work so far.\n</handoff-context>",
      acknowledgement: HANDOFF_ACKNOWLEDGEMENT,
      sessionId: "unused",
      newEntryId: () => (++entry).toString(16).padStart(8, "0"),
      timestamp: new Date("2026-12-03T06:00:00Z"),
      utcOffsetMinutes: 0,
      cwd,
      parentSession: undefined,
      model: { pi: undefined, omp: undefined },
      source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
    },
    { root: undefined, cached: undefined },
  );
  if ("refused" in made) throw new Error(made.refused);
  return made;
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

function failure(run: () => unknown): AgentError {
  try {
    run();
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error("it did not fail");
}

test("every store in the format table is tested here (opencode's)", () => {
  expect(STORES.map(([name]) => name)).toEqual(["opencode"]);
});

describe("reading", () => {
  test("leaves the database's folder as it found it: no -wal or -shm made, every byte the same", () => {
    const dir = scratch();
    const path = realDatabase(dir);
    const before = readFileSync(path);
    expect(readdirSync(dir)).toEqual(["opencode.db"]);
    readRowSession(path, store, "ses_dc59a6705ffeTUmLklH2hW4FHH");
    listRowSessions(path, store, () => true);
    expect(readdirSync(dir)).toEqual(["opencode.db"]);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
  test("the real session reads by id as its recorded rows read (the same SQL order and columns)", () => {
    const session = readRowSession(realDatabase(), store, "ses_dc59a6705ffeTUmLklH2hW4FHH");
    const recorded = JSON.parse(readFileSync(join(REAL, "session.json"), "utf8")) as Record<string, Row[]>;
    const fromJson = store.read(recorded, "x");
    expect([session.format, session.header.cwd, session.problems, session.entries.length]).toEqual([
      "opencode",
      "/tmp/agent-compat/opencode-transcript/project",
      [],
      10,
    ]);
    expect(session.entries.map((e) => e.data)).toEqual(fromJson.entries.map((e) => e.data));
  });
  test("an id the database does not hold, and a database that is not there, are one line each", () => {
    const path = realDatabase();
    expect(failure(() => readRowSession(path, store, "ses_ffffffffffffAAAAAAAAAAAAAA")).message).toBe(
      `${path}: opencode's database holds no session ses_ffffffffffffAAAAAAAAAAAAAA`,
    );
    const missing = join(scratch(), "opencode.db");
    expect(failure(() => readRowSession(missing, store, "ses_x")).message).toBe(
      `${missing}: opencode's database does not exist (it is made the first time the agent runs)`,
    );
    expect(listRowSessions(missing, store)).toEqual([]);
  });
  test("listed: the recorded session, with its folder, title and time", () => {
    expect(listRowSessions(realDatabase(), store)).toEqual([
      {
        id: "ses_dc59a6705ffeTUmLklH2hW4FHH",
        cwd: "/tmp/agent-compat/opencode-transcript/project",
        title: "Listing the files",
        updatedMs: 1796276132018,
        root: true,
        parent: undefined,
        bytes: undefined,
        // Its messages as recorded (fixtures/real/opencode/session.json).
        messages: (JSON.parse(readFileSync(join(REAL, "session.json"), "utf8")) as Record<string, Row[]>).message?.length,
      },
    ]);
  });
  test("listed with its size when asked: the bytes of its messages' and parts' JSON (UTF-8), and a child session with its parent", () => {
    const path = realDatabase();
    const recorded = JSON.parse(readFileSync(join(REAL, "session.json"), "utf8")) as Record<string, Row[]>;
    const accented = JSON.stringify({ type: "text", text: "déjà vu" });
    const bytes = ["message", "part"]
      .flatMap((table) => recorded[table] ?? [])
      .reduce((sum, row) => sum + Buffer.byteLength(String(row.data)), Buffer.byteLength(accented));
    const db = new Database(path);
    const [session] = recorded.session ?? [];
    const [message] = recorded.message ?? [];
    db.query("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_zz', ?, ?, 1, 1, ?)").run(
      String(message?.id),
      String(session?.id),
      accented,
    );
    db.query(
      "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, 'child', ?, 'é task', '1.18.33', 1, 2)",
    ).run("ses_dc59a6705ffeCHILDCHILDCHIL", String(session?.project_id), String(session?.id), String(session?.directory));
    db.close();
    const listed = listRowSessions(path, store, (row) => row.root);
    expect(listed.map((row) => [row.id, row.root, row.parent, row.bytes])).toEqual([
      ["ses_dc59a6705ffeTUmLklH2hW4FHH", true, undefined, bytes],
      ["ses_dc59a6705ffeCHILDCHILDCHIL", false, "ses_dc59a6705ffeTUmLklH2hW4FHH", undefined],
    ]);
    expect(bytes).toBeGreaterThan(1000);
  });
});

describe("writing a new session", () => {
  test("its rows go in, and every row that was there stays as it was", () => {
    const path = realDatabase();
    const before = everything(path);
    const { rows, sessionId } = newRows();
    writeRowSession(path, store, rows);
    const after = everything(path);
    for (const [table, old] of Object.entries(before)) expect(after[table]?.slice(0, old.length)).toEqual(old);
    const added = Object.entries(after).flatMap(([table, all]) => all.slice(before[table]?.length).map(() => table));
    expect(added.sort()).toEqual(["message", "message", "part", "part", "project", "session"]);
    const session = readRowSession(path, store, sessionId);
    expect(session.entries.map((e) => e.type)).toEqual(["custom_message", "message"]);
  });

  test("a project the database already has is not written again", () => {
    const path = realDatabase();
    writeRowSession(path, store, newRows().rows);
    writeRowSession(path, store, newRows().rows);
    expect(everything(path).project?.filter((p) => (p as Row).id === "global")).toHaveLength(1);
  });

  test.each([
    [
      "a newer schema",
      (db: Database) => db.query("INSERT INTO migration (id, time_completed) VALUES ('20991231000000_later', 1)").run(),
      "20991231000000_later",
    ],
    ["no migration at all", (db: Database) => db.exec("DELETE FROM migration"), "null"],
    ["no migration table", (db: Database) => db.exec("DROP TABLE migration"), "unreadable (no such table: migration)"],
  ] as const)("%s: refused in one line, nothing written, nothing read", (_, change, version) => {
    const path = realDatabase();
    const db = new Database(path);
    change(db);
    db.close();
    const before = everything(path);
    const error = failure(() => writeRowSession(path, store, newRows().rows));
    expect([error.code, error.message.split("\n").length]).toEqual(["HANDOFF_FAILED", 1]);
    expect(error.message).toStartWith(`${path}: opencode's database is at schema version ${version}, not one tested (`);
    expect(everything(path)).toEqual(before);
    expect(failure(() => readRowSession(path, store, "ses_dc59a6705ffeTUmLklH2hW4FHH")).message).toContain("not one tested");
  });

  test("a row the database refuses (a session id it has) undoes every row before it", () => {
    const path = realDatabase();
    const { rows } = newRows();
    const clash = rows.map((row) =>
      row.table === "session" ? { ...row, values: { ...row.values, id: "ses_dc59a6705ffeTUmLklH2hW4FHH" } } : row,
    );
    const before = everything(path);
    const error = failure(() => writeRowSession(path, store, clash));
    expect(error.message).toStartWith(
      `${path}: cannot write the new session into opencode's database: UNIQUE constraint failed: session.id`,
    );
    expect(everything(path)).toEqual(before);
  });

  test("a database locked past 2 s: one line after the wait, nothing written", async () => {
    const path = realDatabase();
    const before = everything(path);
    const holder = await lockFor(path, 4000);
    const started = performance.now();
    const error = failure(() => writeRowSession(path, store, newRows().rows));
    const waited = performance.now() - started;
    // It gave up; the holder's other seconds are only there so it outlasts the wait on a busy machine.
    holder.kill();
    await holder.exited;
    expect(error.message).toBe(
      `${path}: cannot write the new session into opencode's database: it stayed locked by another process for 2 s (the agent writing to it?); try again once it is done`,
    );
    expect(waited).toBeGreaterThanOrEqual(1900);
    expect(waited).toBeLessThan(3900);
    expect(everything(path)).toEqual(before);
  }, 20_000);

  test("a lock released within the wait: the rows go in once it is", async () => {
    const path = realDatabase();
    const holder = await lockFor(path, 500);
    const { rows, sessionId } = newRows();
    writeRowSession(path, store, rows);
    await holder.exited;
    expect(readRowSession(path, store, sessionId).entries).toHaveLength(2);
  }, 20_000);
});

describe("the folder's project", () => {
  test.each([
    ["no repository above", [], "a/b", { root: undefined, cached: undefined }],
    ["a repository opencode opened: its cached id", [".git/opencode=67dd51a5"], "", { root: "", cached: "67dd51a5" }],
    ["a folder deep inside it", [".git/opencode=67dd51a5", "a/b/"], "a/b", { root: "", cached: "67dd51a5" }],
    ["a repository opencode never opened", [".git/HEAD=ref"], "a", { root: "", cached: undefined }],
    ["a nested repository: the nearest", [".git/opencode=outer", "a/.git/opencode=inner"], "a", { root: "a", cached: "inner" }],
    ["a linked worktree (.git a file): no cached id in it", [".git=gitdir: /elsewhere"], "", { root: "", cached: undefined }],
  ] as const)("%s", (_, files, at, expected) => {
    const dir = scratch();
    for (const spec of files) {
      const [file, text] = spec.split("=");
      if (file?.endsWith("/")) mkdirSync(join(dir, file), { recursive: true });
      else {
        mkdirSync(join(dir, file ?? "", ".."), { recursive: true });
        writeFileSync(join(dir, file ?? ""), text ?? "");
      }
    }
    mkdirSync(join(dir, at), { recursive: true });
    const place = projectPlace(join(dir, at), store);
    // A folder above the scratch one may be a repository: only the part below it is the test's.
    expect(
      expected.root === undefined ? place.root === undefined || !place.root.startsWith(dir) : place.root === join(dir, expected.root),
    ).toBe(true);
    expect(expected.root === undefined ? undefined : place.cached).toBe(expected.cached);
  });
});
