import { readCodexContextUsage } from "../../session/formats/codex/context-usage.ts";
import { codexHome } from "../../session/formats/codex/location.ts";
import { hookEntryMerge } from "./hook-entries.ts";
import { handoffFromHookJson, readHookJson, runsOurHook } from "./hook-json.ts";
import { hookEntryGone, mergeAll } from "./merge-all.ts";
import type { IntegrateOptions } from "./offer.ts";
import { installedInHooksFile, runsOurHookWith, stopEntry, stopFromHookJson, systemMessage } from "./stop-json.ts";
import type { HookTrust } from "./hook-trust.ts";
import type { AgentIntegration, HookCommand, HookReply } from "./types.ts";
import type { AgentHome } from "../../session/formats/types.ts";

/** The longest we let Codex wait for the hook (seconds): a long session's handoff needs minutes. */
const HOOK_TIMEOUT_SECONDS = 600;

/**
 * The skill that makes `$handoff` autocomplete in the TUI. Its body reaches the model only when
 * our hook did not answer (not trusted yet, turned off): then it asks for the one line that says so.
 */
const SKILL_FILE = `---
name: handoff
description: Hand this session off to a fresh one with agent handoff. Only when the user types $handoff.
---
<!-- Written by \`agent integrate codex\`; \`agent integrate codex --uninstall\` removes it. -->
The \`agent\` hook did not answer $handoff (it is not in hooks.json, or Codex has not been told to trust it yet). Reply with exactly one line telling the user to run \`agent integrate codex\` in a shell and to trust the hook when Codex asks ("Hooks need review"), and do nothing else.
`;

/**
 * What Codex does at its next start about one hook of ours (hook-trust.ts: a trust entry per place
 * in hooks.json, by a hash of the hook's command and timeout): nothing when it trusts it already.
 */
function trustLine(event: string, trust: HookTrust): string | undefined {
  const hook = event === "Stop" ? "the Stop hook of the offer" : "the hook";
  const otherwise = event === "Stop" ? "or the offer is not shown" : "or $handoff reaches the model instead";
  const review = `("Hooks need review"): choose to trust it, ${otherwise}.`;
  return {
    new: `Codex asks at its next start to trust ${hook}, which it has not trusted yet ${review}`,
    changed: `Codex asks again at its next start to trust ${hook}, which changed since it was trusted ${review}`,
    unknown: `Codex may ask at its next start to trust ${hook}: config.toml cannot be read as TOML, or the hook's entry has fields whose hash is not known here ${review}`,
    trusted: undefined,
  }[trust];
}

/** `$handoff` at the start of a prompt, then the arguments. */
const HANDOFF_PROMPT = /^\s*\$handoff(?:\s+([\s\S]*))?$/;

/** `$handoff` in Codex 0.169.0: a `UserPromptSubmit` hook (it sees every prompt) that blocks `$handoff …` with its answer: no model turn. */
export const CODEX_INTEGRATION: AgentIntegration = {
  name: "codex",
  label: "Codex",
  home: codexHome,
  hookTimeoutSeconds: HOOK_TIMEOUT_SECONDS,
  usage: "$handoff [--to <agent>] [focus …]",
  notes: [],
  trust: {
    hooksFile: (home) => [...codexHome(home), "hooks.json"],
    configFile: (home) => [...codexHome(home), "config.toml"],
    notes: (found) => found.map(({ event, trust }) => trustLine(event, trust)).filter((line): line is string => line !== undefined),
  },
  files(home: AgentHome, command: HookCommand, options: IntegrateOptions) {
    const entry = { hooks: [{ type: "command", command: command.shell, timeout: HOOK_TIMEOUT_SECONDS }] };
    const isStop = runsOurHookWith("codex", "--stop");
    return [
      {
        kind: "merge",
        path: [...codexHome(home), "hooks.json"],
        merge: mergeAll([
          { merge: hookEntryMerge("UserPromptSubmit", entry, (v) => runsOurHook(v, "codex")), wanted: true },
          options.offer === undefined
            ? { merge: hookEntryGone("Stop", isStop), wanted: false }
            : { merge: hookEntryMerge("Stop", stopEntry(command, options), isStop), wanted: true },
        ]),
      },
      { kind: "own", path: [...codexHome(home), "skills", "handoff", "SKILL.md"], text: SKILL_FILE },
    ];
  },
  installedOptions: (read, home) => installedInHooksFile(read([...codexHome(home), "hooks.json"]), "codex"),
  stop: {
    usage: readCodexContextUsage,
    command: "$handoff",
    readStop: (input) => stopFromHookJson(input, "Codex", "Stop"),
    // Codex shows a Stop hook's systemMessage as a warning under the turn.
    notice: systemMessage,
    beforeCompact:
      "only Claude Code has it so far (Codex ignores what a PreCompact hook prints); --offer tells you when to hand off before Codex compacts",
  },
  // `"prompt": "$handoff…`, after blanks or JSON's escaped line breaks and tabs.
  handoffPromptPattern: '"prompt"[[:space:]]*:[[:space:]]*"([[:space:]]|\\\\[nrt])*\\$handoff',
  readHook({ stdin }) {
    const input = readHookJson(stdin, "Codex");
    if ("problem" in input) return { kind: "problem", message: input.problem as string };
    const prompt = typeof input.prompt === "string" ? input.prompt : undefined;
    // Every prompt reaches this hook: all but `$handoff …` pass at once, untouched.
    const match = prompt === undefined ? null : HANDOFF_PROMPT.exec(prompt);
    if (match === null) return { kind: "ignore" };
    // Should Codex have recorded the prompt before it calls the hook (0.169.0's exec does not), the handoff ends before it.
    const request = handoffFromHookJson(input, (match[1] ?? "").trim(), "Codex");
    return request.kind === "handoff" && prompt !== undefined ? { ...request, prompt } : request;
  },
  answer(reply: HookReply) {
    return { stdout: `${JSON.stringify({ decision: "block", reason: reply.text })}\n`, exitCode: 0 };
  },
};
