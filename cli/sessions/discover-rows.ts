/** The sessions agents keep as rows of a database (opencode's), as discovery lists them beside the files. */
import { errorMessage, type AgentHome, type SessionFormat } from "../../core/index.ts";
import { asField } from "../output/terminal.ts";
import { joinSegments } from "./agent-home.ts";
import type { Report } from "./discover-walk.ts";
import { changedAt, type FoundSession } from "./found-session.ts";
import { listRowSessions } from "./session-rows.ts";

/**
 * The sessions of the agents in scope that keep them as rows of a database (opencode), listed
 * through the rows port; the agent's own subsessions (a task it ran) are left out. A database
 * that cannot be read (locked, another schema) is reported as a folder is: it may hold newer work.
 */
export function rowSessionsInScope(
  home: AgentHome,
  formats: readonly SessionFormat[],
  lookedIn: string[],
  report: Report,
  inScope: (cwd: string | undefined) => boolean,
): { sessions: FoundSession[]; children: FoundSession[] } {
  const sessions: FoundSession[] = [];
  const children: FoundSession[] = [];
  for (const format of formats) {
    const store = format.rows;
    if (store === undefined) continue;
    const segments = store.database(home);
    if (segments === undefined) {
      // OPENCODE_DB=:memory:: a running agent's sessions, gone when it ends; nothing to read.
      lookedIn.push(`${store.label} (kept in memory: OPENCODE_DB=:memory:)`);
      continue;
    }
    const database = joinSegments(segments);
    lookedIn.push(database);
    let listed: ReturnType<typeof listRowSessions>;
    try {
      listed = listRowSessions(database, store, (row) => row.root && inScope(row.cwd));
    } catch (error) {
      const reason = errorMessage(error).replace(`${asField(database)}: `, "");
      report.warn(`${asField(database)}: ${reason}; its sessions are left out`);
      report.unreadable.push({ path: database, folder: true, mtimeMs: changedAt(database), reason, database: true });
      continue;
    }
    for (const row of listed) {
      const found = (agentThread?: string): FoundSession => ({
        format,
        path: database,
        // The rows' bytes stand for a file's size and its text's.
        bytes: row.bytes ?? 0,
        textBytes: row.bytes,
        mtimeMs: row.updatedMs,
        glance: { id: row.id, cwd: row.cwd, title: row.title, firstRequest: undefined, ...(agentThread ? { agentThread } : {}) },
        rowId: row.id,
        ...(row.messages === undefined ? {} : { rowMessages: row.messages }),
      });
      // A child session (a task the agent ran) is never listed or chosen; named by id, it is said what it is.
      if (!row.root) children.push(found(store.describeChild(row.parent)));
      else if (inScope(row.cwd)) sessions.push(found());
    }
  }
  return { sessions, children };
}
