/**
 * A new Codex session that opens with the handoff document, in the shape Codex 0.169 resumes
 * (`codex resume <id>`, `codex exec resume <id> "…"`) and lists (`codex resume`, `--last`).
 * What each line is for, as the real agent showed (`bun run compat`):
 * - `session_meta`: Codex finds the file by the id in its name and reads this first line; it
 *   needs `id`, `timestamp`, `cwd`, `originator`, `cli_version`. `model_provider` only when the
 *   source was a Codex session: Codex refuses to resume a session under another provider than
 *   the one configured, so a provider we guessed could only do harm. No `source`: without it
 *   Codex lists the session with the interactive ones (`exec` would hide it from the picker).
 * - a `response_item` user message whose `input_text` is the document: what the model receives.
 *   Other shapes (a plain string, the text only in an event) resume without a word of it.
 * - an `event_msg` `user_message` with the same text: Codex lists sessions by their first user
 *   message event; without it `codex resume --last` and the picker never show the session.
 * No acknowledgement: Codex resumes the file as it is and adds nothing to it.
 */
import { AgentError } from "../../../errors.ts";
import type { NewSessionFile, NewSessionInput } from "../types.ts";

/** Who wrote the session, in `session_meta.originator` (Codex writes `codex_cli_rs`, `codex_exec`, …). */
export const ORIGINATOR = "agent-handoff";

/** `YYYY-MM-DDThh-mm-ss` in the user's local time, as Codex names rollouts. */
export function localFileTime(timestamp: Date, utcOffsetMinutes: number): string {
  const offset = Number.isFinite(utcOffsetMinutes) ? utcOffsetMinutes : 0;
  const local = new Date(timestamp.getTime() + offset * 60_000).toISOString();
  return local.slice(0, 19).replace(/:/g, "-");
}

export function renderCodexSession(input: NewSessionInput, testedVersion: string): NewSessionFile {
  if (!input.cwd) {
    throw new AgentError("USAGE", "a Codex session needs the working directory it continues in, and the source session names none");
  }
  const fromCodex = input.source.format === "codex";
  const timestamp = input.timestamp.toISOString();
  const meta = {
    id: input.sessionId,
    timestamp,
    cwd: input.cwd,
    originator: ORIGINATOR,
    cli_version: (fromCodex && input.source.agentVersion) || testedVersion,
    model_provider: fromCodex ? input.source.modelProvider : undefined,
  };
  const text = input.wrappedDocument;
  const lines = [
    { timestamp, type: "session_meta", payload: meta },
    { timestamp, type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text }] } },
    { timestamp, type: "event_msg", payload: { type: "user_message", message: text, images: [] } },
  ];
  return {
    content: lines.map((line) => `${JSON.stringify(line)}\n`).join(""),
    fileName: `rollout-${localFileTime(input.timestamp, input.utcOffsetMinutes)}-${input.sessionId}.jsonl`,
    sessionId: input.sessionId,
  };
}
