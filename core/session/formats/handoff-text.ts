/**
 * The `<handoff-context>` wrapper around a handoff document, both ways: core/handoff/wrap.ts
 * writes it with these tags, and every reader of a session (the formats where the new session
 * opens with the document as a user message, the offline engine reading a previous document)
 * reads it back here, so the two can never disagree. It lives under `session/` because readers
 * may not import `handoff/`.
 */

export const HANDOFF_OPEN = "<handoff-context>";
export const HANDOFF_CLOSE = "</handoff-context>";
/** The sentence after the wrapper. */
export const HANDOFF_TRAILER = "The above is a handoff document from a previous session. Use this context to continue the work seamlessly.";
/**
 * What the new session's assistant answers to the document, in every format that writes an
 * answer: the next model sees it after the document, before the user's next words. Readers know
 * it too: a session holding only the document and this answer is one nothing happened in yet.
 */
export const HANDOFF_ACKNOWLEDGEMENT = "I have read the handoff document and will continue the work from it.";

/**
 * What a loose reader (a model, an HTML or XML parser) could take for the wrapper's closing tag
 * (spec: handoff.md step 6): `<`, then anything that shows as blank or nothing (any whitespace,
 * form feed and vertical tab included, and invisible characters), `/`, the same again,
 * `handoff-context` in any case, then anything but a character that would go on with the name:
 * `>`, a blank, `/` (`</handoff-context/>`), attributes (`</handoff-context foo>`, which an HTML
 * reader closes at the next `>`, however far), or the end of the text. Backslashes a document
 * already holds before the slash are part of the match, so escaping adds one more and reading
 * back removes one: the round trip is byte for byte whatever the document held. Each run is one
 * character class followed by something outside it, so a scan stays linear.
 */
const GAP = String.raw`[\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*`;
const NAME_ENDS = String.raw`handoff-context(?![\p{L}\p{N}_.:-])`;
const CLOSE_LIKE = new RegExp(String.raw`<(${GAP})(\\*)\/(${GAP}${NAME_ENDS})`, "giu");
/** The same, written by the escape: at least one backslash before the slash; the last one is ours. */
const ESCAPED_CLOSE_LIKE = new RegExp(String.raw`<(${GAP})(\\*)\\\/(${GAP}${NAME_ENDS})`, "giu");

/** A document as it goes inside the wrapper: a backslash before the slash of everything close-like. */
export function escapeInsideWrapper(document: string): string {
  return document.replace(CLOSE_LIKE, "<$1$2\\/$3");
}

/** The document `escapeInsideWrapper` was given: one backslash less before each escaped slash. */
export function unescapeInsideWrapper(inside: string): string {
  return inside.replace(ESCAPED_CLOSE_LIKE, "<$1$2/$3");
}

/**
 * The document a wrapped handoff message holds, exactly as it was before it was wrapped: the
 * text between `<handoff-context>\n` (at the start) and the last `\n</handoff-context>`, with
 * the writer's escape undone (`unescapeInsideWrapper`). Undefined when the text is not a wrapper.
 */
export function unwrapHandoffDocument(text: string): string | undefined {
  const open = `${HANDOFF_OPEN}\n`;
  const close = `\n${HANDOFF_CLOSE}`;
  if (!text.startsWith(open)) return undefined;
  const end = text.lastIndexOf(close);
  if (end < open.length - 1) return undefined;
  // `<handoff-context>\n</handoff-context>`: the newline is shared, the document is empty.
  const inside = end < open.length ? "" : text.slice(open.length, end);
  return unescapeInsideWrapper(inside);
}

/**
 * Whether a user message is a handoff document as `agent handoff` wraps it: in the formats
 * where the new session opens with the document as a user message (Claude Code, Codex),
 * reading it back gives the `handoff` custom message pi and omp have, so it counts as the
 * previous handoff, never as something the user asked.
 */
export function isWrappedHandoff(text: string): boolean {
  return unwrapHandoffDocument(text) !== undefined;
}
