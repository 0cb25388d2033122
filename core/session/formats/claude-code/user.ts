/**
 * Claude Code's `user` lines: what the user typed, tool results, a compaction's summary, and
 * the notes Claude Code saves in the user's name (see user-text.ts).
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";
import { contentText, holdsToolResult, splitToolResults, userBlocks, type ToolResultBlock } from "./blocks.ts";
import { PASS_THROUGH_PREFIX, type ChainBuilder } from "./chain.ts";
import { boundaryOf, summaryOf, type Boundaries } from "./compaction.ts";
import { isWrappedHandoff } from "../handoff-text.ts";
import { backgroundTaskOf, type BackgroundTasks } from "./background-tasks.ts";
import { classifyUserText } from "./user-text.ts";

export interface UserLine {
  uuid: string;
  parentUuid: string | null;
  line: number;
  timestamp: string | undefined;
  message: JsonObject;
  record: JsonObject;
}

/** What the user-side lines need to know of the rest of the file. */
export interface UserContext {
  chain: ChainBuilder;
  /** Tool names by call id, from the assistant lines read so far. */
  toolNames: Map<string, string>;
  boundaries: Boundaries;
  /** The messages that are slash commands, until a local command's output shows one ran in Claude Code alone. */
  commands: Set<Entry>;
  /** Bash results of commands still running in the background, until a task notification settles them. */
  background: BackgroundTasks;
}

function note(context: UserContext, line: UserLine): Entry {
  return context.chain.add(`${PASS_THROUGH_PREFIX}note`, line.uuid, line.line, line.parentUuid, {}, { conversation: false });
}

function message(context: UserContext, line: UserLine, id: string, parentUuid: string | null, fields: JsonObject): Entry {
  return context.chain.add("message", id, line.line, parentUuid, { timestamp: line.timestamp, message: fields }, { conversation: true });
}

/**
 * The exit code a Bash result states beside its text (`toolUseResult`, which has `stdout`).
 * Claude Code reads exit code 1 of a search or a test (`grep`, `test`, `diff`, …) as an answer,
 * not an error: the result is then no error, and only `returnCodeInterpretation` ("No matches
 * found", "Condition is false") says the command exited 1. A run the user interrupted has no
 * code (null). A failed run's text starts "Exit code N", which the facts read themselves.
 */
function statedExitCode(toolUseResult: unknown, result: ToolResultBlock): number | null | undefined {
  if (!isObject(toolUseResult) || typeof toolUseResult.stdout !== "string") return undefined;
  if (toolUseResult.interrupted === true) return null;
  // Still running when the call returned: no code yet (background-tasks.ts), not the 0 of a plain success.
  if (backgroundTaskOf(toolUseResult) !== undefined && !result.isError) return null;
  const interpretation = stringField(toolUseResult, "returnCodeInterpretation");
  return !result.isError && interpretation !== undefined && interpretation !== "" ? 1 : undefined;
}

/** Tool results, one toolResult message each, then anything else the line says after them. */
function addToolResults(context: UserContext, line: UserLine, content: unknown[]): void {
  const { results, rest } = splitToolResults(content);
  const extra = userBlocks(rest);
  const userWords = extra.length > 0 && classifyUserText(contentText(rest)).kind === "prompt";
  const count = results.length + (userWords ? 1 : 0);
  // One line, several messages: each gets an id of its own, chained; the line's uuid stands for the last.
  const idOf = (index: number) => (count === 1 ? line.uuid : `${line.uuid}#${index + 1}`);
  let parent: string | null = line.parentUuid;
  let first: Entry | undefined;
  let last: Entry | undefined;
  results.forEach((result, index) => {
    const fields: JsonObject = {
      role: "toolResult",
      toolCallId: result.toolUseId,
      toolName: context.toolNames.get(result.toolUseId) ?? "tool",
      content: result.content,
      isError: result.isError,
    };
    const exitCode = results.length === 1 ? statedExitCode(line.record.toolUseResult, result) : undefined;
    if (exitCode !== undefined) fields.exitCode = exitCode;
    const task = results.length === 1 && exitCode === null ? backgroundTaskOf(line.record.toolUseResult) : undefined;
    if (task !== undefined) context.background.started(task, fields);
    last = message(context, line, idOf(index), parent, fields);
    first ??= last;
    parent = last.id;
  });
  if (userWords) last = message(context, line, idOf(results.length), parent, { role: "user", content: extra });
  if (first && last) context.chain.addResultLine({ first, last, answers: results.map((result) => result.toolUseId) });
  // Nothing usable in it (results without an id): the line still holds the chain together.
  if (!last) note(context, line);
  else if (last.id !== line.uuid) context.chain.join(line.uuid, last, true);
}

