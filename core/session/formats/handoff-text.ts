/**
 * The wrapper `agent handoff` puts around a handoff document, spelled here once: core/handoff/wrap.ts
 * writes it, the formats and the offline engine read it back. It lives in session/ because reading a
 * session must recognise it, and session/ imports nothing from handoff/.
 */
export const HANDOFF_OPEN = "<handoff-context>";
export const HANDOFF_CLOSE = "</handoff-context>";
/** How a closing tag inside the document is written, so no reader takes it for the wrapper's end. */
export const HANDOFF_ESCAPED_CLOSE = "<\\/handoff-context>";
/** The sentence after the wrapper. */
export const HANDOFF_TRAILER = "The above is a handoff document from a previous session. Use this context to continue the work seamlessly.";

/**
 * Whether a user message is a handoff document as `agent handoff` wraps it: in the formats where
 * the new session opens with the document as a user message (Claude Code, Codex), reading it back
 * gives the `handoff` custom message pi and omp have, so it counts as the previous handoff, never
 * as something the user asked.
 */
export function isWrappedHandoff(text: string): boolean {
  return text.startsWith(`${HANDOFF_OPEN}\n`) && text.includes(`\n${HANDOFF_CLOSE}`);
}
