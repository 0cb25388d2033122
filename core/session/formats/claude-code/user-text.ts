/**
 * What a `user` line's text is. Claude Code saves its own notes as user lines too: wrappers
 * around slash commands and their local output, the `!` shell mode, interruption markers. Only
 * some of it is the user's words. (Tag names as Claude Code 2.1.328 writes them.)
 */
import { readTaskNotification, type TaskReport } from "./background-tasks.ts";

export type UserText =
  /** Words the user typed (or pasted). */
  | { kind: "prompt" }
  /** A slash command as the user typed it: `/name args`. */
  | { kind: "command"; typed: string }
  /** What a local command (one that never asks the model, like `/compact` or `/model`) printed. */
  | { kind: "commandOutput" }
  /** A command the user ran in the `!` shell mode. */
  | { kind: "shellInput"; command: string }
  /** What that command printed; `exitCode` when Claude Code recorded one. */
  | { kind: "shellOutput"; output: string; exitCode: number | undefined }
  /** A background task's report (background-tasks.ts), delivered in the user's role: not the user's words. */
  | { kind: "taskNotification"; report: TaskReport }
  /** Claude Code's own note (a caveat, an interruption marker): nobody's words. */
  | { kind: "note" };

/** The markers Claude Code writes when the user stops a turn: its words, not the user's. */
const INTERRUPTION_MARKERS = new Set(["[Request interrupted by user]", "[Request interrupted by user for tool use]"]);

/** The text between `<tag>` and `</tag>`, or undefined when the tag is not there. */
function tagged(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return end === -1 ? undefined : text.slice(start + open.length, end);
}

/** `/name args`, as the user typed the command. */
function typedCommand(text: string): string {
  const name = (tagged(text, "command-name") ?? "").trim();
  const args = (tagged(text, "command-args") ?? "").trim();
  const slashed = name.startsWith("/") ? name : `/${name}`;
  return args === "" ? slashed : `${slashed} ${args}`;
}

function shellOutput(text: string): UserText {
  const stdout = tagged(text, "bash-stdout") ?? "";
  const stderr = tagged(text, "bash-stderr") ?? "";
  const code = tagged(text, "bash-exit-code");
  const exitCode = code !== undefined && /^\s*-?\d+\s*$/.test(code) ? Number(code) : undefined;
  return { kind: "shellOutput", output: [stdout, stderr].filter((part) => part !== "").join("\n"), exitCode };
}

/** Reads the text of a user line (its blocks joined) by the wrapper it starts with. */
export function classifyUserText(text: string): UserText {
  const start = text.trimStart();
  if (INTERRUPTION_MARKERS.has(start.trim())) return { kind: "note" };
  if (!start.startsWith("<")) return { kind: "prompt" };
  if (start.startsWith("<local-command-caveat>")) return { kind: "note" };
  if (start.startsWith("<task-notification>")) {
    const report = readTaskNotification(start);
    return report ? { kind: "taskNotification", report } : { kind: "note" };
  }
  if (start.startsWith("<local-command-stdout>") || start.startsWith("<local-command-stderr>")) return { kind: "commandOutput" };
  if (start.startsWith("<command-name>") || start.startsWith("<command-message>")) return { kind: "command", typed: typedCommand(start) };
  if (start.startsWith("<bash-input>")) return { kind: "shellInput", command: tagged(start, "bash-input") ?? "" };
  if (start.startsWith("<bash-stdout>") || start.startsWith("<bash-stderr>")) return shellOutput(start);
  return { kind: "prompt" };
}
