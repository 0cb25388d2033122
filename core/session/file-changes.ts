/**
 * Which files a branch read, changed and deleted. A deletion (`rm`, `git rm`, a patch's "Delete
 * File") ends a file's "modified" state, and a later write brings it back, so events are folded
 * in the order they happened. Paths come out in their one form (see `normalizePath`), each once.
 */
import { normalizePath } from "./paths.ts";
import { shellWords, splitSteps } from "./shell-line.ts";

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
  for (const event of events) {
    const path = normalizePath(event.path, cwd);
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

/** A cheap first look: most commands name no deleting program at all. */
const MAY_DELETE = /\b(?:rm|rmdir|unlink)\b/;
/** Programs that delete the files they name. */
const DELETERS = new Set(["rm", "unlink", "rmdir"]);
/** Words before the program that do not change what it does: `sudo rm`, `command rm`, `FORCE=1 rm`. */
const PREFIX = /^(?:sudo|command|builtin|\w+=.*)$/;

/**
 * The paths a shell command deletes, as `delete` events: the operands of `rm`, `unlink`, `rmdir`
 * and `git rm` (not `git rm --cached`, which keeps the file), relative to a `cd` earlier in the
 * line. Globs are skipped: expanding them needs the file system.
 */
export function deletionsIn(command: string): FileEvent[] {
  const events: FileEvent[] = [];
  if (!MAY_DELETE.test(command)) return events;
  // `undefined`: the working directory; `null`: somewhere we cannot name (`cd -`, `cd $X`).
  let dir: string | null | undefined;
  for (const step of splitSteps(command)) {
    const words = shellWords(step.text);
    while (words[0] !== undefined && PREFIX.test(words[0])) words.shift();
    const [program, sub] = words;
    if (program === "cd") {
      const to = words[1];
      dir =
        to === undefined || to === "-" || to.includes("$")
          ? null
          : to.startsWith("/") || to.startsWith("~") || dir === undefined
            ? to
            : dir === null
              ? null
              : `${dir}/${to}`;
      continue;
    }
    const gitRm = program === "git" && sub === "rm";
    if ((!gitRm && !DELETERS.has(program ?? "")) || (gitRm && words.includes("--cached"))) continue;
    let options = true;
    let redirectTarget = false;
    for (const word of words.slice(gitRm ? 2 : 1)) {
      // Redirections name no file to delete: `2>/dev/null`, `> log` (and the word after it).
      if (redirectTarget) redirectTarget = false;
      else if (/^\d*(?:[<>]{1,2}|&>{1,2}|>&)$/.test(word)) redirectTarget = true;
      else if (/^\d*(?:[<>]|&>)/.test(word)) continue;
      else if (options && word === "--") options = false;
      else if (options && word.startsWith("-")) continue;
      else if (word !== "" && !/[*?[\]$]/.test(word)) {
        const absolute = word.startsWith("/") || word.startsWith("~");
        if (!absolute && dir === null) continue;
        events.push({ op: "delete", path: absolute || dir === undefined ? word : `${dir}/${word}`, named: gitRm });
      }
    }
  }
  return events;
}
