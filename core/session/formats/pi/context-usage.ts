import { type ContextUsage, countAt, lineObject, objectAt, textAt } from "../../context-usage.ts";

/**
 * pi's and omp's newest usage: the last assistant message's `usage` (pi counts the context as its
 * `totalTokens`, else the sum of its parts) and its `model`. A `compaction` entry after it (pi's,
 * or omp's handoff in place) makes the figures stale. The session records no window: the running
 * agent knows its model's (the extension passes it).
 */
export function readPiContextUsage(linesNewestFirst: Iterable<string>): ContextUsage | undefined {
  for (const line of linesNewestFirst) {
    if (!line.includes('"compaction"') && !line.includes('"usage"')) continue;
    const entry = lineObject(line);
    if (entry?.type === "compaction") return undefined;
    if (entry?.type !== "message") continue;
    const message = objectAt(entry, "message");
    if (message?.role !== "assistant") continue;
    const usage = objectAt(message, "usage");
    const parts = ["input", "output", "cacheRead", "cacheWrite"].reduce((sum, key) => sum + countAt(usage, key), 0);
    const tokens = countAt(usage, "totalTokens") || parts;
    // An answer cut short (aborted, an error) reports nothing: the one before it still counts.
    if (tokens === 0) continue;
    const model = textAt(message, "model");
    return model === undefined ? { tokens } : { tokens, model };
  }
  return undefined;
}
