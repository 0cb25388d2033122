/**
 * Claude Code's `assistant` lines. It saves one line per content block as the answer streams,
 * every line of one answer sharing `message.id` and each hanging from the one before: those
 * lines are ONE message of the common model, so a context has one assistant turn with all its
 * tool calls, as the model sent it.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";
import { assistantBlocks, stopReasonOf } from "./blocks.ts";
import { PASS_THROUGH_PREFIX, type ChainBuilder } from "./chain.ts";

/** The model name Claude Code gives the messages it writes itself ("No response requested.", API errors). */
export const SYNTHETIC_MODEL = "<synthetic>";

/**
 * Anthropic's own model ids (`claude-sonnet-4-5`); a gateway's or a cloud's (`us.anthropic.…`,
 * `…@20250514`, an ARN) name no model of the `anthropic` provider, so they get none.
 */
export const ANTHROPIC_MODEL_ID = /^claude-[a-z0-9][a-z0-9.-]*$/;

export interface AssistantLine {
  uuid: string;
  parentUuid: string | null;
  line: number;
  timestamp: string | undefined;
  message: JsonObject;
  isApiErrorMessage: boolean;
}

/** The message id each assistant entry was read from, to find the lines that continue it. */
export type MessageIds = Map<Entry, string>;

/** The nearest message entry above a line, past lines that are not conversation. */
function nearestMessage(chain: ChainBuilder, parentUuid: string | null): Entry | undefined {
  // Bounded: a damaged file may loop; the lines between two blocks of one answer are few.
  let entry = chain.entryFor(parentUuid);
  for (let steps = 0; entry && steps < 100; steps++) {
    if (entry.type === "message") return entry;
    if (!entry.type.startsWith(PASS_THROUGH_PREFIX)) return undefined;
    entry = chain.parentEntry(entry);
  }
  return undefined;
}

function messageFields(line: AssistantLine): JsonObject {
  const model = stringField(line.message, "model");
  const fields: JsonObject = { role: "assistant", content: assistantBlocks(line.message.content) };
  // Claude Code's own filler names no model: it is nobody's answer, and Claude Code does not
  // resume with it either.
  if (model !== undefined && model !== SYNTHETIC_MODEL) {
    if (ANTHROPIC_MODEL_ID.test(model)) fields.provider = "anthropic";
    fields.model = model;
  }
  const stopReason = stopReasonOf(line.message.stop_reason);
  if (stopReason !== undefined) fields.stopReason = stopReason;
  return fields;
}

/** Adds one assistant line: a new message, or more blocks of the message the line continues. */
export function addAssistantLine(chain: ChainBuilder, ids: MessageIds, line: AssistantLine): void {
  // An API error Claude Code shows as an answer: no model wrote it and no model sees it.
  if (line.isApiErrorMessage && stringField(line.message, "model") === SYNTHETIC_MODEL) {
    chain.add(`${PASS_THROUGH_PREFIX}api-error`, line.uuid, line.line, line.parentUuid, {}, { conversation: false });
    return;
  }
  const messageId = stringField(line.message, "id");
  const previous = nearestMessage(chain, line.parentUuid);
  const continued = previous !== undefined && messageId !== undefined && ids.get(previous) === messageId ? previous : undefined;
  if (continued && isObject(continued.data.message)) {
    const target = continued.data.message;
    // The message's own array (made by messageFields), grown in place: an answer of many lines costs no copies.
    const blocks: unknown[] = Array.isArray(target.content) ? target.content : [];
    target.content = blocks;
    for (const block of assistantBlocks(line.message.content)) blocks.push(block);
    const stopReason = stopReasonOf(line.message.stop_reason);
    if (stopReason !== undefined) target.stopReason = stopReason;
    chain.join(line.uuid, continued, true);
    return;
  }
  const entry = chain.add(
    "message",
    line.uuid,
    line.line,
    line.parentUuid,
    { timestamp: line.timestamp, message: messageFields(line) },
    { conversation: true },
  );
  if (messageId !== undefined) ids.set(entry, messageId);
}
