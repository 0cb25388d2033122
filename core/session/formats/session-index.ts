/**
 * An agent's own index of its sessions: a SQLite database that its "continue the latest" and its
 * session picker read instead of the folders once it has scanned them (Codex's thread table). A
 * session file written after that scan is listed only once it has a row. The format says where
 * the index is, which of its schema versions the row was tested with against the real agent
 * (`bun run compat`), and what the row holds; cli's SQLite port (cli/sessions/session-index.ts) writes it,
 * in one transaction, after the file.
 */
import type { AgentHome, PathSegments } from "./home.ts";

/** A value SQLite stores in a column. */
export type SqlValue = string | number | null;

/** A row to add to one table of the index; no other row is ever touched. */
export interface IndexRow {
  table: string;
  /** By column; the columns left out take the schema's defaults. */
  values: Readonly<Record<string, SqlValue>>;
}

/** The new session as it lies on disk once every write to it is done, and the agent's configuration. */
export interface PlacedSession {
  /** The file's bytes as written (the format's own `renderNewSession` content). */
  content: string;
  /** Its absolute path. */
  path: string;
  /** Its modification time in milliseconds (with a fraction, as the file system gives it). */
  modifiedMs: number;
  /** The agent's configuration file, parsed; undefined when there is none. */
  config: unknown;
}

export interface SessionIndex {
  /** What it is called in messages ("Codex's thread index"). */
  label: string;
  /**
   * The database, as the agent's environment and its configuration (parsed; undefined when there
   * is none) place it, for the new session `session.content` (a relative place may lie in the
   * folder the agent runs in: the session's cwd, else `session.currentFolder`, ours).
   */
  database(home: AgentHome, config: unknown, session: { content: string; currentFolder: string }): PathSegments;
  /** The configuration file that may place the database and whose settings the row may need (Codex's model provider). */
  configFile(home: AgentHome): PathSegments;
  /**
   * SQL giving one row with the column `version`: the schema version the database is at; NULL
   * when a migration did not finish (the database is then in no version we know).
   */
  schemaVersionSql: string;
  /** The schema versions whose row `bun run compat` proved the real agent lists; any other is left alone. */
  testedSchemaVersions: readonly number[];
  /**
   * SQL giving one row with the column `ready`, 1 once the agent has scanned its sessions folder:
   * before that scan (or with no database at all) the agent finds the new file by itself.
   */
  readySql: string;
  /** What reads the index, for a warning when the row is left out ("`codex resume --last` and its picker"). */
  listedBy: string;
  /** The command that opens the session by id whatever the index holds, for that warning. */
  byIdCommand(sessionId: string): string;
  /** The row the agent's own scan would make for the file. */
  row(placed: PlacedSession): IndexRow;
}
