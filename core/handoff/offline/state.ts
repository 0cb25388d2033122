import type { CommandRun, SessionFacts } from "../../session/facts.ts";
import { judgeRun } from "../../session/runs.ts";
import type { ErrorSeen, OfflineNotes, Said } from "./extract.ts";
import { changesOrChecks, classifyEnding, isCheckCommand } from "./patterns.ts";
import { collapseWhitespace, isAcknowledgement, relativeToCwd, splitSentences } from "./text.ts";

/** Where the work stood when the session ended, as the offline engine reads it. */
export type TurnState =
  | { kind: "none" }
  | { kind: "unanswered"; request: Said }
  | { kind: "acknowledged"; request: Said }
  | { kind: "completed"; text: string }
  | { kind: "question"; question: string }
  | { kind: "replied"; text: string }
  | { kind: "working"; text: string; actions: string[] };

/** Derived views of the notes and facts that several sections share. */
export interface WorkState {
  cwd: string | undefined;
  turn: TurnState;
  /** Requests after the assistant last closed the work (reported it done or handed back). */
  openRequests: Said[];
  /** Requests worth quoting as the goal: not acknowledgements, not one-word replies. */
  substantialRequests: Said[];
  /** The newest failed command since the last report of finished work, if its latest run still failed. */
  unresolvedFailure: ErrorSeen | undefined;
  /** Failed commands whose latest run succeeded. */
  passedLater: ReadonlySet<ErrorSeen>;
  /** Modified files (relative to cwd), least recently touched first. */
  modifiedFiles: string[];
  /** Paths touched most recently, newest last. */
  workingSet: { path: string; modified: boolean }[];
  /** Commands since the work was last handed back that changed or checked something, newest last. */
  recentRuns: CommandRun[];
  /** The latest run of each distinct check command (tests, builds, linters), newest last. */
  checks: CommandRun[];
  userCommands: string[];
}

function lastRunOf(commands: readonly CommandRun[], command: string): CommandRun | undefined {
  for (let i = commands.length - 1; i >= 0; i--) if (commands[i]?.command === command) return commands[i];
  return undefined;
}

/** Latest run per distinct command, ordered by when that latest run happened. */
function latestRuns(commands: readonly CommandRun[], keep: (run: CommandRun) => boolean): CommandRun[] {
  const latest = new Map<string, CommandRun>();
  for (const run of commands) {
    if (!keep(run)) continue;
    latest.delete(run.command);
    latest.set(run.command, run);
  }
  return [...latest.values()];
}

function readTurn(notes: OfflineNotes): TurnState {
  const request = notes.requests.at(-1);
  const turn = notes.lastTurn;
  if (request && (!turn || turn.at < request.at)) {
    return isAcknowledgement(request.text) ? { kind: "acknowledged", request } : { kind: "unanswered", request };
  }
  if (!turn) return { kind: "none" };
  const sentences = splitSentences(turn.text);
  switch (classifyEnding(turn.text, turn.stopReason, sentences)) {
    case "working":
      return { kind: "working", text: turn.text, actions: turn.actions };
    case "completed":
      return { kind: "completed", text: turn.text };
    case "question":
      return { kind: "question", question: sentences.at(-1) ?? turn.text };
    case "replied":
      return { kind: "replied", text: turn.text };
  }
}

export function readWorkState(notes: OfflineNotes, facts: SessionFacts, cwd: string | undefined): WorkState {
  const relative = (path: string): string => relativeToCwd(path, cwd);
  const lastClosed = notes.closedAt.at(-1) ?? -1;

  const touchedAt = new Map<string, number>();
  for (const touch of notes.touched) touchedAt.set(relative(touch.text), touch.at);
  const modified = [...new Set(facts.filesModified.map(relative))];
  const modifiedSet = new Set(modified);
  const byRecency = modified.map((path, order) => ({ path, order, at: touchedAt.get(path) ?? -1 }));
  byRecency.sort((a, b) => a.at - b.at || a.order - b.order);

  const workingSet = [...touchedAt.entries()].sort((a, b) => a[1] - b[1]).map(([path]) => ({ path, modified: modifiedSet.has(path) }));

  const latestError = notes.errors.at(-1);
  // Failed after the last report of finished work, and not run again successfully since.
  const lastCompletion = notes.completions.at(-1)?.at ?? -1;
  const stillFailing =
    latestError?.command !== undefined && latestError.at > lastCompletion && lastRunOf(facts.commands, latestError.command)?.exitCode !== 0;

  return {
    cwd,
    turn: readTurn(notes),
    openRequests: notes.requests.filter((r) => r.at > lastClosed && !isAcknowledgement(r.text)),
    substantialRequests: notes.requests.filter((r) => !isAcknowledgement(r.text) && collapseWhitespace(r.text).length >= 20),
    unresolvedFailure: stillFailing ? latestError : undefined,
    passedLater: new Set(notes.errors.filter((e) => e.command !== undefined && lastRunOf(facts.commands, e.command)?.exitCode === 0)),
    modifiedFiles: byRecency.map((f) => f.path),
    workingSet: workingSet.slice(-8),
    recentRuns: notes.runs.filter((run) => run.at > lastClosed && changesOrChecks(run.command)).map(({ command, exitCode }) => ({ command, by: "tool", ...judgeRun(command, exitCode, "") })),
    checks: latestRuns(facts.commands, (run) => isCheckCommand(run.command)).slice(-3),
    userCommands: latestRuns(facts.commands, (run) => run.by === "user").map((run) => run.command).slice(-3),
  };
}
