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

export interface TaskReport {
  taskId: string;
  /** The code the report states; `null` when the task was stopped; `undefined` when it states none. */
  exitCode: number | null | undefined;
}

function tagged(text: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1]?.trim();
}

/** A `<task-notification>`'s task and how it ended, or undefined when the text is not one. */
export function readTaskNotification(text: string): TaskReport | undefined {
  const start = text.trimStart();
  if (!start.startsWith("<task-notification>")) return undefined;
  const taskId = tagged(start, "task-id");
  if (taskId === undefined || taskId === "") return undefined;
  const status = tagged(start, "status");
  const code = /\bexit code:? (-?\d+)\b/.exec(tagged(start, "summary") ?? "")?.[1];
  if (status === "killed") return { taskId, exitCode: null };
  if (code !== undefined) return { taskId, exitCode: Number(code) };
  return { taskId, exitCode: status === "completed" ? 0 : undefined };
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

  /** Settles the result the report is about; a report of no Bash command we saw (an agent's, a monitor's) changes nothing. */
  reported(report: TaskReport): void {
    const result = this.waiting.get(report.taskId);
    if (!result || report.exitCode === undefined) return;
    result.exitCode = report.exitCode;
    this.waiting.delete(report.taskId);
  }
}
