import {
  HANDOFF_ACKNOWLEDGEMENT,
  HANDOFF_CLOSE as CLOSE,
  HANDOFF_OPEN as OPEN,
  HANDOFF_TRAILER as TRAILER,
  escapeInsideWrapper,
} from "../session/formats/handoff-text.ts";

export { TRAILER };

/** What the new session's assistant answers to the document (its text lives with the wrapper's, for readers too). */
export const ACKNOWLEDGEMENT = HANDOFF_ACKNOWLEDGEMENT;

/**
 * The exact content of the handoff message that opens the new session (spec: handoff.md step 6).
 * Anything in the document a loose reader could take for the closing tag (`</handoff-context>`,
 * `</HANDOFF-CONTEXT >`, `< /handoff-context>`, one split by a line break) gets a backslash
 * before its slash; nothing else changes. Reading it back (`unwrapHandoffDocument`,
 * session/formats/handoff-text.ts) undoes exactly that, byte for byte.
 */
export function wrapHandoffDocument(document: string): string {
  return `${OPEN}\n${escapeInsideWrapper(document)}\n${CLOSE}\n\n${TRAILER}`;
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
