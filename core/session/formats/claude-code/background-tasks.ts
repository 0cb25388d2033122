/**
 * Bash commands Claude Code ran in the background. Such a call returns at once ("Command running
 * in background with ID: …"), with `toolUseResult.backgroundTaskId`, whether the model asked for
 * `run_in_background`, the user pressed Ctrl-B or the command outlived its timeout. Its result
 * says nothing of how the command ends: reading it as a success (exit 0) would be a guess. How it
 * ended comes later, in a `<task-notification>` Claude Code delivers to the model in the user's
 * role (a user line, or a `queued_command` attachment of mode `task-notification`; either way
 * not the user's words): `<task-id>`, `<status>` (`completed`, `failed`, `killed`), and a
 * `<summary>` such as `Background command "…" completed (exit code 0)` (Claude Code 2.1.328).
 */
import { isObject, type JsonObject } from "../../../json.ts";

/** The task id a Bash result names when the command went on in the background. */
export function backgroundTaskOf(toolUseResult: unknown): string | undefined {
  if (!isObject(toolUseResult)) return undefined;
  const id = toolUseResult.backgroundTaskId;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** How a background task ended, in Claude Code's own words. */
export interface TaskOutcome {
  /** The code the report states; `null` when it states none (stopped, or failed without one). */
  exitCode: number | null;
  /** The report's `<status>` is `failed`: Claude Code judged the run failed, whatever its code. */
  failed: boolean;
}

export interface TaskReport {
  taskId: string;
  /** How the task ended; `undefined` when the report does not say (a "still running" notice, an unknown status). */
  outcome: TaskOutcome | undefined;
}

function tagged(text: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1]?.trim();
}

/**
 * The code at the end of a summary, where Claude Code 2.1.328 writes it after the quoted
 * description: `Background command "<description>" completed (exit code N)` (or `(exit code N:
 * No matches found)`, its reading of a check's answer) and `… failed with exit code N`. The
 * description is the model's text and may hold "exit code 0" or a quote itself: only the closing
 * words count. The note after the colon holds no parenthesis, so the match cannot begin inside
 * the description; a summary over 1000 characters loses its middle, never its end. Either
 * verb takes either form of the code (`failed (exit code 3)` is read too: the code still closes
 * the summary, after the description).
 */
const CLOSING_CODE = /" (?:completed|failed)(?: \(exit code (-?\d+)(?:: [^()]*)?\)| with exit code (-?\d+))$/;

function closingCode(summary: string): number | undefined {
  const match = CLOSING_CODE.exec(summary);
  const code = match?.[1] ?? match?.[2];
  return code === undefined ? undefined : Number(code);
}

/**
 * How the report says the task ended. `<status>` is Claude Code's verdict: `failed` is a failed
 * run whatever the summary says (a code of 0 beside it contradicts it, so no code is kept);
 * `killed` was stopped (by the user, a time limit, low memory): no code, no failure; `completed`
 * without a code succeeded.
 */
function outcomeOf(status: string | undefined, code: number | undefined): TaskOutcome | undefined {
  if (status === "killed") return { exitCode: null, failed: false };
  if (status === "failed") return { exitCode: code !== undefined && code !== 0 ? code : null, failed: true };
  if (status === "completed") return { exitCode: code ?? 0, failed: false };
  return code === undefined ? undefined : { exitCode: code, failed: false };
}

/** A `<task-notification>`'s task and how it ended, or undefined when the text is not one. */
export function readTaskNotification(text: string): TaskReport | undefined {
  const start = text.trimStart();
  if (!start.startsWith("<task-notification>")) return undefined;
  const taskId = tagged(start, "task-id");
  if (taskId === undefined || taskId === "") return undefined;
  return { taskId, outcome: outcomeOf(tagged(start, "status"), closingCode(tagged(start, "summary") ?? "")) };
}

/**
 * The tool results of commands still running in the background, by task id, until a report
 * settles them: the report's code becomes the result's `exitCode`, as if the call had waited.
 */
export class BackgroundTasks {
  private readonly waiting = new Map<string, JsonObject>();

  started(taskId: string, result: JsonObject): void {
    this.waiting.set(taskId, result);
  }

  /**
   * Settles the result the report is about; a report of no Bash command we saw (an agent's, a
   * monitor's) changes nothing. A run Claude Code reports failed is marked so (`reportedFailed`),
   * as it may state no code (see `judgeRun`).
   */
  reported(report: TaskReport): void {
    const result = this.waiting.get(report.taskId);
    if (!result || report.outcome === undefined) return;
    result.exitCode = report.outcome.exitCode;
    if (report.outcome.failed) result.reportedFailed = true;
    this.waiting.delete(report.taskId);
  }
}
