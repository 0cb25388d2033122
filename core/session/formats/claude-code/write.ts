/**
 * A new Claude Code session holding the handoff document: `<session id>.jsonl` with a `user`
 * line (the document, as the first prompt) and an assistant acknowledgement. Claude Code
 * 2.1.328 resumes it with `claude --resume <id>` and sends the document verbatim as the first
 * user message (checked by `bun run compat`). Without an assistant line after the document it
 * would add and save its own "No response requested.", so the file carries its own answer.
 */
import type { NewSessionFile, NewSessionInput } from "../types.ts";
import { ANTHROPIC_MODEL_ID, SYNTHETIC_MODEL } from "./assistant.ts";

/** The Claude Code version `bun run compat` ran; a new file says it when the source was not Claude Code's. */
export const CLAUDE_CODE_TESTED_VERSION = "2.1.328";

/** A version-4-shaped UUID from fresh ids (8 hex each): Claude Code names every line by one. */
function lineUuid(newEntryId: () => string): string {
  const hex = [newEntryId(), newEntryId(), newEntryId(), newEntryId()]
    .join("")
    .toLowerCase()
    .replace(/[^0-9a-f]/g, "0")
    .padEnd(32, "0");
  const variant = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The model the acknowledgement names. Claude Code resumes a session with the model of its last
 * answer that a model wrote, when it knows that model, and with the user's default otherwise. The
 * source's model is safe only when the source is Claude Code's: it is the model that session
 * resumes with, one this user's Claude Code has used. Any other source (a pi session on some
 * provider's Claude, a Codex session) names `<synthetic>`, Claude Code's own mark for a line no
 * model wrote: the new session then resumes with the user's default model.
 */
function acknowledgementModel(input: NewSessionInput): string {
  const model = input.model.pi;
  const claudeModel = model?.provider === "anthropic" && ANTHROPIC_MODEL_ID.test(model.modelId);
  return input.source.format === "claude-code" && claudeModel ? model.modelId : SYNTHETIC_MODEL;
}

export function renderClaudeCodeSession(input: NewSessionInput): NewSessionFile {
  const timestamp = input.timestamp.toISOString();
  const version = (input.source.format === "claude-code" ? input.source.agentVersion : undefined) ?? CLAUDE_CODE_TESTED_VERSION;
  const shared = {
    isSidechain: false,
    userType: "external",
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    sessionId: input.sessionId,
    version,
  };
  const documentUuid = lineUuid(input.newEntryId);
  const answerUuid = lineUuid(input.newEntryId);
  const model = acknowledgementModel(input);
  const document = {
    parentUuid: null,
    ...shared,
    type: "user",
    message: { role: "user", content: input.wrappedDocument },
    uuid: documentUuid,
    timestamp,
  };
  const answer = {
    parentUuid: documentUuid,
    ...shared,
    type: "assistant",
    message: {
      // Not an API message id (`msg_…`): Claude Code must not take the line for a response it was billed for.
      id: lineUuid(input.newEntryId),
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: input.acknowledgement }],
      stop_reason: model === SYNTHETIC_MODEL ? "stop_sequence" : "end_turn",
      stop_sequence: model === SYNTHETIC_MODEL ? "" : null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    uuid: answerUuid,
    timestamp,
  };
  return {
    content: `${JSON.stringify(document)}\n${JSON.stringify(answer)}\n`,
    fileName: `${input.sessionId}.jsonl`,
    sessionId: input.sessionId,
  };
}
