/**
 * Which files a branch read, changed and deleted. A deletion (`rm`, `git rm`, a patch's "Delete
 * File") ends a file's "modified" state, and a later write brings it back, so events are folded
 * in the order they happened. Paths come out in their one form (see `normalizePath`), each once.
 */
import { pathNormalizer } from "./paths.ts";

export type FileEvent =
  | { op: "read" | "write"; path: string }
  /** `named`: list the path even when the branch never touched it (`git rm` deletes a tracked file). */
  | { op: "delete"; path: string; named: boolean };

export interface FileLists {
  /** Every file read, in the order first read. */
  read: string[];
  /** Files written and not deleted since, in the order first written. */
  modified: string[];
  /** Files whose last change was a deletion. */
  deleted: string[];
}

/** A path in its one form made absolute again (relative ones lie in `cwd`), to compare it with a folder outside `cwd`. */
function absolute(path: string, cwd: string | undefined): string {
  if (path.startsWith("/") || path.startsWith("~") || cwd === undefined) return path;
  return `${cwd.endsWith("/") ? cwd.replace(/\/+$/, "") : cwd}/${path}`;
}

/**
 * Whether a file is the deleted path or lies under it (a deleted folder takes its files with it:
 * `rm -rf .`, `..`, `/` too). `absoluteOf` gives a file's absolute form, made once per file.
 */
function atOrUnder(target: string, cwd: string | undefined, absoluteOf: (path: string) => string): (path: string) => boolean {
  const folder = absolute(target, cwd);
  const prefix = folder.endsWith("/") ? folder : `${folder}/`;
  return (path) => {
    const file = absoluteOf(path);
    return file === folder || file.startsWith(prefix);
  };
}

export function foldFileEvents(events: readonly FileEvent[], cwd: string | undefined): FileLists {
  const read = new Set<string>();
  const changed = new Map<string, "written" | "deleted">();
  const normalize = pathNormalizer(cwd);
  const absolutes = new Map<string, string>();
  const absoluteOf = (path: string): string => {
    let known = absolutes.get(path);
    if (known === undefined) {
      known = absolute(path, cwd);
      absolutes.set(path, known);
    }
    return known;
  };
  for (const event of events) {
    const path = normalize(event.path);
    if (path === "") continue;
    if (event.op === "delete") {
      // Only files the branch knows are listed: `rm -rf node_modules` is housekeeping, not a change to the work.
      // Files read first, in that order, then the ones only changed (as a set of both would list them).
      const under = atOrUnder(path, cwd, absoluteOf);
      const known: string[] = [];
      for (const file of read) if (under(file)) known.push(file);
      for (const file of changed.keys()) if (!read.has(file) && under(file)) known.push(file);
      for (const file of known) changed.set(file, "deleted");
      if (known.length === 0 && event.named) changed.set(path, "deleted");
    } else if (event.op === "read") read.add(path);
    else changed.set(path, "written");
  }
  const having = (state: "written" | "deleted") => [...changed].filter(([, s]) => s === state).map(([path]) => path);
  return { read: [...read], modified: having("written"), deleted: having("deleted") };
}
