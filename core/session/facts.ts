import { isObject, numberField, stringField, type JsonObject } from "../json.ts";
import { type FileEvent, foldFileEvents } from "./file-changes.ts";
import { changesHappenedIn, judgeRun } from "./runs.ts";
import { shellFileEvents } from "./shell-changes.ts";
import { fileEventsOf, ToolCalls } from "./tool-calls.ts";
import type { Entry } from "./types.ts";

export interface CommandRun {
  command: string;
  /** `null` when the run failed or was cancelled without a code we could read. */
  exitCode: number | null;
  /** `tool`: the agent ran it; `user`: the user ran it with `!`. */
  by: "tool" | "user";
  /** Whether the run failed, by the one definition in `runs.ts` (a hidden pipe failure included). */
  failed: boolean;
}

/** Facts read straight off a branch by code, so no summary can lose them. */
export interface SessionFacts {
  /** The session's working directory; every path below is relative to it when inside it. */
  cwd: string | undefined;
  filesRead: string[];
  /** Files written and not deleted since. */
  filesModified: string[];
  /** Files whose last change was a deletion (`rm`, `git rm`, a patch's "Delete File"). */
  filesDeleted: string[];
  commands: CommandRun[];
  /** `provider/model`, in the order first used. */
  models: string[];
  /** The newest thing a person asked, verbatim; earlier handoff instructions do not count. */
  lastUserRequest: string | undefined;
}

/**
 * Recognises a handoff instruction recorded in a session (ours or the interactive agents'):
 * it names the handoff and asks for the Goal and Next Steps sections.
 */
export function looksLikeHandoffInstruction(text: string): boolean {
  return /hand-?off/i.test(text) && text.includes("## Goal") && text.includes("## Next Steps");
}

function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  // Most contents are one text block: its text is the whole of it.
  const only = content.length === 1 ? content[0] : undefined;
  if (isObject(only) && only.type === "text" && typeof only.text === "string") return only.text;
  const parts: string[] = [];
  for (const block of content) if (isObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
  return parts.join("\n");
}

function resultText(message: JsonObject): string {
  return userText(message.content);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Collects facts from every entry on a branch, including parts a compaction summarised away.
 * Paths come out in their one form (see `normalizePath`), each once.
 */
export function collectFacts(branch: readonly Entry[], cwd?: string): SessionFacts {
  const files: FileEvent[] = [];
  const touch = (op: "read" | "write", paths: readonly string[]) => {
    for (const path of paths) files.push({ op, path });
  };
  const models = new Set<string>();
  const commands: CommandRun[] = [];
  // A command is listed from its call on (one never answered has no code); one that never ran is taken out.
  const calls = new ToolCalls<CommandRun>();
  const refused = new Set<CommandRun>();
  let unnamed = 0;
  /** What each user message holds, oldest first: only the newest that asks something is read. */
  const userContents: unknown[] = [];
  // The model of the previous assistant message: most name the same one, already in `models`.
  let answeredBy: { provider: string | undefined; model: string | undefined } | undefined;

  for (const entry of branch) {
    const data = entry.data;
    if (entry.type === "compaction" || entry.type === "branch_summary") {
      const details = isObject(data.details) ? data.details : {};
      touch("read", stringList(details.readFiles));
      touch("write", stringList(details.modifiedFiles));
    } else if (entry.type === "model_change") {
      const model = stringField(data, "model") ?? joinModel(stringField(data, "provider"), stringField(data, "modelId"));
      if (model) models.add(model);
    } else if (entry.type === "message" && isObject(data.message)) {
      const message = data.message;
      switch (message.role) {
        case "user":
          userContents.push(message.content);
          break;
        case "assistant": {
          const provider = stringField(message, "provider");
          const model = stringField(message, "model");
          if (answeredBy === undefined || answeredBy.provider !== provider || answeredBy.model !== model) {
            answeredBy = { provider, model };
            const joined = joinModel(provider, model);
            if (joined) models.add(joined);
          }
          // The calls of a turn cut short by an abort or an error were never run.
          if (message.stopReason === "aborted" || message.stopReason === "error") break;
          for (const block of Array.isArray(message.content) ? message.content : []) {
            if (!isObject(block) || block.type !== "toolCall" || typeof block.name !== "string") continue;
            const run: CommandRun = { command: "", exitCode: null, by: "tool", failed: false };
            // A call without an id can get no result: it stays unanswered.
            const action = calls.call(
              typeof block.id === "string" ? block.id : `\u0000call ${unnamed++}`,
              block.name,
              block.arguments,
              run,
            );
            if (action.kind === "shell" && typeof block.id === "string") {
              run.command = action.command;
              commands.push(run);
            }
          }
          break;
        }
        case "toolResult": {
          // A reader that found the exit code beside the text (Claude Code's Bash) states it: a number, or null for a run cut short.
          const stated = message.exitCode === null ? null : numberField(message, "exitCode");
          const id = stringField(message, "toolCallId") ?? "";
          const settled = calls.result(id, resultText(message), message.isError === true, stated, message.reportedFailed === true);
          if (settled?.kind === "run") Object.assign(settled.payload, settled.verdict);
          if (settled?.kind === "refused") refused.add(settled.payload);
          if (settled?.kind === "run" || settled?.kind === "done") for (const event of settled.events) files.push(event);
          break;
        }
        case "bashExecution": {
          if (message.excludeFromContext === true) break;
          const command = stringField(message, "command");
          const exitCode = typeof message.exitCode === "number" && message.cancelled !== true ? message.exitCode : null;
          if (!command) break;
          const run: CommandRun = { command, by: "user", ...judgeRun(command, exitCode, stringField(message, "output") ?? "") };
          commands.push(run);
          if (changesHappenedIn(run)) for (const event of shellFileEvents(command)) files.push(event);
          break;
        }
      }
    }
  }
  // A read or an edit whose result was never recorded is taken as done, as it was asked.
  for (const { action } of calls.unanswered()) for (const event of fileEventsOf(action)) files.push(event);
  const { read, modified, deleted } = foldFileEvents(files, cwd);
  const ran = refused.size === 0 ? commands : commands.filter((run) => !refused.has(run));
  return {
    cwd,
    filesRead: read,
    filesModified: modified,
    filesDeleted: deleted,
    commands: ran,
    models: [...models],
    lastUserRequest: newestRequest(userContents),
  };
}

/** The newest user message that asks something (not blank, not a handoff instruction), verbatim. */
function newestRequest(contents: readonly unknown[]): string | undefined {
  for (let i = contents.length - 1; i >= 0; i--) {
    const text = userText(contents[i]);
    if (text.trim() !== "" && !looksLikeHandoffInstruction(text)) return text;
  }
  return undefined;
}

function joinModel(provider: string | undefined, model: string | undefined): string | undefined {
  if (!model) return undefined;
  return provider && !model.startsWith(`${provider}/`) ? `${provider}/${model}` : model;
}
