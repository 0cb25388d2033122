import { type ContextUsage, countAt, lineObject, objectAt, textAt } from "../../context-usage.ts";

/** Claude models' window: 200,000 tokens, or a million for a `[1m]` model. */
export function claudeModelWindow(model: string): number | undefined {
  if (/\[1m\]/i.test(model)) return 1_000_000;
  return /^claude-/i.test(model) ? 200_000 : undefined;
}

/** Whether one line of a Claude Code session is a compaction's boundary (the lines before it are summarised). */
export function isClaudeCodeCompaction(line: string): boolean {
  if (!line.includes('"compact_boundary"')) return false;
  const entry = lineObject(line);
  return entry?.type === "system" && entry.subtype === "compact_boundary";
}

/**
 * Claude Code's newest usage: the last assistant entry of the main thread (not a sidechain, not
 * one Claude Code made up itself) with its `message.usage`: the input tokens plus those read from
 * and written to the cache, which is the prompt the model saw. A `compact_boundary` after it makes
 * the figures stale. Claude Code records the model's name, not its window.
 */
export function readClaudeCodeContextUsage(linesNewestFirst: Iterable<string>): ContextUsage | undefined {
  for (const line of linesNewestFirst) {
    if (!line.includes('"compact_boundary"') && !line.includes('"usage"')) continue;
    if (isClaudeCodeCompaction(line)) return undefined;
    const entry = lineObject(line);
    if (entry?.type !== "assistant" || entry.isSidechain === true) continue;
    const message = objectAt(entry, "message");
    const model = textAt(message, "model");
    if (model === "<synthetic>") continue;
    const usage = objectAt(message, "usage");
    const tokens = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"].reduce(
      (sum, key) => sum + countAt(usage, key),
      0,
    );
    if (tokens === 0) continue;
    if (model === undefined) return { tokens };
    const modelWindow = claudeModelWindow(model);
    return modelWindow === undefined ? { tokens, model } : { tokens, model, modelWindow };
  }
  return undefined;
}
