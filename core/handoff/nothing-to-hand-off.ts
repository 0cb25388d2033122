import { AgentError } from "../errors.ts";
import type { BranchAnalysis } from "../session/analyze.ts";
import { handoffOnly } from "../session/handoff-only.ts";
import type { Session } from "../session/types.ts";

/**
 * Refuses what holds nothing to hand off: a session we wrote that nothing happened in since
 * (handing it off would only wrap our document again; its source holds the work), and a branch
 * with fewer than two messages. `file` is the session as the user named it; `show` writes a path
 * as one field of a line (cli's asField: a line break in it as `\n`).
 */
export function assertSomethingToHandOff(
  session: Session,
  analysis: BranchAnalysis,
  file: string,
  show: (text: string) => string = (text) => text,
): void {
  const ours = handoffOnly(session);
  if (ours !== undefined) {
    const from = ours.source === undefined ? "" : ` from ${show(ours.source)}`;
    const instead = ours.source === undefined ? "the session it came from" : show(ours.source);
    throw new AgentError(
      "NOTHING_TO_HAND_OFF",
      `Nothing to hand off: ${show(file)} is a handoff session (agent handoff wrote it${from}) with nothing after the document yet; hand off ${instead} instead, or continue this one in its agent first`,
    );
  }
  if (analysis.branchMessages < 2) throw new AgentError("NOTHING_TO_HAND_OFF", "Nothing to hand off (no messages yet)");
}
