/**
 * Reading agrees with Claude Code: each Claude Code fixture (and the real transcript) is resumed
 * by the real Claude Code, and the conversation it sends the model (its own reading of the file:
 * which branch, which lines are conversation, how streamed answers join) must be what our reader
 * makes of the same file, message by message; and it must resume with the model our reading
 * says. Claude Code's own wrappers (system reminders, command and shell tags) are left out of
 * its side; the few lines we read differently on purpose are named per file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import { readClaudeCodeSession } from "../../core/session/formats/claude-code/read.ts";
import { analyzeBranch } from "../../core/session/analyze.ts";
import type { ContextMessage } from "../../core/session/messages.ts";
import { restoredModel } from "../../core/session/restored-model.ts";
import type { Agent } from "../agents.ts";
import { startFakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox } from "../sandbox.ts";
import { blocksOf, CLAUDE_REPLY, placeSession, runClaude, type SentRequest } from "./claude-code.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";

const PROBE = "COMPAT-PROBE: what is next?";

/**
 * What we read differently from Claude Code on purpose, per fixture: items only Claude Code
 * sends (a slash command's expansion, its interruption marker: its words, not the user's) and
 * items only we have (the slash command as the user typed it).
 */
const DIFFERENCES: Record<string, { theirsOnly: string[]; oursOnly: string[] }> = {
  "notes.jsonl": {
    theirsOnly: ["user: Review the pull request named in the arguments. Be strict.", "user: [Request interrupted by user]"],
    oursOnly: ["user: /review PR 12"],
  },
};

/** The fixtures Claude Code can resume (a subagent's own file is no session). */
function fixtures(): string[] {
  const dir = join(REPO, "fixtures/sessions/claude-code");
  const own = readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl") && !name.startsWith("agent-"))
    .sort()
    .map((name) => join(dir, name));
  return [join(REPO, "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl"), ...own];
}

/**
 * How Claude Code 2.1.328 sends a message the user typed while it worked (a `queued_command`
 * attachment): in a reminder, beside the next tool result or on its own, in place.
 */
const QUEUED_MESSAGE =
  /<system-reminder>\nThe user sent a new message while you were working:\n([\s\S]*?)\n\nThis is how Claude Code surfaces messages/g;

/** The user's queued messages a text of Claude Code's holds, as items. */
function queuedMessages(text: string): string[] {
  return [...text.matchAll(QUEUED_MESSAGE)].map((match) => `user: ${(match[1] ?? "").trim()}`);
}

/** The text of a tool result's content (a string or text blocks). */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part: unknown) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("\n");
}

/** Claude Code's request as items: the user's words, answers, tool calls and results; its own wrappers left out. */
export function theirItems(request: SentRequest): string[] {
  const items: string[] = [];
  for (const message of request.messages) {
    const { role, blocks } = blocksOf(message);
    for (const block of blocks) {
      const text = typeof block.text === "string" ? block.text.trim() : "";
      if (block.type === "text" && role === "user") {
        if (text === PROBE) return items;
        if (text.startsWith("This session is being continued from a previous conversation")) items.push("summary");
        // The document of a session we wrote: our wrapper, not one of Claude Code's tags.
        else if (text.startsWith("<handoff-context>\n")) items.push(`user: ${text}`);
        // Tags Claude Code wraps its own notes in; the compat suite cut the prose inside some reminders.
        else if (!text.startsWith("<") && !text.includes("</system-reminder>")) items.push(`user: ${text}`);
        else items.push(...queuedMessages(text));
      } else if (block.type === "text") items.push(`assistant: ${text}`);
      else if (block.type === "image") items.push("image");
      else if (block.type === "tool_use") items.push(`call: ${String(block.id)}`);
      else if (block.type === "tool_result")
        items.push(`result: ${String(block.tool_use_id)}`, ...queuedMessages(resultText(block.content)));
    }
  }
  return items;
}

/** Our context as the same items. `!` runs are left out on both sides (Claude Code sends them as tags). */
export function ourItems(context: readonly ContextMessage[]): string[] {
  const items: string[] = [];
  for (const message of context) {
    if (message.role === "toolResult") items.push(`result: ${message.toolCallId}`);
    else if (message.role === "user" && message.kind === "compactionSummary") items.push("summary");
    else if (message.role === "user" && message.kind === "bashExecution") continue;
    else {
      for (const block of message.content) {
        if (block.type === "text") items.push(`${message.role}: ${block.text.trim()}`);
        else if (block.type === "image") items.push("image");
        else if (block.type === "toolCall") items.push(`call: ${block.id}`);
      }
    }
  }
  return items;
}

function firstDifference(ours: readonly string[], theirs: readonly string[]): string | undefined {
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    if (ours[i] !== theirs[i])
      return `item ${i + 1}: ours ${JSON.stringify(ours[i]?.slice(0, 80))}, Claude Code's ${JSON.stringify(theirs[i]?.slice(0, 80))}`;
  }
  return undefined;
}

export async function checkClaudeCodeReading(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  let defaultModel: string | undefined;
  for (const file of fixtures()) {
    const name = file.split("/").pop() ?? file;
    await checks.run(agent.name, `resumes ${name} as we read it (the same messages, the same model)`, async () => {
      const sandbox = createSandbox(`${agent.name}-read`);
      const fake = startFakeModelServer(() => ({ text: CLAUDE_REPLY }));
      try {
        defaultModel ??= (await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-DEFAULT: which model?")).model;
        const text = readFileSync(file, "utf8")
          .replaceAll("/home/dev/shop", sandbox.project)
          .replaceAll("/tmp/agent-compat/claude-code-transcript/project", sandbox.project);
        const session = readClaudeCodeSession(text, file);
        placeSession(sandbox, session.header.id, text);
        const sent = await runClaude(agent, dir, sandbox, fake, dns, PROBE, ["--resume", session.header.id]);
        const analysis = analyzeBranch(session);
        const difference = DIFFERENCES[name] ?? { theirsOnly: [], oursOnly: [] };
        const theirs = theirItems(sent).filter((item) => !difference.theirsOnly.includes(item));
        const ours = ourItems(analysis.context).filter((item) => !difference.oursOnly.includes(item));
        const mismatch = firstDifference(ours, theirs);
        must(mismatch === undefined, `the conversation differs at ${mismatch}`);
        const model = restoredModel(analysis.branch.entries).pi;
        const expected = model?.provider === "anthropic" ? model.modelId : defaultModel;
        must(
          sent.model === expected,
          `resumed with ${sent.model}; our reading says ${expected}${model ? "" : " (its default: the branch names no Claude model)"}`,
        );
        const named = difference.theirsOnly.length + difference.oursOnly.length;
        return `${ours.length} items, model ${sent.model}${named ? `; ${named} items differ as intended (Claude Code's own words sent, the command as typed kept)` : ""}`;
      } finally {
        await fake.stop();
      }
    });
  }
}
