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
  return `${cwd.replace(/\/+$/, "")}/${path}`;
}

/** Whether `path` is `target` or lies under it (a deleted folder takes its files with it: `rm -rf .`, `..`, `/` too). */
function isAtOrUnder(path: string, target: string, cwd: string | undefined): boolean {
  const [file, folder] = [absolute(path, cwd), absolute(target, cwd)];
  return file === folder || file.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

export function foldFileEvents(events: readonly FileEvent[], cwd: string | undefined): FileLists {
  const read = new Set<string>();
  const changed = new Map<string, "written" | "deleted">();
  const normalize = pathNormalizer(cwd);
  for (const event of events) {
    const path = normalize(event.path);
    if (path === "") continue;
    if (event.op === "delete") {
      // Only files the branch knows are listed: `rm -rf node_modules` is housekeeping, not a change to the work.
      const known = [...new Set([...read, ...changed.keys()])].filter((file) => isAtOrUnder(file, path, cwd));
      for (const file of known) changed.set(file, "deleted");
      if (known.length === 0 && event.named) changed.set(path, "deleted");
    } else if (event.op === "read") read.add(path);
    else changed.set(path, "written");
  }
  const having = (state: "written" | "deleted") => [...changed].filter(([, s]) => s === state).map(([path]) => path);
  return { read: [...read], modified: having("written"), deleted: having("deleted") };
}
