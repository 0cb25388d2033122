import { AgentError } from "../errors.ts";

/** Stops a handoff the user cancelled: checked around every request and once the document is written. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
}
