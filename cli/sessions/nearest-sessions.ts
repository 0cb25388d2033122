/**
 * Where the nearest sessions are, for a folder that has none of its own: the closest parent
 * folder some session recorded as its cwd, and how many did (run from `app/src`, the sessions
 * of `app`). Only asked when nothing was found: it glances at every session on the machine.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { AgentHome, SessionFormat } from "../../core/index.ts";
import type { Warn } from "./found-session.ts";
import { sessionsToChoose } from "./recent-sessions.ts";

export interface NearestSessions {
  /** The parent folder (a real path). */
  folder: string;
  /** How many sessions worked in it. */
  count: number;
}

/** `cwd`'s parent folders, closest first, up to the root. */
function parentsOf(cwd: string): string[] {
  const parents: string[] = [];
  for (let folder = cwd; dirname(folder) !== folder; ) {
    folder = dirname(folder);
    parents.push(folder);
  }
  return parents;
}

/** The closest parent of `cwd` (a real path) that sessions of `formats` worked in; undefined when none did. */
export function nearestParentWithSessions(
  home: AgentHome,
  formats: readonly SessionFormat[],
  cwd: string,
  warn: Warn,
): NearestSessions | undefined {
  const parents = parentsOf(cwd);
  const counts = new Map(parents.map((folder) => [folder, 0]));
  const real = new Map<string, string>();
  // As every choice does, our handoff sessions with nothing in them yet are no sessions to point to;
  // sessions kept as rows (opencode's) count as `agent ls` lists them.
  for (const found of sessionsToChoose(home, formats, warn).sessions) {
    const recorded = found.glance.cwd;
    // Only an absolute path names a folder (see discover.ts's sameFolder).
    if (recorded === undefined || !isAbsolute(recorded)) continue;
    const absolute = resolve(recorded);
    if (!real.has(absolute)) real.set(absolute, realOrAsIs(absolute));
    const folder = real.get(absolute) ?? absolute;
    const count = counts.get(folder);
    if (count !== undefined) counts.set(folder, count + 1);
  }
  for (const folder of parents) {
    const count = counts.get(folder) ?? 0;
    if (count > 0) return { folder, count };
  }
  return undefined;
}

function realOrAsIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
