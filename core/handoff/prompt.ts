/** The words we send. Section names are fixed by the spec; the rest is ours. */

/** The six top-level sections, in order. */
export const REQUIRED_SECTIONS = [
  "Goal",
  "Constraints & Preferences",
  "Progress",
  "Key Decisions",
  "Critical Context",
  "Next Steps",
] as const;

export const DEFAULT_SYSTEM_PROMPT =
  "You write handoff documents for coding sessions. The conversation below is a session between a user and a coding assistant. " +
  "A fresh session will continue the work and will see nothing but the document you write. " +
  "You cannot call tools; answer in plain markdown.";

const INSTRUCTION = `Write a handoff document for the session above. A new session will continue this work with your document as its only context, so it has to stand on its own.

Use exactly these sections, in this order, as markdown headings:

## Goal
What the user wants to achieve, in one to three sentences.

## Constraints & Preferences
Requirements, rules and preferences the user stated at any point, the earliest included (tools, style, things to avoid), quoted in their own words; and the requirements and no-gos of any task text the session read (an issue, a spec or checklist file the user pointed at), each marked with where it came from. Leave out a rule the user later took back.

## Progress
### Done
What is finished and verified.
### In Progress
What was being worked on when the session stopped, and how far it got.
### Pending
What was asked for and not yet started.

## Key Decisions
Choices that were made, with the reason for each. Where the user turned down what the assistant proposed and the work changed course, say so, with the user's reason in their own words.

## Critical Context
What the next session cannot work without: exact file paths, names of functions and types, commands with their results, versions, URLs; the exact text of the last errors (every distinct error line of a run that failed, not only the first); what was changed but never verified, or not committed since the last commit; any plan or checklist file that later work made out of date, named as such.

## Next Steps
A numbered list of concrete actions, the most urgent first: finish, verify and commit the unfinished main change before chasing a side issue (a throwaway command that failed at the end is context, not a step).

Copy exact paths, identifiers, commands and error text rather than describing them. Leave out what no longer matters. Write "None." under a section that has nothing. Reply with the document only: no preamble, no closing remarks, no code fence around it.`;

/** The handoff instruction, with the user's focus appended when there is one. */
export function renderInstruction(focus?: string): string {
  const trimmed = focus?.trim();
  return trimmed ? `${INSTRUCTION}\n\nAdditional focus: ${trimmed}` : INSTRUCTION;
}

/** Asks the model to mend a document that lacks sections. */
export function renderRepairInstruction(missing: readonly string[]): string {
  const list = missing.map((name) => `## ${name}`).join(", ");
  return `Your document is missing these sections: ${list}. Write the whole document again with all six sections (## ${REQUIRED_SECTIONS.join(", ## ")}), in that order. Reply with the document only.`;
}
