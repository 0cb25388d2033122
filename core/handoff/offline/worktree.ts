/**
 * What the working tree holds at the end, read from the commands and their results: the files
 * changed after the last commit that succeeded (and steps such as a version bump made after it),
 * and the failed exploratory one-liners (`node -e …`, `python -c …`) that are context, not the
 * work: the next session finishes and commits the main change before chasing them.
 */
import type { SessionFacts } from "../../session/facts.ts";
import { pathNormalizer } from "../../session/paths.ts";
import type { OfflineNotes, Run } from "./note-types.ts";
import type { Milestone } from "./milestones.ts";

export interface Uncommitted {
  /** The last commit that succeeded; a command only when it ran before what the context holds (a compaction replaced it). */
  since: Milestone | { command: string };
  /** Files changed after it, in their one form, oldest first. */
  files: string[];
  /** Steps of the arc after it that change files (a version bump). */
  steps: Milestone[];
}

/** A successful `git commit` among the branch's runs (Session Facts count them all, also those a compaction replaced). */
const COMMIT = /\bgit\s+commit\b/;

/**
 * Files changed after the last successful commit; undefined when the session made no commit
 * (nothing says what is committed). A commit only the facts know (it ran before a compaction)
 * comes before everything the context holds.
 */
export function readUncommitted(notes: OfflineNotes, facts: SessionFacts, cwd: string | undefined): Uncommitted | undefined {
  const seen = notes.milestones.filter((m) => m.kind === "commit" && m.status === "done").at(-1);
  const earlier = facts.commands.filter((run) => COMMIT.test(run.command) && run.exitCode === 0 && !run.failed).at(-1);
  const since: Uncommitted["since"] | undefined = seen ?? (earlier === undefined ? undefined : { command: earlier.command });
  if (since === undefined) return undefined;
  const after = "at" in since ? since.at : -1;
  const normalize = pathNormalizer(cwd);
  const files = [...new Set(notes.edits.filter((edit) => edit.at > after).map((edit) => normalize(edit.text)))].filter(
    (path) => path !== "",
  );
  const steps = notes.milestones.filter((m) => m.kind === "bump" && m.status === "done" && m.at > after);
  return files.length === 0 && steps.length === 0 ? undefined : { since, files, steps };
}

/** Code run inline to look at something: `node -e`, `python -c`, `ruby -e`, `perl -e`, `bun -e`, `deno eval`, `php -r`. */
const INLINE_EVAL =
  /^(?:\S*\/)?(?:node|nodejs|bun|python[\d.]*|ruby|perl|php|deno)\s+(?:-[A-Za-z]*\s+)*(?:-e|-c|-p|-r|--eval|--print|eval)\b/;

/** A failed run that only looked at something: an inline one-liner, not a build, test or check of the work. */
export function isExploratory(run: Run): boolean {
  return INLINE_EVAL.test(run.command.trim());
}
