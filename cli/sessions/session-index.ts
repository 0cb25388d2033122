/**
 * The SQLite port: adds the row a format's session index asks for (core/session/formats/
 * session-index.ts) to the agent's own database, with Bun's `bun:sqlite`, after the new session's
 * file is written. In one transaction that takes the write lock first (waiting up to 2 s for
 * another writer, a running Codex), it checks the schema version and that the agent has
 * scanned its folder, then inserts the one row: no other row is changed. A row that cannot be
 * added is one warning, never a failed handoff: the file is written and opens by id.
 */
import type { Database } from "bun:sqlite";
import type { Run } from "../run.ts";
import { existsSync, statSync } from "node:fs";
import type { ConsolaInstance } from "consola/core";
import { AgentError, errorMessage, type IndexRow, type NewSessionFile, type SessionFormat, type SessionIndex } from "../../core/index.ts";
import { agentHome, joinSegments } from "./agent-home.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { asField } from "../output/terminal.ts";
import { errorCode } from "../io/fs-errors.ts";
import { listedByAgent } from "./new-session-place.ts";
import { builtin } from "../io/builtins.ts";
import { BUSY_WAIT_MS } from "./session-rows.ts";

export { BUSY_WAIT_MS };

/** What became of the row: added, not needed (no database, or the agent has not scanned yet), or left out and why. */
export type IndexOutcome = { added: true } | { added: false; needless: string } | { added: false; leftOut: string };

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Why SQLite refused, in words: a lock held past the wait, or its own message. */
function sqliteReason(error: unknown): string {
  const code = errorCode(error);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return `it stayed locked by another process for ${BUSY_WAIT_MS / 1000} s (a Codex writing to it?)`;
  return `cannot write to it (${errorMessage(error)})`;
}

/** Inside the transaction: the checks, then the row. Returns what to say when the row is not for this database. */
function checkAndInsert(db: Database, index: SessionIndex, row: () => IndexRow): IndexOutcome {
  const version = db.query<{ version: number | null }, []>(index.schemaVersionSql).get()?.version ?? null;
  if (version === null || !index.testedSchemaVersions.includes(version)) {
    const tested = index.testedSchemaVersions.join(", ");
    return {
      added: false,
      leftOut: `its schema is at version ${version ?? "unknown (a migration did not finish)"}, not one tested (${tested})`,
    };
  }
  if ((db.query<{ ready: number }, []>(index.readySql).get()?.ready ?? 0) !== 1)
    return { added: false, needless: "the agent has not scanned its sessions yet, and its scan will list the new session" };
  const { table, values } = row();
  const columns = Object.keys(values);
  db.query(`INSERT INTO ${quoteName(table)} (${columns.map(quoteName).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
    ...Object.values(values),
  );
  return { added: true };
}

/**
 * Adds the row `row()` gives to the database at `path`, if the database exists, is at a tested
 * schema version and the agent has scanned its folder; nothing else is written. `row` is called
 * only then (reading the agent's configuration may fail, and is not needed otherwise).
 */
export function addIndexRow(path: string, index: SessionIndex, row: () => IndexRow): IndexOutcome {
  // A fresh home: the agent's first scan finds the file by itself; nothing is created for it.
  if (!existsSync(path))
    return { added: false, needless: "there is no database yet, and the agent's first scan will list the new session" };
  // SQLite would take a pipe or a device for a database and wait on it for ever.
  if (!statSync(path).isFile()) return { added: false, leftOut: "it is not a regular file" };
  let db: Database;
  try {
    // bun:sqlite is loaded only when there is an index to write to.
    const { Database: Sqlite } = builtin("bun:sqlite");
    db = new Sqlite(path, { readwrite: true, create: false });
  } catch (error) {
    return { added: false, leftOut: `cannot open it (${errorMessage(error)})` };
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    // IMMEDIATE takes the write lock now: what is checked cannot change before the row is in.
    db.exec("BEGIN IMMEDIATE");
    let outcome: IndexOutcome;
    try {
      outcome = checkAndInsert(db, index, row);
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
    db.exec(outcome.added ? "COMMIT" : "ROLLBACK");
    return outcome;
  } catch (error) {
    if (error instanceof AgentError) return { added: false, leftOut: error.message };
    return { added: false, leftOut: sqliteReason(error) };
  } finally {
    db.close();
  }
}

/** The agent's configuration, parsed; undefined when there is none. Throws an AgentError saying why it cannot be read. */
function readAgentConfig(path: string): unknown {
  const cannotRead = (reason: string) => new AgentError("FILE", `cannot read it (${reason})`, { file: path });
  const text = readTextFile(path, cannotRead, MAX_TEXT_FILE_BYTES, "undefined");
  if (text === undefined) return undefined;
  try {
    return Bun.TOML.parse(text);
  } catch (error) {
    throw cannotRead(errorMessage(error));
  }
}

/**
 * After the new session is written (and given its last modification time): its row in the
 * target agent's session index, when the agent keeps one and would list the file.
 */
export function indexNewSession(run: Run, format: SessionFormat, session: NewSessionFile, path: string, logger: ConsolaInstance): void {
  const index = format.sessionIndex;
  if (!index) return;
  const home = agentHome(run);
  if (!listedByAgent(format, path, session.sessionId, home)) return;
  const leftOut = (file: string, reason: string) =>
    logger.warn(
      `${asField(file)}: ${reason}; the new session was not added to ${index.label}, so ${index.listedBy} will not show it; \`${index.byIdCommand(session.sessionId)}\` opens it`,
    );
  // The configuration says where the index is, and what the row holds (Codex's provider).
  const configFile = joinSegments(index.configFile(home));
  let config: unknown;
  try {
    config = readAgentConfig(configFile);
  } catch (error) {
    leftOut(configFile, errorMessage(error));
    return;
  }
  const database = joinSegments(index.database(home, config, { content: session.content, currentFolder: run.cwd }));
  const outcome = addIndexRow(database, index, () =>
    index.row({ content: session.content, path, modifiedMs: statSync(path).mtimeMs, config }),
  );
  if (outcome.added) logger.debug(`${asField(database)}: the new session added to ${index.label}`);
  else if ("needless" in outcome) logger.debug(`${asField(database)}: not added to ${index.label}: ${outcome.needless}`);
  else leftOut(database, outcome.leftOut);
}
