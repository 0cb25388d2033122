import { readClaudeCodeContextUsage } from "../../session/formats/claude-code/context-usage.ts";
import { isClaudeCodeCompaction } from "../../session/formats/claude-code/context-usage.ts";
import { claudeCodeLocation } from "../../session/formats/claude-code/location.ts";
import { hookEntryMerge } from "./hook-entries.ts";
import { handoffFromHookJson, readHookJson, runsOurHook } from "./hook-json.ts";
import { hookEntryGone, mergeAll } from "./merge-all.ts";
import type { IntegrateOptions } from "./offer.ts";
import { installedInHooksFile, runsOurHookWith, stopEntry, stopFromHookJson, systemMessage } from "./stop-json.ts";
import type { AgentIntegration, HookCommand, HookReply } from "./types.ts";
import type { AgentHome, PathSegments } from "../../session/formats/types.ts";

/** `CLAUDE_CONFIG_DIR`, else `~/.claude`: the folder above `projects/`. */
function configDir(home: AgentHome): PathSegments {
  return claudeCodeLocation.sessionsRoot(home).slice(0, -1);
}

/** Claude Code 2.1 lets a command hook run this long (seconds): the most, so a long session's handoff has it. */
const HOOK_TIMEOUT_SECONDS = 600;

/**
 * The command file that makes `/handoff` a command the TUI accepts ("Unknown command" is decided
 * before any hook). Its body reaches the model only when our hook did not answer (not installed,
 * hooks turned off): then it asks for the one line that says so, and nothing else.
 */
const COMMAND_FILE = `---
description: Hand this session off to a fresh one (agent handoff)
argument-hint: "[--to <agent>] [focus …]"
---
<!-- Written by \`agent integrate claude-code\`; \`agent integrate claude-code --uninstall\` removes it. -->
The \`agent\` hook did not answer /handoff (it is not in settings.json, or hooks are turned off). Reply with exactly one line telling the user to run \`agent integrate claude-code\` in a shell, and do nothing else.
`;

function block(text: string): string {
  return `${JSON.stringify({
    decision: "block",
    reason: text,
    hookSpecificOutput: { hookEventName: "UserPromptExpansion", suppressOriginalPrompt: true },
  })}\n`;
}

/** `/handoff` in Claude Code 2.1.328: a `UserPromptExpansion` hook (matcher `handoff`) that blocks the prompt with its answer: no model turn. */
export const CLAUDE_CODE_INTEGRATION: AgentIntegration = {
  name: "claude-code",
  label: "Claude Code",
  home: configDir,
  hookTimeoutSeconds: HOOK_TIMEOUT_SECONDS,
  usage: "/handoff [--to <agent>] [focus …]",
  notes: [],
  files(home: AgentHome, command: HookCommand, options: IntegrateOptions) {
    const entry = { matcher: "handoff", hooks: [{ type: "command", command: command.shell, timeout: HOOK_TIMEOUT_SECONDS }] };
    const settings = [...configDir(home), "settings.json"];
    const stopWanted = options.offer !== undefined || options.beforeCompact === true;
    const isStop = runsOurHookWith("claude-code", "--stop");
    const isPreCompact = runsOurHookWith("claude-code", "--before-compact");
    // Before an automatic compaction only; its output would reach the compaction prompt, so it prints nothing, even when agent is gone.
    const preCompact = {
      matcher: "auto",
      hooks: [{ type: "command", command: command.shellWith(["--before-compact"], () => ""), timeout: HOOK_TIMEOUT_SECONDS }],
    };
    return [
      {
        kind: "merge",
        path: settings,
        merge: mergeAll([
          { merge: hookEntryMerge("UserPromptExpansion", entry, (v) => runsOurHook(v, "claude-code")), wanted: true },
          stopWanted
            ? { merge: hookEntryMerge("Stop", stopEntry(command, options), isStop), wanted: true }
            : { merge: hookEntryGone("Stop", isStop), wanted: false },
          options.beforeCompact === true
            ? { merge: hookEntryMerge("PreCompact", preCompact, isPreCompact), wanted: true }
            : { merge: hookEntryGone("PreCompact", isPreCompact), wanted: false },
        ]),
      },
      { kind: "own", path: [...configDir(home), "commands", "handoff.md"], text: COMMAND_FILE },
    ];
  },
  installedOptions: (read, home) => installedInHooksFile(read([...configDir(home), "settings.json"]), "claude-code"),
  stop: {
    usage: readClaudeCodeContextUsage,
    command: "/handoff",
    readStop: (input) => stopFromHookJson(input, "Claude Code", "Stop"),
    notice: systemMessage,
    beforeCompact: {
      read: (input) => stopFromHookJson(input, "Claude Code", "PreCompact", (call) => call.trigger === "auto"),
      isCompaction: isClaudeCodeCompaction,
    },
  },
  readHook({ stdin }) {
    const input = readHookJson(stdin, "Claude Code");
    if ("problem" in input) return { kind: "problem", message: input.problem as string };
    // The matcher picks /handoff; anything else reaching us (another matcher, another event) is not ours to answer.
    if (input.command_name !== "handoff") return { kind: "ignore" };
    const args = typeof input.command_args === "string" ? input.command_args : "";
    return handoffFromHookJson(input, args, "Claude Code");
  },
  answer(reply: HookReply) {
    return { stdout: block(reply.text), exitCode: 0 };
  },
};
