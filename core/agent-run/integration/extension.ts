import template from "../../session/formats/pi/extension/agent-handoff.ts" with { type: "text" };
import { type ExtensionAnswer, parseExtensionHookArgv, renderExtensionAnswer } from "../../session/formats/pi/extension/hook-protocol.ts";
import { EXTENSION_FILE, EXTENSION_TIMEOUT_MS, type ExtensionHost, renderExtension } from "../../session/formats/pi/extension/setup.ts";
import { FORMATS } from "../../session/formats/table.ts";
import type { AgentHome, PathSegments } from "../../session/formats/types.ts";
import type { AgentIntegration, HookCommand, HookReply, HookRequest } from "./types.ts";

/**
 * `/handoff` through the extension pi and omp load by themselves: one file of ours in the
 * agent's extensions folder (the template with its SETUP line filled in), an argv protocol in
 * (`pi.exec` has no stdin), one JSON line out, and the switch made by the extension itself.
 */

// Bun hands a text import over as the file's text (embedded in the built binary); TypeScript
// types it as the module, so it is checked here rather than believed.
const TEMPLATE_TEXT: unknown = template;
if (typeof TEMPLATE_TEXT !== "string") throw new Error("the extension template was not imported as text");
const TEMPLATE: string = TEMPLATE_TEXT;

/** The installed copy for `host`, run as `command.argv` (which ends with `hook <agent>`). */
export function extensionText(host: ExtensionHost, command: HookCommand): string {
  const run = command.argv.slice(0, -2);
  const header = `// Written by \`agent integrate ${host.agent}\`; \`agent integrate ${host.agent} --uninstall\` removes it.\n`;
  const targets = FORMATS.map((format) => format.name);
  const setup = { command: host.command, agent: host.agent, run, timeoutMs: EXTENSION_TIMEOUT_MS, agentBin: command.agentBin, targets };
  return header + renderExtension(TEMPLATE, setup);
}

/** The call's argv read as a handoff of the file the agent has open. */
function readExtensionCall(agent: string, argv: readonly string[]): HookRequest {
  const input = parseExtensionHookArgv(argv);
  // A call of another shape comes from a copy older (or newer) than this agent: installing again matches them.
  if ("problem" in input) return { kind: "problem", message: `agent hook: ${input.problem}; run agent integrate ${agent} again` };
  // pi and omp open a session by its path; the id is the file's name (checked as an id by the runner).
  const name = input.sessionFile.split(/[/\\]/).at(-1) ?? "";
  const sessionId = name.replace(/\.jsonl$/, "");
  return { kind: "handoff", sessionPath: input.sessionFile, sessionId, cwd: input.cwd, args: input.args, agentBin: input.agentBin };
}

/** What the extension does with a reply: switch to a session of its own agent; show anything else. */
function answerOf(host: ExtensionHost, reply: HookReply): ExtensionAnswer {
  if (reply.kind === "failed") return { error: reply.text };
  if (reply.sessionFormat !== host.agent) return { message: reply.text };
  return {
    switchTo: reply.sessionFile,
    message: `Handed off: this is the new session, opened with the handoff document (${reply.sessionFile})${reply.note === undefined ? "" : `. ${reply.note}`}`,
  };
}

export interface ExtensionIntegrationSpec {
  host: ExtensionHost;
  label: string;
  home: (home: AgentHome) => PathSegments;
  /** When the running agent picks the new file up. */
  loads: string;
}

/** The integration entry for an agent that loads our extension. */
export function extensionIntegration({ host, label, home, loads }: ExtensionIntegrationSpec): AgentIntegration {
  return {
    name: host.agent,
    label,
    home,
    hookTimeoutSeconds: EXTENSION_TIMEOUT_MS / 1000,
    usage: `/${host.command} [--to <agent>] [focus …]`,
    notes: [`${label} loads it ${loads}.`],
    files: (agentHome, command) => [{ kind: "own", path: [...host.folder(agentHome), EXTENSION_FILE], text: extensionText(host, command) }],
    readHook: ({ argv }) => readExtensionCall(host.agent, argv),
    answer: (reply) => ({ stdout: renderExtensionAnswer(answerOf(host, reply)), exitCode: 0 }),
  };
}
