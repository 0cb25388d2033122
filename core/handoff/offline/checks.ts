/**
 * Derived views of the commands run: the latest run of each command, and which failures a later
 * run settled. Several sections share them, so they are computed one way.
 */
import { commandKey } from "../../session/runs.ts";
import { settles } from "../../session/settled.ts";
import type { Run } from "./extract.ts";

/** The latest run of each distinct command (by `commandKey`), in the order those runs happened. */
export function latestRuns(runs: readonly Run[], cwd: string | undefined, keep: (run: Run) => boolean): Run[] {
  const latest = new Map<string, Run>();
  for (const run of runs) {
    if (!keep(run)) continue;
    const key = commandKey(run.command, cwd);
    latest.delete(key);
    latest.set(key, run);
  }
  return [...latest.values()];
}

/** The later run that settled a failed one (see `settles`): the failure was fixed and shown working by another command. */
export function settledBy(run: Run, runs: readonly Run[], cwd: string | undefined): Run | undefined {
  return run.failed ? runs.find((later) => later.at > run.at && settles(later, run, cwd)) : undefined;
}

/** Drops the failed runs a later run settled. */
export function unsettled(latest: readonly Run[], runs: readonly Run[], cwd: string | undefined): Run[] {
  return latest.filter((run) => settledBy(run, runs, cwd) === undefined);
}

/** The checks whose latest run before `at` failed, and no later run before `at` settled. */
export function failingChecksAt(runs: readonly Run[], at: number, cwd: string | undefined, isCheck: (command: string) => boolean): Run[] {
  const before = runs.filter((run) => run.at < at);
  return unsettled(latestRuns(before, cwd, (run) => isCheck(run.command)), before, cwd).filter((run) => run.failed);
}
