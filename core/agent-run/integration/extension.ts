import template from "../../session/formats/pi/extension/agent-handoff.ts" with { type: "text" };
import { type ExtensionAnswer, parseExtensionHookArgv, renderExtensionAnswer } from "../../session/formats/pi/extension/hook-protocol.ts";
import { readPiContextUsage } from "../../session/formats/pi/context-usage.ts";
import {
  EXTENSION_FILE,
  EXTENSION_TIMEOUT_MS,
  type ExtensionHost,
  readExtensionSetup,
  renderExtension,
} from "../../session/formats/pi/extension/setup.ts";
import { FORMATS } from "../../session/formats/table.ts";
import type { AgentHome, PathSegments } from "../../session/formats/types.ts";
import type { IntegrateOptions, StopArgs } from "./offer.ts";
import type { AgentIntegration, HookCommand, HookReply, HookRequest, StopRequest } from "./types.ts";

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
export function extensionText(host: ExtensionHost, command: HookCommand, options: IntegrateOptions = {}): string {
  const run = command.argv.slice(0, -2);
  const header = `// Written by \`agent integrate ${host.agent}\`; \`agent integrate ${host.agent} --uninstall\` removes it.\n`;
  const targets = FORMATS.map((format) => format.name);
  const { offer } = options;
  const setup = {
    command: host.command,
    agent: host.agent,
    run,
    timeoutMs: EXTENSION_TIMEOUT_MS,
    agentBin: command.agentBin,
    targets,
    offer,
  };
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

/** The extension's call after a turn: the file the agent has open, and its model's window as the agent knows it. */
function readExtensionStop(args: StopArgs): StopRequest {
  const { session, cwd, window } = args;
  if (session === undefined || cwd === undefined)
    return { kind: "problem", message: "agent hook: --stop from an extension needs --session and --cwd" };
  if (!session.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(session))
    return { kind: "problem", message: "agent hook: --session is not an absolute path" };
  const sessionId = (session.split(/[/\\]/).at(-1) ?? "").replace(/\.jsonl$/, "");
  return { kind: "stop", sessionPath: session, sessionId, cwd, window };
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
    files: (agentHome, command, options) => [
      { kind: "own", path: [...host.folder(agentHome), EXTENSION_FILE], text: extensionText(host, command, options) },
    ],
    installedOptions(read, agentHome) {
      const text = read([...host.folder(agentHome), EXTENSION_FILE]);
      const offer = text === undefined ? undefined : readExtensionSetup(text)?.offer;
      return offer === undefined ? {} : { offer };
    },
    stop: {
      usage: readPiContextUsage,
      command: `/${host.command}`,
      readStop: (_input, args) => readExtensionStop(args),
      notice: (lines) => ({ stdout: lines.length === 0 ? "" : renderExtensionAnswer({ message: lines.join("\n") }), exitCode: 0 }),
      beforeCompact: `only Claude Code has it so far; --offer tells you when to hand off before ${label} compacts`,
    },
    readHook: ({ argv }) => readExtensionCall(host.agent, argv),
    answer: (reply) => ({ stdout: renderExtensionAnswer(answerOf(host, reply)), exitCode: 0 }),
  };
}
