/**
 * How full an agent's context was at its newest model answer, as the agent itself recorded it
 * (the usage its model reported), read by one function per format beside that format's reader.
 * The offer before the context rots (`agent integrate <agent> --offer <percent>`) compares it
 * with the model's window.
 */

/** The newest usage an agent recorded. */
export interface ContextUsage {
  /** Tokens the context held at the newest answer (what the next request starts from). */
  tokens: number;
  /** The model's context window, where the session records it (Codex does). */
  window?: number;
  /** The window the model's name stands for, where the agent records only the name (Claude Code). */
  modelWindow?: number;
  /** The model that answered, as the agent names it. */
  model?: string;
}

/**
 * Reads the newest usage from a session's lines, newest first (the reader stops at the first
 * answer, so only the tail need be read). Undefined: no usage recorded, or none since the newest
 * compaction (the figures before it no longer say how full the context is).
 */
export type ContextUsageReader = (linesNewestFirst: Iterable<string>) => ContextUsage | undefined;

/** One line as a JSON object; anything else (a torn last line, a blank) is skipped, not an error. */
export function lineObject(line: string): Record<string, unknown> | undefined {
  if (line.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const member = (value as Record<string, unknown>)[key];
  return typeof member === "object" && member !== null && !Array.isArray(member) ? (member as Record<string, unknown>) : undefined;
}

/** A count of tokens: a whole number of at least 0, else 0 (a missing or odd field adds nothing). */
export function countAt(value: Record<string, unknown> | undefined, key: string): number {
  const member = value?.[key];
  return typeof member === "number" && Number.isSafeInteger(member) && member > 0 ? member : 0;
}

export function textAt(value: Record<string, unknown> | undefined, key: string): string | undefined {
  const member = value?.[key];
  return typeof member === "string" && member !== "" ? member : undefined;
}
