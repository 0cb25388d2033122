/**
 * What the working tree holds at the end, read from the commands and their results: the files
 * changed after the last commit that succeeded (and steps such as a version bump made after it),
 * and the failed exploratory one-liners (`node -e …`, `python -c …`) that are context, not the
 * work: the next session finishes and commits the main change before chasing them.
 */
import { normalizePath } from "../../session/paths.ts";
import type { OfflineNotes, Run } from "./note-types.ts";
import type { Milestone } from "./milestones.ts";

export interface Uncommitted {
  /** The last commit that succeeded. */
  since: Milestone;
  /** Files changed after it, in their one form, oldest first. */
  files: string[];
  /** Steps of the arc after it that change files (a version bump). */
  steps: Milestone[];
}

/** Files changed after the last successful commit; undefined when the session made no commit (nothing says what is committed). */
export function readUncommitted(notes: OfflineNotes, cwd: string | undefined): Uncommitted | undefined {
  const since = notes.milestones.filter((m) => m.kind === "commit" && m.status === "done").at(-1);
  if (since === undefined) return undefined;
  const files = [...new Set(notes.edits.filter((edit) => edit.at > since.at).map((edit) => normalizePath(edit.text, cwd)))].filter(
    (path) => path !== "",
  );
  const steps = notes.milestones.filter((m) => m.kind === "bump" && m.status === "done" && m.at > since.at);
  return files.length === 0 && steps.length === 0 ? undefined : { since, files, steps };
}

/** Code run inline to look at something: `node -e`, `python -c`, `ruby -e`, `perl -e`, `bun -e`, `deno eval`, `php -r`. */
const INLINE_EVAL =
  /^(?:\S*\/)?(?:node|nodejs|bun|python[\d.]*|ruby|perl|php|deno)\s+(?:-[A-Za-z]*\s+)*(?:-e|-c|-p|-r|--eval|--print|eval)\b/;

/** A failed run that only looked at something: an inline one-liner, not a build, test or check of the work. */
export function isExploratory(run: Run): boolean {
  return INLINE_EVAL.test(run.command.trim());
}
