import type { ContextMessage, UserBlock } from "../../session/messages.ts";
import { capMessageText, subjectOf } from "./shorten.ts";

/**
 * Stage 1 caps on one tool result (or a user's own command output), in tokens, loosest first.
 * Each step is tried in turn; the first that makes the request fit is used.
 */
export const TOOL_RESULT_CAPS = [8000, 4000, 2000, 1000, 500] as const;

export interface LightStats {
  /** Tool results and command outputs cut to head and tail. */
  toolResultsShortened: number;
  imagesReplaced: number;
  reasoningDropped: number;
}

export interface LightResult {
  context: ContextMessage[];
  stats: LightStats;
}

function imagePlaceholder(mimeType: string): UserBlock {
  return { type: "text", text: `[image left out to fit the model's context window: ${mimeType}]` };
}

/** True for messages whose bulk is output a tool or a command printed. */
function isOutput(message: ContextMessage): boolean {
  return subjectOf(message) !== "message";
}

/**
 * Stage 1, the cheap one: reasoning blocks go (they are never sent anyway), images become
 * placeholders, and each tool result or command output longer than `capTokens` keeps only its
 * head and tail, with a marker saying how much was cut. What people typed is never cut; the
 * message at `keepIndex` (the latest user request) keeps its images too.
 */
export function condenseLightly(context: readonly ContextMessage[], capTokens: number, keepIndex: number): LightResult {
  const stats: LightStats = { toolResultsShortened: 0, imagesReplaced: 0, reasoningDropped: 0 };
  const out = context.map((message, index): ContextMessage => {
    let next = message;
    if (next.role === "assistant") {
      const content = next.content.filter((b) => b.type !== "thinking");
      stats.reasoningDropped += next.content.length - content.length;
      if (content.length !== next.content.length) next = { ...next, content };
    } else if (index !== keepIndex && next.content.some((b) => b.type === "image")) {
      const content = next.content.map((b) => (b.type === "image" ? imagePlaceholder(b.mimeType) : b));
      stats.imagesReplaced += next.content.filter((b) => b.type === "image").length;
      next = { ...next, content };
    }
    if (isOutput(next)) {
      const capped = capMessageText(next, capTokens * 4);
      if (capped !== next) stats.toolResultsShortened++;
      next = capped;
    }
    return next;
  });
  return { context: out, stats };
}
