import { isObject, stringField, type JsonObject } from "../json.ts";
import { uniquePaths } from "./paths.ts";
import { judgeRun, readExitCode } from "./runs.ts";
import { classifyToolCall } from "./tools.ts";
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
  filesModified: string[];
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
  const read: string[] = [];
  const modified: string[] = [];
  const models = new Set<string>();
  const commands: CommandRun[] = [];
  const pendingCommands = new Map<string, CommandRun>();
  let lastUserRequest: string | undefined;

  for (const entry of branch) {
    const data = entry.data;
    if (entry.type === "compaction" || entry.type === "branch_summary") {
      const details = isObject(data.details) ? data.details : {};
      read.push(...stringList(details.readFiles));
      modified.push(...stringList(details.modifiedFiles));
    } else if (entry.type === "model_change") {
      const model = stringField(data, "model") ?? joinModel(stringField(data, "provider"), stringField(data, "modelId"));
      if (model) models.add(model);
    } else if (entry.type === "message" && isObject(data.message)) {
      const message = data.message;
      switch (message.role) {
        case "user": {
          const text = userText(message.content);
          if (text.trim() !== "" && !looksLikeHandoffInstruction(text)) lastUserRequest = text;
          break;
        }
        case "assistant": {
          const model = joinModel(stringField(message, "provider"), stringField(message, "model"));
          if (model) models.add(model);
          // The calls of a turn cut short by an abort or an error were never run.
          if (message.stopReason === "aborted" || message.stopReason === "error") break;
          for (const block of Array.isArray(message.content) ? message.content : []) {
            if (!isObject(block) || block.type !== "toolCall" || typeof block.name !== "string") continue;
            const action = classifyToolCall(block.name, block.arguments);
            if (action.kind === "read") read.push(...action.paths);
            if (action.kind === "write") modified.push(...action.paths);
            if (action.kind === "shell" && typeof block.id === "string") {
              const run: CommandRun = { command: action.command, exitCode: null, by: "tool", failed: false };
              commands.push(run);
              pendingCommands.set(block.id, run);
            }
          }
          break;
        }
        case "toolResult": {
          const run = pendingCommands.get(stringField(message, "toolCallId") ?? "");
          if (run) Object.assign(run, judgeRun(run.command, readExitCode(resultText(message), message.isError === true), resultText(message)));
          break;
        }
        case "bashExecution": {
          if (message.excludeFromContext === true) break;
          const command = stringField(message, "command");
          const exitCode = typeof message.exitCode === "number" && message.cancelled !== true ? message.exitCode : null;
          if (command) commands.push({ command, by: "user", ...judgeRun(command, exitCode, stringField(message, "output") ?? "") });
          break;
        }
      }
    }
  }
  return { cwd, filesRead: uniquePaths(read, cwd), filesModified: uniquePaths(modified, cwd), commands, models: [...models], lastUserRequest };
}

function joinModel(provider: string | undefined, model: string | undefined): string | undefined {
  if (!model) return undefined;
  return provider && !model.startsWith(`${provider}/`) ? `${provider}/${model}` : model;
}
