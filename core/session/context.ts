import { isObject, stringField } from "../json.ts";
import { convertEntry, type ResolveBlob } from "./convert.ts";
import type { AssistantContextMessage, ContextMessage, UserContextMessage } from "./messages.ts";
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
  const { compaction, entries, replaced } = selectEntries(branch);
  const messages: ContextMessage[] = [];
  if (compaction) {
    const summary = stringField(compaction.data, "summary") ?? "";
    const requests = typedRequests(replaced, entries, options.resolveBlob);
    messages.push({
      role: "user",
      kind: "compactionSummary",
      content: [{ type: "text", text: wrapCompactionSummary(summary) }],
      entryId: compaction.id,
      ...(requests.length > 0 ? { replacedRequests: requests } : {}),
    });
  }
  // Any other compaction (an older one inside the kept range) contributes nothing.
  for (const entry of entries) {
    const message = convertEntry(entry, options.resolveBlob);
    if (message) messages.push(message);
  }
  return pairToolCalls(messages);
}

/**
 * What the user typed in the entries a compaction replaced: the model no longer sees them, but
 * the goal is read over the whole branch (the summary may not state it). A message the
 * compaction kept a copy of (Codex's replacement history repeats the user's messages) is read
 * once, where the copy is.
 */
function typedRequests(replaced: readonly Entry[], kept: readonly Entry[], resolveBlob: ResolveBlob | undefined): UserContextMessage[] {
  const requests = typedMessages(replaced, resolveBlob);
  if (requests.length === 0) return requests;
  const copies = new Set(typedMessages(kept, resolveBlob).map(textOf));
  return requests.filter((message) => !copies.has(textOf(message)));
}

/** The messages a user typed among `entries`: only those are converted (most of a long session is not). */
function typedMessages(entries: readonly Entry[], resolveBlob: ResolveBlob | undefined): UserContextMessage[] {
  const typed: UserContextMessage[] = [];
  // A plain loop: this runs over every entry a compaction replaced, tens of thousands in a long session.
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const data = entry.data.message;
    if (!isObject(data) || data.role !== "user") continue;
    const message = convertEntry(entry, resolveBlob);
    if (message?.role === "user" && message.kind === "user") typed.push(message);
  }
  return typed;
}

function textOf(message: UserContextMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * The entries that count after the newest reset boundary, and the newest compaction after it
 * (whose summary comes first, then the entries it kept, then what followed it); `replaced`: the
 * entries before it that it did not keep.
 */
function selectEntries(branch: readonly Entry[]): { compaction: Entry | undefined; entries: readonly Entry[]; replaced: readonly Entry[] } {
  let start = 0;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch[i]?.type === "reset_boundary") {
      start = i + 1;
      break;
    }
  }
  for (let i = branch.length - 1; i >= start; i--) {
    const compaction = branch[i];
    if (compaction?.type !== "compaction") continue;
    const firstKept = stringField(compaction.data, "firstKeptEntryId");
    let keptFrom = i; // keep nothing from before the compaction unless we find the entry
    for (let k = start; k < i; k++) {
      if (branch[k]?.id === firstKept) {
        keptFrom = k;
        break;
      }
    }
    return { compaction, entries: [...branch.slice(keptFrom, i), ...branch.slice(i + 1)], replaced: branch.slice(start, keptFrom) };
  }
  return { compaction: undefined, entries: branch.slice(start), replaced: [] };
}

/**
 * Drops failed turns and makes every tool call and tool result come in pairs, so a request
 * built from the context is never rejected for an orphan on either side.
 */
function pairToolCalls(messages: ContextMessage[]): ContextMessage[] {
  // A call is open from its turn until its first result. Ids are matched per turn, because some
  // models reuse ids (`call_0` in every turn): a later turn reusing an id opens a new call.
  // Plain loops, no filter or some per message: this runs over every message, mostly cold.
  const open = new Map<string, AssistantContextMessage>();
  const answered = new Map<AssistantContextMessage, Set<string>>();
  const kept: ContextMessage[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      if (message.stopReason === "aborted" || message.stopReason === "error") continue;
      for (const block of message.content) if (block.type === "toolCall") open.set(block.id, message);
    } else if (message.role === "toolResult") {
      // A result must follow its call, once; anything else is an orphan.
      const turn = open.get(message.toolCallId);
      if (!turn) continue;
      open.delete(message.toolCallId);
      const ids = answered.get(turn);
      if (ids) ids.add(message.toolCallId);
      else answered.set(turn, new Set([message.toolCallId]));
    }
    kept.push(message);
  }

  const result: ContextMessage[] = [];
  for (const message of kept) {
    if (message.role === "assistant") {
      const ids = answered.get(message);
      // The calls without a result go; a turn left with only thinking goes too.
      let blocks = 0;
      let said = false;
      for (const block of message.content) {
        if (block.type === "toolCall" && ids?.has(block.id) !== true) continue;
        blocks++;
        if (block.type !== "thinking") said = true;
      }
      if (!said) continue;
      if (blocks === message.content.length) result.push(message);
      else result.push({ ...message, content: message.content.filter((b) => b.type !== "toolCall" || ids?.has(b.id) === true) });
    } else if (message.role === "user" && message.content.length === 0) {
    } else {
      result.push(message);
    }
  }
  return result;
}
