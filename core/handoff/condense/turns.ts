import type { ContextMessage } from "../../session/messages.ts";

/**
 * The smallest pieces a context may be cut into: a message on its own, or an assistant message
 * with tool calls together with everything up to its last result. A request built from whole
 * turns never carries a call without its result, or a result without its call.
 */
export interface Turn {
  /** Index of the turn's first message in the context. */
  start: number;
  messages: ContextMessage[];
}

/** Groups a context into turns, in order. Concatenating the turns gives the context back. */
export function groupTurns(context: readonly ContextMessage[]): Turn[] {
  const turns: Turn[] = [];
  const open = new Set<string>();
  let current: Turn | undefined;
  for (const [index, message] of context.entries()) {
    if (current === undefined || open.size === 0) {
      current = { start: index, messages: [] };
      turns.push(current);
    }
    current.messages.push(message);
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "toolCall") open.add(block.id);
    } else if (message.role === "toolResult") {
      open.delete(message.toolCallId);
    }
  }
  return turns;
}

/** True for what a person typed (not a summary, a command they ran, or a harness message). */
export function isUserRequest(message: ContextMessage): boolean {
  return message.role === "user" && message.kind === "user";
}

/** Index of the latest message a person typed, or -1. */
export function findLatestRequest(context: readonly ContextMessage[]): number {
  for (let i = context.length - 1; i >= 0; i--) {
    const message = context[i];
    if (message && isUserRequest(message)) return i;
  }
  return -1;
}
