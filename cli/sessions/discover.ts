/**
 * Finding sessions on this machine: where each agent keeps them comes from its format
 * (`location`: the root, how deep session files lie, which folder holds a cwd's sessions); the
 * walking happens here. A session belongs to a folder when the cwd it RECORDED is that folder
 * (folder names are lossy encodings of a cwd: the header is trusted, the name only narrows the
 * search). Each file is glanced at (its first and last lines), never read whole.
 */
import { statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { AgentHome, SessionFileLayout, SessionFormat } from "../../core/index.ts";
import { joinSegments } from "./agent-home.ts";
import { glanceFile } from "./glance-file.ts";
import { asField } from "../output/terminal.ts";
import { fsReason } from "../io/fs-errors.ts";
import { idInFileName } from "./new-session-place.ts";
import { inside, realOrNothing } from "../io/real-paths.ts";
import { walk, type Found, type Report } from "./discover-walk.ts";
import { rowSessionsInScope } from "./discover-rows.ts";
import { changedAt, type FoundSession, type Unreadable, type Warn } from "./found-session.ts";
import { sessionFolderOwner, type OlderFolders } from "./discover-older-folders.ts";

export interface DiscoveryScope {
  /** The agents to look for, in the table's order. */
  formats: readonly SessionFormat[];
  /** Only sessions that recorded this folder as their cwd (a real path); every session when undefined. */
  cwd?: string;
  /** Other spellings of `cwd` the agents may have used for its folder name (a path through a link, `$PWD`). */
  cwdAliases?: readonly string[];
  /** Also the sessions of agents in `formats` that keep them as rows of a database (opencode), for the commands that read them by id. */
  rows?: boolean;
}

export interface Discovery {
  /** Newest first (by the file's modification time, as the agents pick "the most recent"). */
  sessions: FoundSession[];
  /** Threads an agent ran for itself (`glance.agentThread`), kept apart: never listed or chosen, only named when asked for by id. */
  agentThreads: FoundSession[];
  /** The folders looked in, for a message when nothing was found. */
  lookedIn: string[];
  /** Files and folders in the search that could not be read (each also reported through `warn`). */
  unreadable: Unreadable[];
  /**
   * Session files given up on before their first line ended (also in `unreadable`), known only
   * by the id in their name (`glance` holds just that): found by id, read whole then.
   */
  givenUp: FoundSession[];
}

/** A session file, and the agents whose roots it was found under (two when they share one). */
interface Candidate extends Found {
  claims: SessionFormat[];
}

/** The folders to look in for `format`: its root, or, for sessions of one cwd, that cwd's own folder(s). */
function searchFolders(format: SessionFormat, home: AgentHome, scope: DiscoveryScope, now: Date): { folders: string[]; depth: number } {
  const layout = format.location.sessionFiles(home);
  const root = joinSegments(format.location.sessionsRoot(home));
  if (scope.cwd === undefined || !format.location.filesByCwd) return { folders: [root], depth: layout.folders };
  // Where the agent writes the cwd's sessions, then where else it finds them.
  const places = (cwd: string) => {
    const place = { ...home, cwd, timestamp: now, utcOffsetMinutes: -now.getTimezoneOffset() };
    return [format.location.sessionFolder(place), ...(format.location.alsoFindsSessionsIn?.(place) ?? [])].map(joinSegments);
  };
  const folders = [...new Set([scope.cwd, ...(scope.cwdAliases ?? [])].flatMap(places))];
  return { folders, depth: 0 };
}

/** The session files of every agent in scope; a file two agents share a root for goes to the one its first lines name. */
function findCandidates(home: AgentHome, scope: DiscoveryScope, lookedIn: string[], report: Report): Candidate[] {
  const now = new Date();
  const byReal = new Map<string, Candidate>();
  for (const format of scope.formats) {
    // Sessions kept as rows are not files: the database is read by rowSessionsInScope.
    if (format.rows !== undefined) continue;
    const root = joinSegments(format.location.sessionsRoot(home));
    const rootReal = realOrNothing(root);
    const { folders, depth } = searchFolders(format, home, scope, now);
    lookedIn.push(...folders);
    if (rootReal === undefined) continue;
    const layout = format.location.sessionFiles(home);
    const found: Found[] = [];
    // The root itself counts as walked: a link back to it leads nowhere new.
    const seen = new Set<string>([rootReal]);
    for (const folder of folders) {
      // A folder for a cwd is walked as part of its root: a link in it may not lead out either.
      const start = folder === root ? rootReal : resolve(rootReal, relative(root, folder));
      if (inside(rootReal, start)) walk(start, depth, rootReal, layout.isSessionName, seen, found, report);
    }
    for (const file of withoutContinued(found, layout)) {
      const known = byReal.get(file.real);
      if (known) known.claims.push(format);
      else byReal.set(file.real, { ...file, claims: [format] });
    }
  }
  return [...byReal.values()];
}

/** The sessions found but those their agent went on from in another file beside them (see `withoutContinued`). */
export function withoutContinuedSessions(home: AgentHome, found: readonly FoundSession[]): FoundSession[] {
  const kept = new Set(
    [...new Set(found.map((s) => s.format))].flatMap((format) =>
      withoutContinued(
        found.filter((s) => s.format === format),
        format.location.sessionFiles(home),
      ),
    ),
  );
  return found.filter((s) => kept.has(s));
}

/** The files of `found` but those the agent went on from in another file beside them (`SessionFileLayout.continuedIn`). */
function withoutContinued<T extends { path: string }>(found: readonly T[], layout: SessionFileLayout): T[] {
  const { continuedIn } = layout;
  if (continuedIn === undefined) return [...found];
  const paths = new Set(found.map((file) => file.path));
  return found.filter((file) => {
    const next = continuedIn(basename(file.path));
    return next === undefined || !paths.has(join(dirname(file.path), next));
  });
}

/**
 * Whether a recorded cwd names `cwd` (a real path): as written, or once its links are resolved.
 * Only an absolute path names a folder: a relative one (`.`) would name whichever folder we run in.
 */
export function sameFolder(recorded: string | undefined, cwd: string, cache: Map<string, string | undefined>): boolean {
  if (recorded === undefined || !isAbsolute(recorded)) return false;
  const absolute = resolve(recorded);
  if (absolute === cwd) return true;
  if (!cache.has(absolute)) cache.set(absolute, realOrNothing(absolute));
  return cache.get(absolute) === cwd;
}

/**
 * The sessions in scope, newest first. Files that are not sessions (an index, a subagent's
 * transcript, another agent's file) are passed over silently; unreadable ones are reported.
 */
export function discoverSessions(home: AgentHome, scope: DiscoveryScope, warn: Warn): Discovery {
  const lookedIn: string[] = [];
  const unreadable: Unreadable[] = [];
  const candidates = findCandidates(home, scope, lookedIn, { warn, unreadable });
  const realCwds = new Map<string, string | undefined>();
  const sessions: FoundSession[] = [];
  const agentThreads: FoundSession[] = [];
  const givenUp: FoundSession[] = [];
  // A session in a folder its agent named by an older rule belongs to the path that name is of (discover-older-folders.ts).
  const scopeCwds = scope.cwd === undefined ? [] : [scope.cwd, ...(scope.cwdAliases ?? [])];
  const olderFolders: OlderFolders = new Map();
  for (const candidate of candidates) {
    let seen: ReturnType<typeof glanceFile>;
    let gaveUp: string | undefined;
    try {
      // Two agents keeping sessions in one folder (pi's and omp's PI_CODING_AGENT_DIR): the file's own lines say whose it is.
      seen = glanceFile(candidate.claims, candidate.path, (note) => {
        gaveUp = note;
        warn(`${asField(candidate.path)}: ${note}`);
      });
    } catch (error) {
      warn(`${asField(candidate.path)}: cannot read this file (${fsReason(error)}); left out`);
      unreadable.push({ path: candidate.path, folder: false, mtimeMs: changedAt(candidate.path), reason: fsReason(error) });
      continue;
    }
    if (seen === undefined && gaveUp !== undefined) {
      // Given up on unread, it may be the session wanted: it counts as unreadable, and its name still gives its id.
      const mtimeMs = changedAt(candidate.path);
      unreadable.push({ path: candidate.path, folder: false, mtimeMs, reason: reasonOfGivenUp(gaveUp) });
      const id = idOfFileName(candidate, home);
      if (id !== undefined && mtimeMs !== undefined && candidate.claims[0] !== undefined)
        givenUp.push({
          format: candidate.claims[0],
          path: candidate.path,
          bytes: sizeOf(candidate.path),
          textBytes: undefined,
          mtimeMs,
          glance: { id, cwd: undefined, title: undefined, firstRequest: undefined },
        });
      continue;
    }
    if (seen === undefined) continue;
    const glance =
      seen.glance.cwd === undefined
        ? { ...seen.glance, cwd: sessionFolderOwner(seen.format, candidate.path, home, scopeCwds, olderFolders) }
        : seen.glance;
    if (scope.cwd !== undefined && !sameFolder(glance.cwd, scope.cwd, realCwds)) continue;
    if (seen.ends.note !== undefined) warn(`${asField(candidate.path)}: ${seen.ends.note}`);
    (seen.glance.agentThread === undefined ? sessions : agentThreads).push({
      format: seen.format,
      path: candidate.path,
      bytes: seen.ends.bytes,
      textBytes: seen.ends.textBytes,
      mtimeMs: seen.ends.mtimeMs,
      glance,
    });
  }
  if (scope.rows) {
    const rows = rowSessionsInScope(home, scope.formats, lookedIn, { warn, unreadable }, (cwd) => sameCwd(cwd, scope, realCwds));
    sessions.push(...rows.sessions);
    agentThreads.push(...rows.children);
  }
  sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { sessions, agentThreads, lookedIn, unreadable, givenUp };
}

/** Whether a recorded cwd is in scope: any, when the scope names no folder. */
function sameCwd(recorded: string | undefined, scope: DiscoveryScope, cache: Map<string, string | undefined>): boolean {
  return scope.cwd === undefined || sameFolder(recorded, scope.cwd, cache);
}

/** `its first line does not end within 256 KiB`: the note's first clause, as the reason a file could not be read. */
function reasonOfGivenUp(note: string): string {
  return note.split(";")[0] ?? note;
}

/** The id the file's name gives, for the first agent claiming it that names its files by id. */
function idOfFileName(candidate: Candidate, home: AgentHome): string | undefined {
  for (const format of candidate.claims) {
    const id = idInFileName(format, candidate.path, home);
    if (id !== undefined) return id;
  }
  return undefined;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
