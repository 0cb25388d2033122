/**
 * The one port for sessions that are rows in an agent's own database rather than files of their
 * own (core/session/formats/session-rows.ts; opencode's SQLite database), with Bun's
 * `bun:sqlite`. It reads one session, lists them, finds the folder facts a new session's rows
 * need, and writes a new session in one transaction that takes the write lock first (waiting up
 * to 2 s for another writer, a running agent) and checks the schema version before any row:
 * either every row is in, or none is. No other row is ever changed, and such a session is never
 * recorded into.
 */
import type { Database } from "bun:sqlite";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  AgentError,
  errorMessage,
  type ListedSession,
  type NewRow,
  type ProjectPlace,
  type Row,
  type AgentHome,
  type SessionFormat,
  type Session,
  type SessionRowStore,
} from "../../core/index.ts";
import { builtin } from "../io/builtins.ts";
import { errorCode } from "../io/fs-errors.ts";
import { asField } from "../output/terminal.ts";
import { joinSegments } from "./agent-home.ts";

/** A session found as rows of its agent's database (by `agent handoff --session ses_…`, `agent inspect`), to be read by id. */
export interface RowSessionRef {
  database: string;
  format: SessionFormat & { rows: SessionRowStore };
  id: string;
}

/** How long a write lock another process holds is waited for (an agent writing its own database). */
export const BUSY_WAIT_MS = 2000;

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A connection that reads and cannot write (`query_only`), opened read-write all the same where
 * it may be: a read-only connection to a database in WAL mode (opencode's) creates its `-wal` and
 * `-shm` files when the agent is not running and leaves them behind, while the last read-write
 * connection to close removes them, so reading leaves the agent's folder as it was. (A running
 * agent holds those files itself.) Where the file may not be written, a read-only connection.
 */
function openForReading(Sqlite: typeof Database, path: string): Database {
  try {
    const db = new Sqlite(path, { readwrite: true, create: false });
    db.exec("PRAGMA query_only = ON");
    return db;
  } catch {
    return new Sqlite(path, { readonly: true });
  }
}

/** Opens the database at `path` as it is (never creating it); throws one line naming it when it cannot. */
function open(path: string, store: SessionRowStore, write: boolean): Database {
  if (!existsSync(path))
    throw new AgentError("FILE", `${asField(path)}: ${store.label} does not exist (it is made the first time the agent runs)`, {
      file: path,
    });
  // SQLite would take a pipe or a device for a database and wait on it for ever.
  if (!statSync(path).isFile()) throw new AgentError("FILE", `${asField(path)}: ${store.label} is not a regular file`, { file: path });
  try {
    const { Database: Sqlite } = builtin("bun:sqlite");
    const db = write ? new Sqlite(path, { readwrite: true, create: false }) : openForReading(Sqlite, path);
    db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    return db;
  } catch (error) {
    throw new AgentError("FILE", `${asField(path)}: cannot open ${store.label} (${errorMessage(error)})`, { file: path });
  }
}

/** Why SQLite refused, in one line naming the database. */
function sqliteFailure(path: string, store: SessionRowStore, error: unknown, doing: string): AgentError {
  if (error instanceof AgentError) return error;
  const code = errorCode(error);
  const why =
    code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")
      ? `it stayed locked by another process for ${BUSY_WAIT_MS / 1000} s (the agent writing to it?); try again once it is done`
      : errorMessage(error);
  return new AgentError("HANDOFF_FAILED", `${asField(path)}: cannot ${doing} ${store.label}: ${why}`, { file: path });
}

/** Throws unless the database is at a schema version the store was tested with. */
function checkVersion(db: Database, path: string, store: SessionRowStore): void {
  let version: unknown;
  try {
    version = db.query<{ version: unknown }, []>(store.schemaVersionSql).get()?.version ?? null;
  } catch (error) {
    version = `unreadable (${errorMessage(error)})`;
  }
  if (typeof version === "string" && store.testedSchemaVersions.includes(version)) return;
  throw new AgentError(
    "HANDOFF_FAILED",
    `${asField(path)}: ${store.label} is at schema version ${String(version)}, not one tested (${store.testedSchemaVersions.join(", ")}); a newer or older agent may keep its sessions otherwise, so it is left alone`,
    { file: path },
  );
}

/** One session of the store, read into the common model; throws one line when the database or the session cannot be read. */
export function readRowSession(path: string, store: SessionRowStore, sessionId: string): Session {
  const db = open(path, store, false);
  try {
    checkVersion(db, path, store);
    const rows: Record<string, Row[]> = {};
    for (const [name, sql] of Object.entries(store.readSql)) rows[name] = db.query<Row, [string]>(sql).all(sessionId);
    if ((Object.values(rows)[0] ?? []).length === 0)
      throw new AgentError("NOT_A_SESSION", `${asField(path)}: ${store.label} holds no session ${sessionId}`, { file: path });
    return store.read(rows, path);
  } catch (error) {
    throw sqliteFailure(path, store, error, "read");
  } finally {
    db.close();
  }
}

