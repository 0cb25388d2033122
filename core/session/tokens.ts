import type { ContextMessage } from "./messages.ts";

/** What one image costs in our estimate; providers charge roughly this for a typical screenshot. */
export const IMAGE_TOKENS = 1200;

/** A deliberately simple estimate: one token per four characters. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Tokens a message costs when sent. Reasoning blocks are not counted: we never send them
 * (Chat Completions has no portable place for another model's reasoning).
 */
export function estimateMessageTokens(message: ContextMessage): number {
  let chars = 0;
  let images = 0;
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        chars += block.text.length;
        break;
      case "image":
        images++;
        break;
      case "toolCall":
        chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
        break;
      case "thinking":
        break;
    }
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

export function estimateTokens(messages: readonly ContextMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}
