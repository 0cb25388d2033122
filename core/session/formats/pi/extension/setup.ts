/**
 * The copy of `agent-handoff.ts` that `agent integrate pi|omp` installs: the template with its
 * one SETUP line filled in (the command's name, the agent, the absolute argv that runs `agent`),
 * and that line read back, so `--status` can tell a current copy from an older one and
 * `--uninstall` removes only a file of ours.
 */
import type { AgentHome, AgentName, PathSegments } from "../../types.ts";

/** What the SETUP line holds (the extension's own `Setup`). */
export interface ExtensionSetup {
  command: string;
  agent: AgentName;
  run: readonly string[];
  timeoutMs: number;
  /** The agent's own executable as integrate found it, for the hook's engine (absent: not found). */
  agentBin?: string | undefined;
  /** The agents `--to` takes (offered as the user types). */
  targets?: readonly string[] | undefined;
  /** The share of the window (percent) past which the extension offers the handoff after a turn; absent: no offer. */
  offer?: number | undefined;
}

/** An agent that loads the extension: its command's name and the folder it loads extensions from. */
export interface ExtensionHost {
  /** pi and omp load the same extension (omp under another command name). */
  agent: "pi" | "omp";
  /** The slash command's name (without the slash). */
  command: string;
  /** The folder the agent loads `*.ts` extensions from by itself. */
  folder(home: AgentHome): PathSegments;
}

/** The installed file's name, in every host's folder. */
export const EXTENSION_FILE = "agent-handoff.ts";

/**
 * The hook's timeout: pi and omp set none of their own, so this bounds a handoff that hangs
 * (the agent engine's own runs are bounded tighter than this).
 */
export const EXTENSION_TIMEOUT_MS = 600_000;

const SETUP_LINE = /^const SETUP: Setup = (.*);$/gm;

/** The installed text: `template` with its SETUP line replaced (exactly one such line, or a bug). */
export function renderExtension(template: string, setup: ExtensionSetup): string {
  const lines = [...template.matchAll(SETUP_LINE)];
  if (lines.length !== 1) throw new Error(`the extension template holds ${lines.length} SETUP lines, not one`);
  const { command, agent, run, timeoutMs, agentBin, targets, offer } = setup;
  const value = { command, agent, run, timeoutMs, agentBin, targets, offer };
  return template.replace(SETUP_LINE, () => `const SETUP: Setup = ${JSON.stringify(value)};`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The setup an installed copy holds, or undefined when the text is not a copy of ours (no
 * SETUP line of the shape `renderExtension` writes).
 */
export function readExtensionSetup(text: string): ExtensionSetup | undefined {
  const lines = [...text.matchAll(SETUP_LINE)];
  const json = lines.length === 1 ? lines[0]?.[1] : undefined;
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { command, agent, run, timeoutMs, agentBin, targets, offer } = value;
  if (typeof command !== "string" || typeof agent !== "string" || typeof timeoutMs !== "number") return undefined;
  if (!Array.isArray(run) || !run.every((item) => typeof item === "string")) return undefined;
  if (agent !== "pi" && agent !== "omp") return undefined;
  if (agentBin !== undefined && typeof agentBin !== "string") return undefined;
  if (targets !== undefined && !(Array.isArray(targets) && targets.every((item) => typeof item === "string"))) return undefined;
  if (offer !== undefined && !(typeof offer === "number" && Number.isInteger(offer) && offer >= 1 && offer <= 99)) return undefined;
  return {
    command,
    agent,
    run,
    timeoutMs,
    ...(agentBin === undefined ? {} : { agentBin }),
    ...(targets === undefined ? {} : { targets }),
    ...(offer === undefined ? {} : { offer }),
  };
}