/** A `!` command's output joins the command it follows, when that is the line above it. */
function addShellOutput(context: UserContext, line: UserLine, output: string, exitCode: number | undefined): void {
  const above = context.chain.entryFor(line.parentUuid);
  const shell = above && isObject(above.data.message) && above.data.message.role === "bashExecution" ? above.data.message : undefined;
  if (!above || !shell || stringField(shell, "output") !== "") {
    note(context, line);
    return;
  }
  shell.output = output;
  if (exitCode !== undefined) shell.exitCode = exitCode;
  context.chain.join(line.uuid, above, true);
}

/** Adds one user line of the main chain. */
export function addUserLine(context: UserContext, line: UserLine): void {
  const { chain } = context;
  const content = line.message.content;
  if (line.record.isCompactSummary === true) {
    const boundary = boundaryOf(context.boundaries, chain.entryFor(line.parentUuid));
    const fields: JsonObject = { timestamp: line.timestamp, summary: summaryOf(contentText(content)) };
    if (boundary?.firstKeptUuid !== undefined) fields.firstKeptEntryId = chain.resolve(boundary.firstKeptUuid);
    if (boundary?.tokensBefore !== undefined) fields.tokensBefore = boundary.tokensBefore;
    chain.add("compaction", line.uuid, line.line, line.parentUuid, fields, { conversation: true });
    return;
  }
  if (holdsToolResult(content)) {
    addToolResults(context, line, content);
    return;
  }
  const text = classifyUserText(contentText(content));
  // A task's report settles its command even when Claude Code marks the line as its own (`isMeta`).
  if (text.kind === "taskNotification") context.background.reported(text.report);
  if (line.record.isMeta === true || text.kind === "taskNotification") return void note(context, line);

  switch (text.kind) {
    case "prompt": {
      const blocks = userBlocks(content);
      const only = blocks.length === 1 ? blocks[0] : undefined;
      // A session `agent handoff` wrote opens with the document as the first prompt: it is the previous handoff, as pi's custom message is.
      if (only?.type === "text" && typeof only.text === "string" && isWrappedHandoff(only.text)) {
        chain.add(
          "custom_message",
          line.uuid,
          line.line,
          line.parentUuid,
          { timestamp: line.timestamp, customType: "handoff", content: only.text, display: true },
          { conversation: true },
        );
      } else if (blocks.length === 0) note(context, line);
      else message(context, line, line.uuid, line.parentUuid, { role: "user", content: blocks });
      return;
    }
    case "command":
      context.commands.add(
        message(context, line, line.uuid, line.parentUuid, { role: "user", content: [{ type: "text", text: text.typed }] }),
      );
      return;
    case "commandOutput": {
      // The command above it ran in Claude Code alone (`/compact`, `/model`, …): no request to the model.
      const above = chain.entryFor(line.parentUuid);
      if (above && context.commands.delete(above)) chain.demote(above, `${PASS_THROUGH_PREFIX}note`);
      note(context, line);
      return;
    }
    case "shellInput":
      message(context, line, line.uuid, line.parentUuid, {
        role: "bashExecution",
        command: text.command,
        output: "",
        cancelled: false,
        truncated: false,
      });
      return;
    case "shellOutput":
      addShellOutput(context, line, text.output, text.exitCode);
      return;
    case "note":
      note(context, line);
      return;
  }
}
