import type { SessionFacts } from "../../session/facts.ts";
import type { ContextMessage } from "../../session/messages.ts";
import { extractNotes } from "./extract.ts";
import type { OfflineNotes } from "./note-types.ts";
import { renderGoal } from "./goal.ts";
import { renderConstraints, renderProgress, type SectionInput } from "./render.ts";
import { renderCriticalContext, renderDecisions, renderNextSteps } from "./render-context.ts";
import { readWorkState } from "./state.ts";

export interface OfflineInput {
  /** The branch context (what the model would see), root first. */
  context: ContextMessage[];
  facts: SessionFacts;
  /** The user's `--focus` text, if any. */
  focus?: string;
  /** The session's working directory; paths inside it are shown relative to it. */
  cwd?: string;
  /** `extractNotes(context)`, when the caller has already read it (the pipeline shares it with Session Facts). */
  notes?: OfflineNotes;
}

/**
 * Writes the six-section handoff document from the branch alone, with no model: the same input
 * always gives the same bytes. Used when no model is configured, or when asked for.
 */
export function writeOfflineDocument(input: OfflineInput): string {
  const notes = input.notes ?? extractNotes(input.context);
  const section: SectionInput = {
    notes,
    state: readWorkState(notes, input.facts, input.cwd ?? input.facts.cwd, input.focus),
    focus: input.focus,
  };
  const sections: [title: string, lines: string[]][] = [
    ["Goal", renderGoal(section)],
    ["Constraints & Preferences", renderConstraints(section)],
    ["Progress", renderProgress(section)],
    ["Key Decisions", renderDecisions(section)],
    ["Critical Context", renderCriticalContext(section, input.facts)],
    ["Next Steps", renderNextSteps(section)],
  ];
  return sections.map(([title, lines]) => [`## ${title}`, ...lines].join("\n")).join("\n\n");
}
