/**
 * A new Gemini CLI session holding a handoff, as Gemini 0.61 writes one and resumes it
 * (`gemini -r <id>`, `gemini -r latest`): the metadata line (`projectHash` is the SHA-256 of the
 * project's path, as Gemini's own), a `<session_context>` naming the folder (Gemini leaves it out
 * of what it sends, as it does its own), the document as the user's message and the
 * acknowledgement as Gemini's answer. The file is named as Gemini names it: the UTC minute it
 * started and the first 8 characters of the id. Gemini keys a message by its `id` (a later one
 * with the same id replaces it): ours are the session's id and what the message is.
 */
import type { NewSessionFile, NewSessionInput } from "../types.ts";
import { sha256Hex } from "./sha256.ts";

/** `2026-12-03T05-46`: the UTC minute, as in Gemini's file names. */
function fileMinute(timestamp: Date): string {
  return timestamp.toISOString().slice(0, 16).replaceAll(":", "-");
}

/** The context message our session starts with: only the folder, in the words Gemini's own uses for it. */
export function sessionContext(cwd: string): string {
  return `<session_context>\n- **Workspace Directories:**\n  - ${cwd}\n</session_context>`;
}

export function renderGeminiSession(input: NewSessionInput): NewSessionFile {
  const time = input.timestamp.toISOString();
  const cwd = input.cwd ?? "";
  const lines: unknown[] = [
    { sessionId: input.sessionId, projectHash: sha256Hex(cwd), startTime: time, lastUpdated: time, kind: "main" },
    { id: `${input.sessionId}-context`, timestamp: time, type: "user", content: [{ text: sessionContext(cwd) }] },
    { id: `${input.sessionId}-document`, timestamp: time, type: "user", content: [{ text: input.wrappedDocument }] },
    { id: `${input.sessionId}-acknowledgement`, timestamp: time, type: "gemini", content: input.acknowledgement, thoughts: [] },
  ];
  return {
    content: lines.map((line) => `${JSON.stringify(line)}\n`).join(""),
    fileName: `session-${fileMinute(input.timestamp)}-${input.sessionId.slice(0, 8)}.jsonl`,
    sessionId: input.sessionId,
  };
}
