import type { SessionFormat } from "../types.ts";
import { detectClaudeCode } from "./detect.ts";
import { claudeCodeLocation } from "./location.ts";
import { readClaudeCodeSession } from "./read.ts";
import { CLAUDE_CODE_TESTED_VERSION, renderClaudeCodeSession } from "./write.ts";

/**
 * Claude Code (Anthropic's coding agent): its transcripts read into the common model, and new
 * sessions it resumes with `claude --resume <id>`. A handoff is never recorded into its files.
 */
export const claudeCode: SessionFormat = {
  name: "claude-code",
  label: "Claude Code",
  aliases: ["claude"],
  detect: detectClaudeCode,
  read: readClaudeCodeSession,
  renderNewSession: renderClaudeCodeSession,
  location: claudeCodeLocation,
  testedVersion: CLAUDE_CODE_TESTED_VERSION,
};
