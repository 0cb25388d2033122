import {
  HANDOFF_ACKNOWLEDGEMENT,
  HANDOFF_CLOSE as CLOSE,
  HANDOFF_ESCAPED_CLOSE as ESCAPED_CLOSE,
  HANDOFF_OPEN as OPEN,
  HANDOFF_TRAILER as TRAILER,
} from "../session/formats/handoff-text.ts";

export { TRAILER };

/** What the new session's assistant answers to the document (its text lives with the wrapper's, for readers too). */
export const ACKNOWLEDGEMENT = HANDOFF_ACKNOWLEDGEMENT;

/**
 * The exact content of the handoff message that opens the new session (spec: handoff.md step 6).
 * A `</handoff-context>` the document itself contains is written `<\/handoff-context>`; nothing
 * else changes. Reading it back (`unwrapHandoffDocument`, session/formats/handoff-text.ts) undoes
 * exactly that.
 */
export function wrapHandoffDocument(document: string): string {
  return `${OPEN}\n${document.replaceAll(CLOSE, ESCAPED_CLOSE)}\n${CLOSE}\n\n${TRAILER}`;
}

/**
 * The answer without an echo of the wrapper, if the model echoed one: removed only when it
 * encloses the whole answer (optionally followed by the wrapper's own closing sentence), or when
 * it was opened and never closed. A wrapper closed part way is text of the document, kept whole.
 */
export function stripEchoedWrapper(answer: string): string {
  if (!answer.startsWith(OPEN)) return answer;
  let inner = answer.slice(OPEN.length).trimEnd();
  if (inner.endsWith(TRAILER)) inner = inner.slice(0, -TRAILER.length).trimEnd();
  if (inner.endsWith(CLOSE)) return inner.slice(0, -CLOSE.length).trim();
  if (!inner.includes(CLOSE)) return inner.trim();
  return answer;
}
