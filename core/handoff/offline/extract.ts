import { looksLikeHandoffInstruction } from "../../session/facts.ts";
import { isSearchCommand, readExitCode } from "../../session/runs.ts";
import { classifyToolCall, pathArgument } from "../../session/tools.ts";
import { messageText, type AssistantContextMessage, type ContextMessage } from "../../session/messages.ts";
import { unwrapSummary } from "../../session/wrappers.ts";
import { readBackground, type Background } from "./background.ts";
import { classifyEnding, isCompletion, isConstraint, isDecision } from "./patterns.ts";
import { capText, firstErrorLine, isSlashCommand, splitSentences, stripCodeBlocks } from "./text.ts";

/** Something said at a position in the context (`at` is the message index). */
export interface Said {
  text: string;
  at: number;
}

export interface ErrorSeen {
  /** What failed, e.g. a command or `edit src/x.ts`. */
  what: string;
  /** Set when a shell command failed: the command itself. */
  command: string | undefined;
  exitCode: number | null;
  line: string | undefined;
  at: number;
}

/** Everything the offline engine takes from the branch context, in order of appearance. */
export interface OfflineNotes {
  /** What people typed, verbatim (handoff instructions, slash commands and wrappers excluded). */
  requests: Said[];
  constraints: Said[];
  completions: Said[];
  /** Where the assistant closed the open requests: a completion report, or a reply that handed back. */
  closedAt: number[];
  decisions: Said[];
  errors: ErrorSeen[];
  /** Every shell command the assistant ran that got a result, with its exit code. */
  runs: { command: string; exitCode: number | null; at: number }[];
  /** Paths named by tool calls, in call order (repeats kept). */
  touched: Said[];
  background: Background[];
  /** The summaries of branches the user left, as recorded (without our wrapper). */
  branchSummaries: string[];
  /**
   * The assistant's work since the newest request: `at` of its newest message, its newest text,
   * and every tool call it made (oldest first).
   */
  lastTurn: { at: number; text: string; actions: string[]; stopReason: string | undefined } | undefined;
}

interface PendingCall {
  name: string;
  arguments: unknown;
}

/** The command of a shell tool call, by the one table that Session Facts and inspect use too. */
function commandOf(call: PendingCall): string | undefined {
  const action = classifyToolCall(call.name, call.arguments);
  return action.kind === "shell" ? action.command : undefined;
}

/** A short label for a tool call: `bash: npm test`, `edit src/x.ts`. */
export function describeCall(call: PendingCall): string {
  const command = commandOf(call);
  if (command !== undefined) return command;
  const path = pathArgument(call.arguments);
  return path === undefined ? call.name : `${call.name} ${path}`;
}

function noteAssistant(notes: OfflineNotes, message: AssistantContextMessage, at: number, calls: Map<string, PendingCall>): void {
  const texts: string[] = [];
  const actions: string[] = [];
  for (const block of message.content) {
    if (block.type === "toolCall") {
      calls.set(block.id, { name: block.name, arguments: block.arguments });
      actions.push(describeCall(block));
      const path = pathArgument(block.arguments);
      if (path !== undefined) notes.touched.push({ text: path, at });
    } else if (block.type === "text" && block.text.trim() !== "") {
      texts.push(block.text);
    }
  }
  for (const text of texts) {
    const sentences = splitSentences(text);
    if (isCompletion(stripCodeBlocks(text), sentences[0] ?? "")) notes.completions.push({ text: capText(stripCodeBlocks(text), 200), at });
    for (const sentence of sentences) if (isDecision(sentence)) notes.decisions.push({ text: capText(sentence, 220), at });
  }
  if (texts.length === 0 && actions.length === 0) return;
  const allText = texts.join("\n\n");
  const ending = classifyEnding(allText, message.stopReason, splitSentences(allText));
  if (ending === "completed" || ending === "replied" || notes.completions.at(-1)?.at === at) notes.closedAt.push(at);
  const sinceRequest = notes.requests.at(-1)?.at ?? -1;
  const turn = notes.lastTurn && notes.lastTurn.at > sinceRequest ? notes.lastTurn : { at, text: "", actions: [], stopReason: undefined };
  turn.at = at;
  turn.stopReason = message.stopReason;
  if (texts.length > 0) turn.text = allText;
  turn.actions.push(...actions);
  notes.lastTurn = turn;
}

/**
 * Walks the context once. A recorded handoff instruction and the assistant's answer to it are
 * skipped entirely: they are neither requests nor progress.
 */
export function extractNotes(context: readonly ContextMessage[]): OfflineNotes {
  const notes: OfflineNotes = {
    requests: [],
    constraints: [],
    completions: [],
    closedAt: [],
    decisions: [],
    errors: [],
    runs: [],
    touched: [],
    background: [],
    branchSummaries: [],
    lastTurn: undefined,
  };
  const calls = new Map<string, PendingCall>();
  let inHandoffAnswer = false;

  context.forEach((message, at) => {
    if (message.role === "user") {
      const text = messageText(message);
      inHandoffAnswer = message.kind === "user" && looksLikeHandoffInstruction(text);
      if (inHandoffAnswer) return;
      if (message.kind === "user") {
        if (text.trim() === "" || isSlashCommand(text)) return;
        notes.requests.push({ text, at });
        for (const sentence of splitSentences(text)) if (isConstraint(sentence)) notes.constraints.push({ text: capText(sentence, 220), at });
      } else if (message.kind === "compactionSummary") {
        notes.background.push(readBackground(unwrapSummary(text), "compaction"));
      } else if (message.kind === "custom" && text.includes("<handoff-context>")) {
        notes.background.push(readBackground(text, "handoff"));
      } else if (message.kind === "branchSummary") {
        notes.branchSummaries.push(unwrapSummary(text));
      }
      return;
    }
    if (inHandoffAnswer) return;
    if (message.role === "assistant") {
      noteAssistant(notes, message, at, calls);
      return;
    }
    const call = calls.get(message.toolCallId);
    if (!call) return;
    const output = messageText(message);
    const command = commandOf(call);
    const exitCode = readExitCode(output, message.isError);
    if (command !== undefined) notes.runs.push({ command, exitCode, at });
    const failed = message.isError || (command !== undefined && exitCode !== 0 && exitCode !== null);
    if (!failed || (command !== undefined && exitCode === 1 && isSearchCommand(command))) return;
    notes.errors.push({ what: describeCall(call), command, exitCode, line: firstErrorLine(output), at });
  });
  return notes;
}
