/**
 * opencode's database as a store of sessions (core/session/formats/session-rows.ts): where it
 * is, the schema versions tested, the SQL that reads and lists sessions.
 */
import type { SessionRowStore } from "../session-rows.ts";
import { opencodeDatabase } from "./location.ts";
import { readOpencodeRows } from "./read.ts";
import { opencodePlaceRefusal, renderOpencodeRows } from "./write.ts";

/** The opencode version `bun run compat` last ran (compat/agents.ts). */
export const TESTED_VERSION = "1.18.33";

/**
 * opencode records each schema migration it applied in its `migration` table, named by time and
 * words; the newest is the schema version. 1.18.33 leaves the database at this one
 * (fixtures/real/opencode/migrations.json lists them all). Another version may have moved a
 * column the rows need: refused.
 */
const TESTED_SCHEMA_VERSIONS = ["20260622202450_simplify_session_input"];

export const opencodeStore: SessionRowStore = {
  label: "opencode's database",
  database: opencodeDatabase,
  schemaVersionSql: "SELECT MAX(id) AS version FROM migration",
  testedSchemaVersions: TESTED_SCHEMA_VERSIONS,
  readSql: {
    session: "SELECT * FROM session WHERE id = ?",
    message: "SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY id",
    part: "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id",
  },
  // opencode's `run -c` continues the newest root session (no parent) of the folder's project, by `time_updated`.
  listSql:
    "SELECT id, directory AS cwd, title, time_updated AS updated, parent_id IS NULL AS root, parent_id AS parent, (SELECT COUNT(*) FROM message WHERE message.session_id = session.id) AS messages FROM session WHERE time_archived IS NULL ORDER BY time_updated DESC",
  // The JSON of its messages and their parts, as opencode stores them (octet_length: bytes, not characters, and no read of the text).
  sizeSql:
    "SELECT (SELECT COALESCE(SUM(octet_length(data)), 0) FROM message WHERE session_id = ?1) + (SELECT COALESCE(SUM(octet_length(data)), 0) FROM part WHERE session_id = ?1) AS bytes",
  // opencode's task tool runs a subagent in a session of its own, whose parent is the session that called it.
  describeChild: (parent) => `a session opencode ran for a task${parent === undefined ? "" : ` of session ${parent}`}`,
  isSessionId: (text) => /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/.test(text),
  read: readOpencodeRows,
  projectMarker: ".git",
  projectFile: "opencode",
  placeRefusal: opencodePlaceRefusal,
  newRows: (input, place) => renderOpencodeRows(input, place, TESTED_VERSION),
  newSessionMessages: 2,
  resumeById: (sessionId) => ["opencode", "-s", sessionId],
  continueLatest: ["opencode", "-c"],
};
