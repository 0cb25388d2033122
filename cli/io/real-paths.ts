/**
 * Paths as the file system resolves them (links followed), for telling whether one lies under another:
 * discovery walks by them, and the new session's place asks where under an agent's root a path falls.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** The path with every link resolved, or undefined when it does not exist (or cannot be resolved). */
export function realOrNothing(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is `root` or lies below it (both already resolved). */
export function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** A path below `root` as segments (`[]` for the root itself), links resolved; undefined when it lies elsewhere. */
export function pathUnder(root: string, path: string): string[] | undefined {
  const from = realOrNothing(root) ?? resolve(root);
  const to = realOrNothing(path) ?? resolve(path);
  if (!inside(from, to)) return undefined;
  const rel = relative(from, to);
  return rel === "" ? [] : rel.split(sep);
}
