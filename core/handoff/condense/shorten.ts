import { isObject } from "../../json.ts";
import { formatCount } from "../../format.ts";
import type { AssistantBlock, ContextMessage, UserBlock } from "../../session/messages.ts";

/** What a cut is in, for its marker. */
export type CutSubject = "tool result" | "command output" | "message";

/** The line that replaces what was cut, saying how much went, so nobody mistakes a cut for the whole. */
export function cutMarker(cut: number, total: number, subject: CutSubject): string {
  return `[… ${formatCount(cut)} of ${formatCount(total)} characters cut from the middle of this ${subject} to fit the model's context window …]`;
}

/**
 * Keeps the head and the tail of `text`, about `keepChars` characters in all, with a marker
 * between them. Cuts snap to a line break when one is near, so lines stay whole.
 * Returns the text unchanged when cutting would not make it shorter.
 */
export function shortenText(text: string, keepChars: number, subject: CutSubject): string {
  if (text.length <= keepChars) return text;
  const headWant = Math.ceil(keepChars / 2);
  const tailWant = Math.floor(keepChars / 2);
  let headEnd = headWant;
  const headBreak = text.lastIndexOf("\n", headWant);
  if (headBreak >= headWant * 0.8 && headBreak > 0) headEnd = headBreak;
  let tailStart = text.length - tailWant;
  const tailBreak = text.indexOf("\n", tailStart);
  if (tailBreak !== -1 && tailBreak < text.length && tailBreak - tailStart <= tailWant * 0.2) tailStart = tailBreak + 1;
  if (tailStart < headEnd) return text;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const shortened = `${head}${head === "" ? "" : "\n"}${cutMarker(tailStart - headEnd, text.length, subject)}${tail === "" ? "" : "\n"}${tail}`;
  return shortened.length < text.length ? shortened : text;
}

/** Caps strings at `capChars`, counting how many it cut. */
class Capper {
  cuts = 0;
  constructor(readonly capChars: number) {}

  text(text: string, subject: CutSubject): string {
    const shortened = shortenText(text, this.capChars, subject);
    if (shortened !== text) this.cuts++;
    return shortened;
  }

  value(value: unknown): unknown {
    if (typeof value === "string") return this.text(value, "message");
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (isObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = this.value(item);
      return out;
    }
    return value;
  }

  userBlocks(blocks: readonly UserBlock[], subject: CutSubject): UserBlock[] {
    return blocks.map((b) => (b.type === "text" ? { type: "text", text: this.text(b.text, subject) } : b));
  }

  assistantBlocks(blocks: readonly AssistantBlock[]): AssistantBlock[] {
    return blocks.map((b): AssistantBlock => {
      if (b.type === "text") return { type: "text", text: this.text(b.text, "message") };
      if (b.type === "toolCall") return { ...b, arguments: this.value(b.arguments) };
      return b;
    });
  }
}

/** The subject a message's cuts are named by. */
export function subjectOf(message: ContextMessage): CutSubject {
  if (message.role === "toolResult") return "tool result";
  if (message.role === "user" && (message.kind === "bashExecution" || message.kind === "pythonExecution")) return "command output";
  return "message";
}

/**
 * Caps every piece of text in a message (text blocks, and string values inside tool-call
 * arguments, which stay valid JSON) at `capChars`, head and tail kept. Returns the same object
 * when nothing was cut.
 */
export function capMessageText(message: ContextMessage, capChars: number): ContextMessage {
  const capper = new Capper(capChars);
  let capped: ContextMessage;
  if (message.role === "assistant") capped = { ...message, content: capper.assistantBlocks(message.content) };
  else if (message.role === "toolResult") capped = { ...message, content: capper.userBlocks(message.content, subjectOf(message)) };
  else capped = { ...message, content: capper.userBlocks(message.content, subjectOf(message)) };
  return capper.cuts > 0 ? capped : message;
}

function longestText(message: ContextMessage): number {
  let longest = 0;
  const visit = (value: unknown): void => {
    if (typeof value === "string") longest = Math.max(longest, value.length);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) Object.values(value).forEach(visit);
  };
  for (const block of message.content) {
    if (block.type === "text") visit(block.text);
    else if (block.type === "toolCall") visit(block.arguments);
  }
  return longest;
}

/**
 * Cuts a run of messages (one turn) that is larger than `maxTokens` (by `cost`) until it fits:
 * every piece of text longer than a common cap keeps its head and tail, and the largest cap
 * that fits is found by bisection, so short pieces stay whole. Messages come back as they are
 * when the run fits; when no cap makes it fit, as short as cutting makes them.
 */
export function capToFit(messages: readonly ContextMessage[], maxTokens: number, cost: (m: ContextMessage) => number): ContextMessage[] {
  const total = (list: readonly ContextMessage[]) => list.reduce((sum, m) => sum + cost(m), 0);
  if (total(messages) <= maxTokens) return [...messages];
  let low = 0;
  let high = Math.max(0, ...messages.map(longestText));
  let best = messages.map((m) => capMessageText(m, 0));
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const candidate = messages.map((m) => capMessageText(m, mid));
    if (total(candidate) <= maxTokens) {
      best = candidate;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}
