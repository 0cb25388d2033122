import { lstatSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import { builtin } from "./builtins.ts";

/**
 * Whether a folder is private to us, all the way up: an agent run works in it, and the agents
 * read instruction files from the folders above their own (Claude Code every CLAUDE.md up to
 * `/`), so no other user may be able to put a file there or swap a folder of the chain for one
 * of their own.
 */

/** What decides who can change a folder. */
export interface FolderFacts {
  path: string;
  uid: number;
  gid: number;
  mode: number;
}

export interface Me {
  uid: number;
  gid: number;
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, "0");

/**
 * Why another user could change `folder` (the first in `chain`, its parents after it up to `/`),
 * or undefined when none can. A folder must be ours or root's. One others can write is safe
 * only with the sticky bit (as /tmp has): they can add to it but never rename or remove what
 * is ours, and the next folder down must be ours or root's anyway. One its group can write is
 * not, whatever the group, our own primary one too: a primary group is often shared (`users`,
 * `staff`), and nothing here can tell a private group from one that is not.
 */
export function whyNotPrivate(chain: readonly FolderFacts[], me: Me): string | undefined {
  for (const folder of chain) {
    if (folder.uid !== me.uid && folder.uid !== 0) return `${folder.path} belongs to another user (uid ${folder.uid})`;
    const sticky = (folder.mode & 0o1000) !== 0;
    if ((folder.mode & 0o002) !== 0 && !sticky) return `${folder.path} can be written by any user (mode ${octal(folder.mode)})`;
    if ((folder.mode & 0o020) !== 0 && !sticky)
      return `${folder.path} can be written by its group (gid ${folder.gid}, mode ${octal(folder.mode)})`;
  }
  return undefined;
}

/** `path` with its symbolic links resolved, then each folder from it up to `/`, as the system says. */
export function folderChain(path: string): FolderFacts[] {
  const chain: FolderFacts[] = [];
  let current = realpathSync(path);
  for (;;) {
    const stat = lstatSync(current);
    chain.push({ path: current, uid: stat.uid, gid: stat.gid, mode: stat.mode });
    const parent = dirname(current);
    if (parent === current) return chain;
    current = parent;
  }
}

/** The user we run as; undefined where the system has no such ids (Windows). */
export function currentUser(): Me | undefined {
  const { uid, gid } = builtin("node:os").userInfo();
  return uid < 0 || gid < 0 ? undefined : { uid, gid };
}

/** The nearest folder of `path` or above it that exists (for a check that must create nothing). */
export function nearestExisting(path: string): string {
  let current = path;
  for (;;) {
    try {
      lstatSync(current);
      return current;
    } catch {
      const parent = dirname(current);
      if (parent === current) return current;
      current = parent;
    }
  }
}
