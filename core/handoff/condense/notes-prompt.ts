import { countOf } from "../../format.ts";
import { escapeClosingTag } from "../../session/wrappers.ts";
import { REQUIRED_SECTIONS } from "../prompt.ts";

/** The words of the requests that fold the oldest part of a session into notes. Ours. */

export const NOTES_SYSTEM_PROMPT =
  "You keep running notes on a coding session between a user and a coding assistant. The session is too long to read at once, " +
  "so it reaches you in parts, oldest first, and your notes are all that carries each part forward. " +
  "A handoff document for a fresh session will be written from your notes and the session's latest messages. " +
  "You cannot call tools; answer in plain markdown.";

function headingList(): string {
  return REQUIRED_SECTIONS.map((name) =>
    name === "Progress" ? "## Progress (with ### Done, ### In Progress and ### Pending under it)" : `## ${name}`,
  ).join(", ");
}

/** About how many words fit in a number of tokens, rounded down to a tidy figure. */
export function wordsFor(tokens: number): number {
  return Math.max(100, Math.floor((tokens * 0.7) / 50) * 50);
}

export interface NotesPromptInput {
  /** The notes so far; `undefined` for the first part. */
  notes: string | undefined;
  transcript: string;
  /** 1-based. */
  part: number;
  parts: number;
  /** The longest the notes may be, in tokens. */
  notesTokens: number;
  focus?: string;
}

/** The one user message of a notes request: notes so far, the next part, what to do. */
export function renderNotesPrompt(input: NotesPromptInput): string {
  const earlier =
    input.notes === undefined
      ? "This is the start of the session; there are no notes yet."
      : `Your notes on the session up to the end of part ${input.part - 1}:\n\n<notes>\n${escapeClosingTag(input.notes, "notes")}\n</notes>`;
  const lines = [
    earlier,
    `Part ${input.part} of ${input.parts} of the session, as a transcript:`,
    `<transcript>\n${input.transcript}\n</transcript>`,
    `Write the notes again so that they cover the session from its start to the end of this part: keep what still holds from the notes, correct what this part changed, add what is new.`,
    `Use exactly these sections, in this order, as markdown headings: ${headingList()}.`,
    "Keep every request the user made and every preference they stated, in their own words when short. " +
      "Keep exact file paths, names of functions and types, commands with their results, error messages and versions. " +
      "Where the transcript marks a cut, record only what is shown. Leave out small talk and detail that later work made obsolete. " +
      `Write "None." under a section with nothing in it. Stay under about ${wordsFor(input.notesTokens)} words. Reply with the notes only.`,
  ];
  const focus = input.focus?.trim();
  if (focus) lines.push(`The person handing the session off asked to focus on: ${focus}. Keep everything that bears on it.`);
  return lines.join("\n\n");
}

export interface PrefaceInput {
  notes: string;
  /** Messages condensed into the notes. */
  foldedMessages: number;
  /** Whether any messages follow the notes in the request. */
  recentFollows: boolean;
  /** The latest thing the user typed, when it was among the folded messages. */
  latestRequest: string | undefined;
}

/** Whether a message is the preface `renderNotesPreface` writes (an agent's transcript marks it as such). */
export function isNotesPreface(text: string): boolean {
  return /^The first [\d,]+ messages? of this session were too long to send in full; they were condensed, part by part, into these notes\./.test(
    text,
  );
}

/** The user-side message that opens a handoff request whose oldest part was folded into notes. */
export function renderNotesPreface(input: PrefaceInput): string {
  const what =
    input.foldedMessages === 1
      ? "The first message of this session was too long to send in full; it was condensed, part by part, into these notes."
      : `The first ${countOf(input.foldedMessages, "message")} of this session were too long to send in full; they were condensed, part by part, into these notes.`;
  const after = input.recentFollows ? "The messages after them follow verbatim." : "No later messages are left to show.";
  const parts = [`${what} ${after}`, `<notes>\n${escapeClosingTag(input.notes, "notes")}\n</notes>`];
  if (input.latestRequest !== undefined) {
    parts.push(
      "The user's latest request, quoted exactly as they typed it:",
      `<latest-request>\n${escapeClosingTag(input.latestRequest, "latest-request")}\n</latest-request>`,
    );
  }
  return parts.join("\n\n");
}

/** What the printed plan shows where a notes request's answer will go. */
export function placeholderNotes(request: number): string {
  return `[the notes written by request ${request} go here; a dry run cannot know them]`;
}
