/** The exact content of the handoff message that opens the new session (spec: session-format.md). */
export function wrapHandoffDocument(document: string): string {
  return `<handoff-context>\n${document}\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.`;
}