/**
 * Every session the store lists, newest first; empty when there is no database yet. The size of
 * each that `sized` keeps is read too (the sessions listed, not every one the database holds).
 */
export function listRowSessions(
  path: string,
  store: SessionRowStore,
  sized: (session: ListedSession) => boolean = () => false,
): ListedSession[] {
  if (!existsSync(path)) return [];
  const db = open(path, store, false);
  try {
    checkVersion(db, path, store);
    const size = db.query<Row, [string]>(store.sizeSql);
    return db
      .query<Row, []>(store.listSql)
      .all()
      .map((row) => {
        const listed: ListedSession = {
          id: String(row.id),
          cwd: typeof row.cwd === "string" ? row.cwd : undefined,
          title: typeof row.title === "string" ? row.title : undefined,
          updatedMs: Number(row.updated),
          root: row.root === 1,
          parent: typeof row.parent === "string" ? row.parent : undefined,
          bytes: undefined,
          messages: typeof row.messages === "number" ? row.messages : undefined,
        };
        return sized(listed) ? { ...listed, bytes: Number(size.get(listed.id)?.bytes ?? 0) } : listed;
      });
  } catch (error) {
    throw sqliteFailure(path, store, error, "list the sessions of");
  } finally {
    db.close();
  }
}

/** The nearest folder at or above `cwd` that holds the store's project marker, and the project file in that marker, read. */
export function projectPlace(cwd: string, store: SessionRowStore): ProjectPlace {
  for (let folder = cwd; ; folder = dirname(folder)) {
    const marker = join(folder, store.projectMarker);
    if (existsSync(marker)) {
      const file = join(marker, store.projectFile);
      let cached: string | undefined;
      try {
        cached = statSync(marker).isDirectory() && existsSync(file) ? readFileSync(file, "utf8") : undefined;
      } catch {
        cached = undefined;
      }
      return { root: folder, cached };
    }
    if (dirname(folder) === folder) return { root: undefined, cached: undefined };
  }
}

function insert(db: Database, row: NewRow): void {
  const { table, values, unlessPresent } = row;
  if (unlessPresent !== undefined) {
    const present = db.query(`SELECT 1 FROM ${quoteName(table)} WHERE ${quoteName(unlessPresent)} = ?`).get(values[unlessPresent] ?? null);
    if (present) return;
  }
  const columns = Object.keys(values);
  db.query(`INSERT INTO ${quoteName(table)} (${columns.map(quoteName).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
    ...Object.values(values),
  );
}

/**
 * Writes a new session's rows into the database at `path`, all in one transaction, or none:
 * throws one line (naming the database) when it is missing, at an untested schema version,
 * locked by another writer for longer than the wait, or refuses a row.
 */
export function writeRowSession(path: string, store: SessionRowStore, rows: readonly NewRow[]): void {
  const db = open(path, store, true);
  try {
    // IMMEDIATE takes the write lock now: what is checked cannot change before the rows are in.
    db.exec("BEGIN IMMEDIATE");
    try {
      checkVersion(db, path, store);
      for (const row of rows) insert(db, row);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } catch (error) {
    throw sqliteFailure(path, store, error, "write the new session into");
  } finally {
    db.close();
  }
}

/**
 * Where a new session of `target`, whose sessions are rows, goes: its database, and the project
 * of the cwd; checked before the model is called. Refused in one line with `-o` (a row has no
 * file of its own), with no absolute cwd, with no database yet (the agent makes its schema the
 * first time it runs), and where the store cannot place a session (a git folder opencode never opened).
 */
export function rowsPlace(
  target: SessionFormat & { rows: SessionRowStore },
  home: AgentHome,
  cwd: string | undefined,
  out: string | undefined,
): { database: string; project: ProjectPlace } {
  const store = target.rows;
  if (out !== undefined)
    throw new AgentError("USAGE", `-o: ${target.label} keeps a session as rows in ${store.label}, not as a file of its own; leave -o out`);
  if (cwd === undefined || !cwd.startsWith("/"))
    throw new AgentError(
      "USAGE",
      `the session records no working directory (or not an absolute one), so there is no ${target.label} project for it`,
    );
  const segments = store.database(home);
  if (segments === undefined)
    throw new AgentError("USAGE", `${store.label} is kept in memory (OPENCODE_DB=:memory:): there is nowhere to write a session`);
  const database = joinSegments(segments);
  if (!existsSync(database))
    throw new AgentError(
      "FILE",
      `${asField(database)}: ${store.label} does not exist yet (it is made the first time the agent runs): run ${target.label} once, then hand off again`,
      {
        file: database,
      },
    );
  const project = projectPlace(cwd, store);
  const refused = store.placeRefusal(cwd, project);
  if (refused !== undefined) throw new AgentError("USAGE", refused);
  return { database, project };
}
