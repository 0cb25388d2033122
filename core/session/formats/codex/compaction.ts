/**
 * A `compacted` line as the common model's compaction. Codex rebuilds a resumed session the
 * same way (codex-rs/core `rollout_reconstruction.rs`): a `replacement_history` replaces all
 * that came before; a compaction without one (older versions) leaves the user's recent messages
 * and the summary. Here the items it keeps become entries placed just before a `compaction`
 * entry that names the first of them as kept, so the context is: the summary, those items,
 * then what follows — the same conversation Codex continues from, with the summary first.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import type { EntryChain, Origin } from "./chain.ts";
import { withoutSummaryPreamble } from "./harness.ts";
import { contentBlocks, readItem, type Block, type ItemMeaning } from "./items.ts";

/**
 * What the summary says when Codex compacted on the server and kept only an encrypted item:
 * there is no text to read, but the context must still show that earlier turns were condensed.
 */
export const ENCRYPTED_SUMMARY = "(Codex condensed the earlier conversation on the server; its summary is encrypted and cannot be read.)";

/** Codex keeps the user's recent messages up to 20,000 tokens when it rebuilds a compaction (about 4 characters a token). */
const KEPT_USER_CHARACTERS = 80_000;

/** The user's newest messages that fit Codex's budget, oldest first. */
function recentUserMessages(turns: Block[][]): Block[][] {
  const kept: Block[][] = [];
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i] ?? [];
    used += turn.reduce((sum, block) => sum + (typeof block.text === "string" ? block.text.length : 0), 0);
    if (used > KEPT_USER_CHARACTERS) break;
    kept.unshift(turn);
  }
  return kept;
}

function messageText(item: JsonObject): string {
  return contentBlocks(item.content)
    .flatMap((block) => (typeof block.text === "string" ? [block.text] : []))
    .join("\n");
}

/** Reads a `compacted` payload into the chain; returns the response item types it did not know. */
export function addCompaction(chain: EntryChain, payload: JsonObject, origin: Origin): string[] {
  const message = stringField(payload, "message") ?? "";
  const replacement = Array.isArray(payload.replacement_history) ? payload.replacement_history.filter(isObject) : undefined;
  const unknown: string[] = [];

  let kept: ItemMeaning[];
  let summaryText = message;
  let encrypted = false;
  if (replacement) {
    kept = [];
    for (const item of replacement) {
      // The summary as Codex keeps it: a user message holding the compaction's own text.
      const meaning =
        message !== "" && item.role === "user" && messageText(item) === message
          ? { kind: "summary" as const, text: message }
          : readItem(item);
      if (meaning.kind === "summary") summaryText ||= meaning.text;
      else if (meaning.kind === "unknown") unknown.push(meaning.type);
      else kept.push(meaning);
      if (item.type === "compaction" || item.type === "compaction_summary") encrypted = true;
    }
  } else {
    kept = recentUserMessages(chain.userTurnContents()).map((content) => ({ kind: "user", content }));
  }

  chain.startCompaction();
  let firstKept: string | undefined;
  for (const meaning of kept) {
    const entry = chain.addItem(meaning, origin);
    firstKept ??= entry?.id;
  }
  const summary = withoutSummaryPreamble(summaryText);
  const compaction = chain.add("compaction", origin, { summary: summary.trim() === "" && encrypted ? ENCRYPTED_SUMMARY : summary });
  // Kept nothing: it names itself, never before itself, so nothing earlier counts.
  compaction.data.firstKeptEntryId = firstKept ?? compaction.id;
  chain.endCompaction();
  return unknown;
}
