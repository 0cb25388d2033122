/**
 * Pairs tool calls with their results and says what each pair did: a command run and its
 * verdict, files read or changed, or nothing (the call never ran, or failed). Session Facts
 * (over entries) and the offline engine (over the context) both walk calls through one of
 * these, so they cannot disagree on which commands ran, how they ended, or which files changed.
 *
 * Three rules live here and nowhere else:
 * - a call whose result says it never ran (refused, rejected) is not a command run;
 * - a read or an edit whose result is a failure, or that was cut short, changed no file list;
 * - a Codex command still running when its call returned ("Process running with session ID N")
 *   gets its exit code from the `write_stdin` poll of that session that states one.
 */
import type { FileEvent } from "./file-changes.ts";
import { changesHappenedIn, judgeRun, type RunVerdict } from "./runs.ts";
import { shellFileEvents } from "./shell-changes.ts";
import { readToolResult } from "./tool-output.ts";
import type { ResultFraming } from "./tool-statements.ts";
import { classifyToolCall, toolFraming, type ToolAction } from "./tools.ts";

/** What a result settled, for the caller's own record of the call (`T`). */
export type Settlement<T> =
  /** A command's result: its verdict, what it printed (every poll's share included), and the files it read, deleted and wrote (only when it succeeded). */
  | { kind: "run"; payload: T; command: string; output: string; verdict: RunVerdict; events: readonly FileEvent[] }
  /** A command still running: no verdict until a poll states its code. */
  | { kind: "running"; payload: T }
  /** The call never ran: it is not a command and changed nothing. */
  | { kind: "refused"; payload: T; output: string }
  /** Any other call: the files it read or changed (none when it failed). */
  | { kind: "done"; payload: T; failed: boolean; output: string; events: readonly FileEvent[] };

interface Call<T> {
  action: ToolAction;
  payload: T;
  /** How its result is framed (tools.ts). */
  framing: ResultFraming;
}

interface Running<T> {
  payload: T;
  command: string;
  workdir: string | undefined;
  output: string;
}

/** The command as the shell saw it: a call's `workdir` is where its relative paths lie. */
function inWorkdir(command: string, workdir: string | undefined): string {
  if (workdir === undefined) return command;
  const quoted = /^[\w@%+=:,./~-]+$/.test(workdir) ? workdir : `'${workdir.replace(/'/g, `'\\''`)}'`;
  return `cd ${quoted} && ${command}`;
}

/** The file events of a read or an edit that took effect (also used for calls whose result was never recorded). */
export function fileEventsOf(action: ToolAction): FileEvent[] {
  const events: FileEvent[] = [];
  if (action.kind === "read") for (const path of action.paths) events.push({ op: "read", path });
  if (action.kind !== "write") return events;
  for (const path of action.paths) events.push({ op: "write", path });
  for (const path of action.deleted) events.push({ op: "delete", path, named: true });
  return events;
}

/** No file touched: one frozen list for every settlement that touched none. */
const NO_EVENTS: readonly FileEvent[] = Object.freeze([]);

export class ToolCalls<T> {
  private readonly calls = new Map<string, Call<T>>();
  /** Commands still running, by Codex unified exec session id. */
  private readonly running = new Map<string, Running<T>>();
  /**
   * What each command line read and changed, as `shellFileEvents` read it off the line: agents
   * run the same lines again and again (a build, the tests), and reading one takes a while.
   */
  private readonly lineEvents = new Map<string, readonly FileEvent[]>();

  /** Records a call; returns what it is, through the one table (tools.ts). */
  call(id: string, name: string, args: unknown, payload: T): ToolAction {
    const action = classifyToolCall(name, args);
    this.calls.set(id, { action, payload, framing: toolFraming(name) });
    return action;
  }

  /**
   * Settles the call this result answers. `stated` is an exit code a reader found beside the
   * text (see `readToolResult`); `reportedFailed`, that the agent itself reported the run failed
   * (see `judgeRun`). `undefined`: no call waits for this id, or nothing settled.
   */
  result(id: string, output: string, isError: boolean, stated?: number | null, reportedFailed = false): Settlement<T> | undefined {
    const call = this.calls.get(id);
    if (!call) return undefined;
    // One result answers one call: a later result with a reused id must not judge it again.
    this.calls.delete(id);
    const { action, payload, framing } = call;
    const reading = readToolResult(output, isError, stated, { framing, shell: action.kind === "shell" });
    if (reading.refused) return { kind: "refused", payload, output };
    if (action.kind === "shell") {
      if (reading.runningSession !== undefined && reading.exitCode === null) {
        this.running.set(reading.runningSession, { payload, command: action.command, workdir: action.workdir, output: reading.body });
        return { kind: "running", payload };
      }
      // The agent reported the run failed (Claude Code's background report), or Codex could not run it.
      return this.settleRun(payload, action.command, action.workdir, reading.body, reading.exitCode, reportedFailed || reading.couldNotRun);
    }
    if (action.kind === "poll") {
      const run = this.running.get(action.session);
      if (!run) return { kind: "done", payload, failed: reading.failed, output, events: NO_EVENTS };
      run.output = run.output === "" ? reading.body : `${run.output}\n${reading.body}`;
      // Only Codex's own "Process exited with code N" ends it: a poll that says nothing more leaves it running.
      if (!reading.stated) return undefined;
      this.running.delete(action.session);
      // A command the agent stopped itself (Ctrl-C: a dev server it no longer needs) was cancelled, not failed.
      const exitCode = action.interrupts && reading.exitCode !== 0 ? null : reading.exitCode;
      return this.settleRun(run.payload, run.command, run.workdir, run.output, exitCode);
    }
    // A call cut short changed no file we can name: whether the edit landed is unknown.
    const changedNothing = reading.failed || reading.cutShort;
    return { kind: "done", payload, failed: changedNothing, output, events: changedNothing ? NO_EVENTS : fileEventsOf(action) };
  }

  private settleRun(
    payload: T,
    command: string,
    workdir: string | undefined,
    output: string,
    exitCode: number | null,
    reportedFailed = false,
  ): Settlement<T> {
    const verdict = judgeRun(command, exitCode, output, reportedFailed);
    // What a command read, deleted or wrote counts only if it ran to success (or to a check's answer):
    // `cat missing.txt` read nothing.
    const events = changesHappenedIn(verdict) ? this.eventsOfLine(inWorkdir(command, workdir)) : NO_EVENTS;
    return { kind: "run", payload, command, output, verdict, events };
  }

  /** The same events each time a line runs again: a settlement's events are read, never changed. */
  private eventsOfLine(line: string): readonly FileEvent[] {
    let events = this.lineEvents.get(line);
    if (events === undefined) {
      events = shellFileEvents(line);
      this.lineEvents.set(line, events);
    }
    return events;
  }

  /** Calls no result answered (the session ended before they returned), in call order. */
  unanswered(): Call<T>[] {
    return [...this.calls.values()];
  }
}
