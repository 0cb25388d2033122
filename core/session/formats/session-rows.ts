/**
 * A session kept as rows in an agent's own database, not as a file of its own (opencode's
 * SQLite database: one `session` row, its `message` rows and their `part` rows). The format
 * says where the database is, which schema versions the real agent was tested with (`bun run
 * compat`), the SQL that reads one session and lists them, how the rows read into the common
 * model, and which rows a new session is; cli's one port for such sessions
 * (cli/sessions/session-rows.ts) runs the SQL with `bun:sqlite`: it reads one session, and
 * writes a new one in one transaction, never touching another row.
 */
import type { Session } from "../types.ts";
import type { AgentHome, PathSegments } from "./home.ts";
import type { SqlValue } from "./session-index.ts";
import type { NewSessionInput, ProjectPlace } from "./new-session-input.ts";

export type { ProjectPlace };

/** One row as SQLite gives it, by column. */
export type Row = Readonly<Record<string, SqlValue>>;

/** One session's rows, by the name of the query that read them (`session`, `message`, `part`). */
export type SessionRows = Readonly<Record<string, readonly Row[]>>;

/** A row to add; `unlessPresent` names its key column when the row is added only if no row has that key yet (a project the agent may know already). */
export interface NewRow {
  table: string;
  values: Row;
  unlessPresent?: string;
}

/** The new session's rows, or why none can be written for that folder. */
export type NewRows = { rows: NewRow[]; sessionId: string } | { refused: string };

/** A summary of one session, for listing and finding them without reading them whole. */
export interface ListedSession {
  id: string;
  cwd: string | undefined;
  title: string | undefined;
  /** When the session last changed, in milliseconds. */
  updatedMs: number;
  /** Whether the agent's "continue the latest" would take it (a root session, not a subagent's). */
  root: boolean;
  /** The session it was started from, for one that is not a root (a task's child session). */
  parent: string | undefined;
  /** The bytes of its rows (`sizeSql`), when asked for: a session's size, as a file's is its bytes. */
  bytes: number | undefined;
  /** How many messages it holds, where `listSql` counts them. */
  messages: number | undefined;
}

export interface SessionRowStore {
  /** What it is called in messages ("opencode's database"). */
  label: string;
  /** The database, as the agent's environment places it; undefined when it keeps no file (an in-memory database). */
  database(home: AgentHome): PathSegments | undefined;
  /** SQL giving one row with the column `version`: the schema version the database is at. */
  schemaVersionSql: string;
  /** The schema versions whose rows `bun run compat` proved the real agent reads and resumes; any other is refused. */
  testedSchemaVersions: readonly string[];
  /** The SQL reading one session's rows, by name; each takes one parameter, the session id. The first gives the session's own row, none when there is no such session. */
  readSql: Readonly<Record<string, string>>;
  /** SQL listing every session: columns `id`, `cwd`, `title`, `updated` (ms), `root` (1 or 0), `parent` (an id or null), `messages` (a count, or null). */
  listSql: string;
  /**
   * SQL giving one row with the column `bytes`: how many bytes one session's rows hold (the
   * session id its one parameter), what `agent ls` shows as its size and estimates tokens from.
   */
  sizeSql: string;
  /** What a session that is not a root is, in words, for `--session` naming one (`parent` the session it was started from). */
  describeChild(parent: string | undefined): string;
  /** Whether a text a person typed is one of its session ids (`ses_…`). */
  isSessionId(text: string): boolean;
  /** One session's rows into the common model; `database` names it in messages. */
  read(rows: SessionRows, database: string): Session;
  /** The folder marker whose project file places a new session (`.git`, `opencode`). */
  projectMarker: string;
  projectFile: string;
  /** Why no session of `cwd` can be written where `place` says it lies (checked before the model is called); undefined when one can. */
  placeRefusal(cwd: string, place: ProjectPlace): string | undefined;
  /** The rows of a new session that opens with the handoff document. */
  newRows(input: NewSessionInput, place: ProjectPlace): NewRows;
  /** How many messages those rows hold (the document, the acknowledgement): a session with more has work after them, and is not read to be told so. */
  newSessionMessages: number;
  /** The command that continues a session by id, and the one that continues the newest of the folder. */
  resumeById(sessionId: string): readonly string[];
  continueLatest: readonly string[];
}
