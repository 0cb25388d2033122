/**
 * Derived views of the commands run: the latest run of each command, and which failures a later
 * run settled. Several sections share them, so they are computed one way, and each command's
 * keys once (a long session has hundreds of runs).
 */
import { isCheckCommand } from "../../session/runs.ts";
import { runKeys, type RunKeys, settles } from "../../session/settled-failures.ts";
import type { Run } from "./note-types.ts";

export interface RunViews {
  /** The latest run of each distinct command (by `commandKey`) among `runs`, in the order those runs happened. */
  latest(runs: readonly Run[], keep: (run: Run) => boolean): Run[];
  /** The later run (among all) that settled a failed one (see `settles`): the failure was fixed and shown working by another command. */
  settledBy(run: Run, before?: number): Run | undefined;
  /** Drops the failed runs a later run settled. */
  unsettled(latest: readonly Run[], before?: number): Run[];
  /** The checks (`isCheckCommand`) whose latest run before `at` failed, and no later run before `at` settled. */
  failingChecksAt(at: number): Run[];
}

export function runViews(all: readonly Run[], cwd: string | undefined): RunViews {
  const memo = new Map<string, RunKeys>();
  const keys = (command: string): RunKeys => {
    const known = memo.get(command);
    if (known !== undefined) return known;
    const found = runKeys(command, cwd);
    memo.set(command, found);
    return found;
  };
  const latest = (runs: readonly Run[], keep: (run: Run) => boolean): Run[] => {
    const byKey = new Map<string, Run>();
    for (const run of runs) {
      if (!keep(run)) continue;
      const key = keys(run.command).key;
      byKey.delete(key);
      byKey.set(key, run);
    }
    return [...byKey.values()];
  };
  const settledBy = (run: Run, before = Number.POSITIVE_INFINITY): Run | undefined =>
    run.failed ? all.find((later) => later.at > run.at && later.at < before && settles(later, run, cwd, keys)) : undefined;
  const unsettled = (runs: readonly Run[], before?: number): Run[] => runs.filter((run) => settledBy(run, before) === undefined);
  const checks = new Map<string, boolean>();
  const isCheck = (run: Run): boolean => {
    const known = checks.get(run.command);
    if (known !== undefined) return known;
    const found = isCheckCommand(run.command);
    checks.set(run.command, found);
    return found;
  };
  return {
    latest,
    settledBy,
    unsettled,
    failingChecksAt: (at) =>
      unsettled(
        latest(
          all.filter((run) => run.at < at),
          isCheck,
        ),
        at,
      ).filter((run) => run.failed),
  };
}
