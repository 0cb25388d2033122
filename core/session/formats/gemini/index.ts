/** Gemini CLI sessions: read them into the common model, write a new one holding a handoff. */
import { parseJsonOrUndefined } from "../../../json.ts";
import type { SessionFormat } from "../types.ts";
import { glanceGemini } from "./glance.ts";
import { isLegacyHead } from "./legacy.ts";
import { geminiLocation } from "./location.ts";
import { readGeminiSession } from "./read.ts";
import { isMetadataRecord } from "./records.ts";
import { renderGeminiSession } from "./write.ts";

/** The Gemini CLI version `bun run compat` last ran (compat/agents.ts). */
const TESTED_VERSION = "0.61.0";

/**
 * A session starts with its metadata line: `sessionId` and `projectHash`, and no `type` (Claude
 * Code's lines have one); one from before JSON Lines is one JSON object with a `sessionId`.
 */
function detect(head: readonly string[]): boolean {
  if (isLegacyHead(head)) return true;
  const first = head.find((line) => line.trim() !== "");
  if (first === undefined || !first.includes('"projectHash"')) return false;
  const value = parseJsonOrUndefined(first);
  return isMetadataRecord(value) && !("type" in value);
}

export const gemini: SessionFormat = {
  name: "gemini",
  label: "Gemini CLI",
  aliases: ["gemini-cli"],
  detect,
  read: readGeminiSession,
  renderNewSession: renderGeminiSession,
  location: geminiLocation,
  testedVersion: TESTED_VERSION,
  glance: glanceGemini,
  // Gemini finds a session by id only in the chats folder of the project it runs in.
  resumeCommand: ({ sessionId, cwd, underRoot }) => (underRoot === undefined ? undefined : { argv: ["gemini", "-r", sessionId], cwd }),
};
