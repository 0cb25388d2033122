import type { ResumeCommand, ResumeTarget, SessionFormat } from "../types.ts";
import { detectClaudeCode } from "./detect.ts";
import { glanceClaudeCode } from "./glance.ts";
import { claudeCodeLocation, claudeProjectFolders } from "./location.ts";
import { readClaudeCodeSession } from "./read.ts";
import { CLAUDE_CODE_TESTED_VERSION, renderClaudeCodeSession } from "./write.ts";

/**
 * `claude --resume <id>`, run in the session's cwd: Claude Code looks for the id in that cwd's
 * project folders (see `claudeProjectFolders`). A file anywhere else it opens by its path (a
 * lookup by id elsewhere was seen both to work and not to).
 */
function resumeCommand({ sessionId, path, cwd, underRoot, env }: ResumeTarget): ResumeCommand {
  const folders = cwd === undefined ? undefined : claudeProjectFolders(cwd, env);
  const inProjectFolder =
    folders !== undefined &&
    underRoot?.length === 2 &&
    [folders.writes, ...folders.alsoReads].includes(underRoot[0] ?? "") &&
    underRoot[1] === `${sessionId}.jsonl`;
  return { argv: ["claude", "--resume", inProjectFolder ? sessionId : path], cwd };
}

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
  glance: glanceClaudeCode,
  resumeCommand,
};
