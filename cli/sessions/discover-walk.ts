/** Walking an agent's sessions root for its session files: within the root only, links followed once, unreadable folders reported. */
import { readdirSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { fsReason, isMissing } from "../io/fs-errors.ts";
import { inside, realOrNothing } from "../io/real-paths.ts";
import { asField } from "../output/terminal.ts";
import { changedAt, type Unreadable, type Warn } from "./found-session.ts";

/** Where a walk reports what it could not read: a line for `--verbose`, and the list for the choice. */
export interface Report {
  warn: Warn;
  unreadable: Unreadable[];
}

/** A session file found under a root: its path as found, and the file itself (links resolved). */
export interface Found {
  path: string;
  real: string;
}

/** Whether `path` (links resolved) is a folder, or a regular file; false when it went away. */
function isKind(path: string, kind: "folder" | "file"): boolean {
  try {
    const stats = statSync(path);
    return kind === "folder" ? stats.isDirectory() : stats.isFile();
  } catch {
    return false;
  }
}

/**
 * The session files `depth` folders below `dir`, walked within `rootReal` only: a link is
 * followed when what it points to lies inside the root and was not walked already (so no link
 * leads out, and none round in a loop); a folder that cannot be read is reported and passed over.
 */
export function walk(
  dir: string,
  depth: number,
  rootReal: string,
  isSessionName: (name: string) => boolean,
  seen: Set<string>,
  out: Found[],
  report: Report,
): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (!isMissing(error)) {
      report.warn(`${asField(dir)}: cannot read this folder (${fsReason(error)}); its sessions are left out`);
      report.unreadable.push({ path: dir, folder: true, mtimeMs: changedAt(dir), reason: fsReason(error) });
    }
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (depth === 0 && !isSessionName(entry.name)) continue;
    let real = path;
    if (entry.isSymbolicLink()) {
      const target = realOrNothing(path);
      if (target === undefined || !inside(rootReal, target)) continue;
      real = target;
    } else if (!(depth > 0 ? entry.isDirectory() : entry.isFile())) continue;
    if (seen.has(real)) continue;
    seen.add(real);
    if (depth > 0) {
      if (real === path || isKind(real, "folder")) walk(path, depth - 1, rootReal, isSessionName, seen, out, report);
    } else if (real === path || isKind(real, "file")) out.push({ path, real });
  }
}
