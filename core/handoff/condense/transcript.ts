import type { ContextMessage, UserBlock } from "../../session/messages.ts";
import { escapeClosingTag } from "../../session/wrappers.ts";

/**
 * A part of the session written out as text, for the requests that summarise it. As text, not
 * as chat turns, so the model reads it as a record to summarise rather than a conversation to
 * continue, and no tool has to be declared.
 */

function guard(text: string, tag: string): string {
  return escapeClosingTag(escapeClosingTag(text, tag), "transcript");
}

function userText(blocks: readonly UserBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : `[image: ${b.mimeType}]`)).join("\n");
}

/** One message as a tagged block of the transcript. */
export function renderTranscriptMessage(message: ContextMessage): string {
  switch (message.role) {
    case "user":
      return `<user>\n${guard(userText(message.content), "user")}\n</user>`;
    case "toolResult": {
      const error = message.isError ? ' error="true"' : "";
      return `<tool-result name="${message.toolName}"${error}>\n${guard(userText(message.content) || "(no output)", "tool-result")}\n</tool-result>`;
    }
    case "assistant": {
      const parts: string[] = [];
      for (const block of message.content) {
        if (block.type === "text") parts.push(guard(block.text, "assistant"));
        else if (block.type === "toolCall") {
          parts.push(`<tool-call name="${block.name}">\n${guard(JSON.stringify(block.arguments ?? {}), "tool-call")}\n</tool-call>`);
        }
      }
      return `<assistant>\n${escapeClosingTag(parts.join("\n"), "assistant")}\n</assistant>`;
    }
  }
}

/** The separator between messages, counted once per message when sizing chunks. */
export const TRANSCRIPT_SEPARATOR = "\n\n";

export function renderTranscript(messages: readonly ContextMessage[]): string {
  return messages.map(renderTranscriptMessage).join(TRANSCRIPT_SEPARATOR);
}
