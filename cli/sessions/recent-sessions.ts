/**
 * Lists of sessions, newest first: the ones `agent ls` shows (one folder's, or every folder's),
 * and the recent sessions of every agent with the current folder's first (what a picker offers).
 */
import type { AgentHome, SessionFormat } from "../../core/index.ts";
import { discoverSessions, sameFolder, type Discovery } from "./discover.ts";
import { nameOfFound, type FoundSession, type Warn } from "./found-session.ts";
import { sessionFilesIn } from "./folder-sessions.ts";
import { handoffSessionOf } from "./handoff-session.ts";

/** How many, and since when: the newest `limit` of those updated at `sinceMs` or later. */
export interface RecentFilter {
  limit?: number;
  sinceMs?: number;
}

/** The sessions (newest first) `filter` keeps, of those `keep` accepts; `keep` is asked no more often than needed. */
export function keepRecent<T extends { mtimeMs: number }>(
  sessions: readonly T[],
  filter: RecentFilter,
  keep: (s: T) => boolean = () => true,
): T[] {
  const kept: T[] = [];
  for (const session of sessions) {
    if (filter.limit !== undefined && kept.length >= filter.limit) break;
    // Newest first: the first one too old ends the list.
    if (filter.sinceMs !== undefined && session.mtimeMs < filter.sinceMs) break;
    if (keep(session)) kept.push(session);
  }
  return kept;
}

/**
 * The sessions of a folder, newest first: with `folder.named`, the session files directly in it
 * when it holds any (an agent's folder for one project), else those that worked in it; `worked`
 * is then the folder whose sessions they are (a real path), undefined for the files in it.
 */
export function sessionsOfFolder(
  home: AgentHome,
  formats: readonly SessionFormat[],
  folder: { cwd: string; aliases: readonly string[]; named?: string },
  warn: Warn,
  rows = false,
): Pick<Discovery, "sessions" | "lookedIn" | "unreadable"> & { worked: string | undefined } {
  const files = folder.named === undefined ? undefined : sessionFilesIn(home, folder.named, formats, warn);
  if (folder.named !== undefined && files !== undefined && files.sessions.length > 0)
    return { ...files, lookedIn: [folder.named], worked: undefined };
  const found = discoverSessions(home, { formats, cwd: folder.cwd, cwdAliases: folder.aliases, rows }, warn);
  return { ...found, unreadable: [...(files?.unreadable ?? []), ...found.unreadable], worked: folder.cwd };
}

/**
 * The sessions a user may pick among, every folder's, newest first: as `agent ls --all` finds
 * them, less the sessions `agent handoff` wrote that nothing happened in yet (as the no-path
 * choice passes over them; each passed over is named at `-v`), opencode's rows of its database
 * among them.
 */
export function sessionsToChoose(
  home: AgentHome,
  formats: readonly SessionFormat[],
  warn: Warn,
): Pick<Discovery, "sessions" | "lookedIn"> & { passedOver: number } {
  const found = discoverSessions(home, { formats, rows: true }, warn);
  const sessions = found.sessions.filter((s) => {
    if (handoffSessionOf(s) === undefined) return true;
    warn(`passed over ${nameOfFound(s)}: a handoff session, with nothing after the document yet`);
    return false;
  });
  return { sessions, lookedIn: found.lookedIn, passedOver: found.sessions.length - sessions.length };
}

export interface RecentSession extends FoundSession {
  /** It worked in the current folder. */
  here: boolean;
}

/**
 * The recent sessions of every agent in `formats`: those that worked in `folder` (the current
 * folder as a real path: find-session.ts's currentFolder().cwd) first, then
 * the others, each part newest first, each part cut by `filter`. Agents' own threads are left
 * out (as everywhere); so, with `withoutHandoffSessions`, are sessions `agent handoff` wrote that
 * nothing happened in yet (which reads each that may be one whole: a few small files, usually).
 */
export function listRecentSessions(
  home: AgentHome,
  options: { formats: readonly SessionFormat[]; folder: string; filter?: RecentFilter; withoutHandoffSessions?: boolean },
  warn: Warn,
): RecentSession[] {
  const { sessions } = discoverSessions(home, { formats: options.formats }, warn);
  const real = new Map<string, string | undefined>();
  const here = new Set(sessions.filter((s) => sameFolder(s.glance.cwd, options.folder, real)));
  const elsewhere = sessions.filter((s) => !here.has(s));
  const filter = options.filter ?? {};
  const keep = options.withoutHandoffSessions ? (s: FoundSession) => handoffSessionOf(s) === undefined : undefined;
  return [
    ...keepRecent([...here], filter, keep).map((s) => ({ ...s, here: true })),
    ...keepRecent(elsewhere, filter, keep).map((s) => ({ ...s, here: false })),
  ];
}
