import { type ContextUsage, countAt, lineObject, objectAt } from "../../context-usage.ts";

/**
 * Codex's newest usage: the last `token_count` event's `last_token_usage.total_tokens` (what the
 * newest request held; Codex resets it to its own estimate after compacting) and its
 * `model_context_window`. A `compacted` line with no count after it makes the figures stale.
 */
export function readCodexContextUsage(linesNewestFirst: Iterable<string>): ContextUsage | undefined {
  for (const line of linesNewestFirst) {
    if (!line.includes('"token_count"') && !line.includes('"compacted"')) continue;
    const entry = lineObject(line);
    if (entry?.type === "compacted") return undefined;
    const payload = objectAt(entry, "payload");
    if (entry?.type !== "event_msg" || payload?.type !== "token_count") continue;
    const info = objectAt(payload, "info");
    const tokens = countAt(objectAt(info, "last_token_usage"), "total_tokens");
    // Codex counts before the first answer too (rate limits only, no info): not a figure yet.
    if (tokens === 0) continue;
    const window = countAt(info, "model_context_window");
    return window === 0 ? { tokens } : { tokens, window };
  }
  return undefined;
}
