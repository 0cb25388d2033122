/**
 * Claude Code's `attachment` lines: context it renders itself (dates, reminders, file
 * snapshots), except one kind. A message the user typed while Claude was working is saved as a
 * `queued_command` attachment (`prompt`, `commandMode`, `origin`, `isMeta`), and Claude Code
 * 2.1.328 sends it to the model as the user's message, where it sits in the chain. It is the
 * user's when nothing marks it as someone else's: not `isMeta`, no mode but `prompt` (`bash` is
 * a queued `!` command, `task-notification` a background task's report), and an origin, if any,
 * of kind `human` (a peer session, a coordinator or a task wrote the others).
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { type BackgroundTasks, readTaskNotification } from "./background-tasks.ts";
import { contentText, userBlocks, type BlockData } from "./blocks.ts";
import { PASS_THROUGH_PREFIX, type ChainBuilder } from "./chain.ts";
import { classifyUserText } from "./user-text.ts";

export interface AttachmentLine {
  uuid: string;
  parentUuid: string | null;
  line: number;
  timestamp: string | undefined;
  record: JsonObject;
}

/** The words of a prompt the user queued, or undefined when the attachment is not one. */
function queuedPrompt(attachment: JsonObject): BlockData[] | undefined {
  if (attachment.type !== "queued_command" || attachment.isMeta === true) return undefined;
  const mode = stringField(attachment, "commandMode");
  if (mode !== undefined && mode !== "prompt") return undefined;
  if (attachment.origin !== undefined && !(isObject(attachment.origin) && attachment.origin.kind === "human")) return undefined;
  const blocks = userBlocks(attachment.prompt);
  if (blocks.length === 0 || classifyUserText(contentText(attachment.prompt)).kind !== "prompt") return undefined;
  return blocks;
}

/** A queued background task's report settles the command it is about (background-tasks.ts). */
function settleTask(attachment: JsonObject, background: BackgroundTasks): void {
  if (attachment.type !== "queued_command" || attachment.commandMode !== "task-notification") return;
  const report = readTaskNotification(contentText(attachment.prompt));
  if (report) background.reported(report);
}

/** Adds an attachment line: the user's queued message, or a line the context passes over. */
export function addAttachmentLine(chain: ChainBuilder, background: BackgroundTasks, line: AttachmentLine): void {
  const attachment = isObject(line.record.attachment) ? line.record.attachment : undefined;
  if (attachment) settleTask(attachment, background);
  const prompt = attachment ? queuedPrompt(attachment) : undefined;
  if (prompt)
    chain.add(
      "message",
      line.uuid,
      line.line,
      line.parentUuid,
      { timestamp: line.timestamp, message: { role: "user", content: prompt } },
      { conversation: true },
    );
  else chain.add(`${PASS_THROUGH_PREFIX}attachment`, line.uuid, line.line, line.parentUuid, {}, { conversation: false });
}
