import { isObject, stringField, type JsonObject } from "../json.ts";
import type { Entry } from "./types.ts";

export interface CommandRun {
  command: string;
  /** `null` when the run failed or was cancelled without a code we could read. */
  exitCode: number | null;
  /** `tool`: the agent ran it; `user`: the user ran it with `!`. */
  by: "tool" | "user";
}

/** Facts read straight off a branch by code, so no summary can lose them. */
export interface SessionFacts {
  filesRead: string[];
  filesModified: string[];
  commands: CommandRun[];
  /** `provider/model`, in the order first used. */
  models: string[];
  /** The newest thing a person asked, verbatim; earlier handoff instructions do not count. */
  lastUserRequest: string | undefined;
}

const READ_TOOLS = new Set(["read", "read_file", "view"]);
const WRITE_TOOLS = new Set(["write", "edit", "multi_edit", "multiedit", "write_file", "edit_file", "apply_patch"]);
const SHELL_TOOLS = new Set(["bash", "shell", "exec"]);

/**
 * Recognises a handoff instruction recorded in a session (ours or the interactive agents'):
 * it names the handoff and asks for the Goal and Next Steps sections.
 */
export function looksLikeHandoffInstruction(text: string): boolean {
  return /hand-?off/i.test(text) && text.includes("## Goal") && text.includes("## Next Steps");
}

/** The file a tool call names, under any of the argument names the agents use. */
export function pathArgument(args: unknown): string | undefined {
  if (!isObject(args)) return undefined;
  return stringField(args, "path") ?? stringField(args, "file_path") ?? stringField(args, "filePath");
}

function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) if (isObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
  return parts.join("\n");
}

/**
 * A shell command's exit code, read from its tool result: the code the output states
 * ("exit code 2", "Command exited with code 1"), else 0 for a success and `null` for an error.
 */
export function readExitCode(output: string, isError: boolean): number | null {
  const match = /exit(?:ed with)? code:?\s*(-?\d+)/i.exec(output);
  if (match?.[1] !== undefined) return Number(match[1]);
  return isError ? null : 0;
}

function resultExitCode(message: JsonObject): number | null {
  return readExitCode(userText(message.content), message.isError === true);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Collects facts from every entry on a branch, including parts a compaction summarised away. */
export function collectFacts(branch: readonly Entry[]): SessionFacts {
  const read = new Set<string>();
  const modified = new Set<string>();
  const models = new Set<string>();
  const commands: CommandRun[] = [];
  const pendingCommands = new Map<string, CommandRun>();
  let lastUserRequest: string | undefined;

  for (const entry of branch) {
    const data = entry.data;
    if (entry.type === "compaction" || entry.type === "branch_summary") {
      const details = isObject(data.details) ? data.details : {};
      for (const path of stringList(details.readFiles)) read.add(path);
      for (const path of stringList(details.modifiedFiles)) modified.add(path);
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
            const name = block.name.toLowerCase();
            const path = pathArgument(block.arguments);
            if (path && READ_TOOLS.has(name)) read.add(path);
            if (path && WRITE_TOOLS.has(name)) modified.add(path);
            const command = isObject(block.arguments) ? stringField(block.arguments, "command") : undefined;
            if (command && SHELL_TOOLS.has(name) && typeof block.id === "string") {
              const run: CommandRun = { command, exitCode: null, by: "tool" };
              commands.push(run);
              pendingCommands.set(block.id, run);
            }
          }
          break;
        }
        case "toolResult": {
          const run = pendingCommands.get(stringField(message, "toolCallId") ?? "");
          if (run) run.exitCode = resultExitCode(message);
          break;
        }
        case "bashExecution": {
          if (message.excludeFromContext === true) break;
          const command = stringField(message, "command");
          const exitCode = typeof message.exitCode === "number" && message.cancelled !== true ? message.exitCode : null;
          if (command) commands.push({ command, exitCode, by: "user" });
          break;
        }
      }
    }
  }
  return { filesRead: [...read], filesModified: [...modified], commands, models: [...models], lastUserRequest };
}

function joinModel(provider: string | undefined, model: string | undefined): string | undefined {
  if (!model) return undefined;
  return provider && !model.startsWith(`${provider}/`) ? `${provider}/${model}` : model;
}
