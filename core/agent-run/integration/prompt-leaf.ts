import type { Entry } from "../../session/types.ts";

/** A message entry's text, its text blocks joined. */
function textOf(entry: Entry): string | undefined {
  const message = entry.data.message;
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role !== "user") return undefined;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((block) => (typeof block === "object" && block !== null && typeof block.text === "string" ? block.text : "")).join("");
}

/**
 * Where the branch should end when the agent wrote the hook's own prompt into the transcript
 * before calling the hook (Codex records `$handoff …` first): the entry before that prompt, when
 * the branch's last message is it; undefined otherwise (the branch is handed off to its end).
 */
export function leafBeforePrompt(branch: readonly Entry[], prompt: string): string | undefined {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry === undefined || entry.type !== "message") continue;
    return textOf(entry)?.trim() === prompt.trim() ? (entry.parentId ?? undefined) : undefined;
  }
  return undefined;
}
