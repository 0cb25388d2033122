/**
 * Whether a user message is a handoff document as `agent handoff` wraps it
 * (core/handoff/wrap.ts): in the formats where the new session opens with the document as a
 * user message (Claude Code, Codex), reading it back gives the `handoff` custom message pi and
 * omp have, so it counts as the previous handoff, never as something the user asked.
 */
export function isWrappedHandoff(text: string): boolean {
  return text.startsWith("<handoff-context>\n") && text.includes("\n</handoff-context>");
}
