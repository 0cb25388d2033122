import { stringField } from "../json.ts";
import { convertEntry, type ResolveBlob } from "./convert.ts";
import type { AssistantBlock, ContextMessage } from "./messages.ts";
import type { Entry } from "./types.ts";
import { wrapCompactionSummary } from "./wrappers.ts";

export interface ContextOptions {
  resolveBlob?: ResolveBlob;
}

/**
 * The messages the model would see for a branch (root first). Applies omp's reset boundary,
 * the newest compaction (its summary, the entries it kept, everything after it), and removes
 * what must never be sent: aborted or failed assistant turns with their tool results, tool
 * calls without results, results without calls, and private `!!` executions.
 */
export function buildContext(branch: readonly Entry[], options: ContextOptions = {}): ContextMessage[] {
  const messages: ContextMessage[] = [];
  for (const entry of selectEntries(branch)) {
    if (entry.type === "compaction") {
      const summary = stringField(entry.data, "summary") ?? "";
      messages.push({ role: "user", kind: "compactionSummary", content: [{ type: "text", text: wrapCompactionSummary(summary) }], entryId: entry.id });
      continue;
    }
    const message = convertEntry(entry, options.resolveBlob);
    if (message) messages.push(message);
  }
  return pairToolCalls(messages);
}

/** The entries that count after the newest reset boundary and the newest compaction. */
function selectEntries(branch: readonly Entry[]): readonly Entry[] {
  let start = 0;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch[i]?.type === "reset_boundary") {
      start = i + 1;
      break;
    }
  }
  let compactionAt = -1;
  for (let i = branch.length - 1; i >= start; i--) {
    if (branch[i]?.type === "compaction") {
      compactionAt = i;
      break;
    }
  }
  if (compactionAt === -1) return branch.slice(start);
  const compaction = branch[compactionAt] as Entry;
  const firstKept = stringField(compaction.data, "firstKeptEntryId");
  let keptFrom = compactionAt; // keep nothing from before the compaction unless we find the entry
  for (let i = start; i < compactionAt; i++) {
    if (branch[i]?.id === firstKept) {
      keptFrom = i;
      break;
    }
  }
  // The summary comes first, then the kept entries, then what followed the compaction.
  return [compaction, ...branch.slice(keptFrom, compactionAt), ...branch.slice(compactionAt + 1)];
}

/**
 * Drops failed turns and makes every tool call and tool result come in pairs, so a request
 * built from the context is never rejected for an orphan on either side.
 */
function pairToolCalls(messages: ContextMessage[]): ContextMessage[] {
  const live = messages.filter((m) => !(m.role === "assistant" && (m.stopReason === "aborted" || m.stopReason === "error")));

  const called = new Set<string>();
  const answered = new Set<string>();
  const kept: ContextMessage[] = [];
  for (const message of live) {
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "toolCall") called.add(block.id);
    } else if (message.role === "toolResult") {
      // A result must follow its call, once; anything else is an orphan.
      if (!called.has(message.toolCallId) || answered.has(message.toolCallId)) continue;
      answered.add(message.toolCallId);
    }
    kept.push(message);
  }

  const result: ContextMessage[] = [];
  for (const message of kept) {
    if (message.role === "assistant") {
      const content: AssistantBlock[] = message.content.filter((b) => b.type !== "toolCall" || answered.has(b.id));
      if (!content.some((b) => b.type !== "thinking")) continue;
      result.push(content.length === message.content.length ? message : { ...message, content });
    } else if (message.role === "user" && message.content.length === 0) {
      continue;
    } else {
      result.push(message);
    }
  }
  return result;
}
