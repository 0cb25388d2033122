/**
 * The real agents the compatibility suite runs, pinned. Each is installed with `npm ci` from
 * the committed lockfile in `agents/<name>/`, into a cache folder outside the repository.
 *
 * Facts about the installs (npm 11):
 * - Claude Code copies its native binary over `bin/claude.exe` in a postinstall script; Codex
 *   ships its binary as an optional dependency (no script). npm 11 runs scripts allowed by
 *   `allowScripts` in package.json; the ones each agent needs are listed there.
 * - omp's `@oh-my-pi/pi-natives` names platform packages the registry does not publish (only
 *   linux-x64 exists), and `npm ci` refuses a lockfile that cannot name them; `overrides` point
 *   them at an empty local package (`agents/omp/absent-native`).
 * - omp's optional `onnxruntime-node` runs a postinstall that downloads CUDA libraries from
 *   outside the npm registry; `allowScripts` denies it (the CPU libraries are in the package)
 *   and `ONNXRUNTIME_NODE_INSTALL=skip` says the same to npm versions without `allowScripts`.
 */
import { join } from "node:path";
import { isEngineName, type EngineName } from "../core/agent-run/table.ts";
import { formatNamed } from "../core/session/formats/table.ts";
import type { AgentName, FileAgentName } from "../core/session/types.ts";

export type { AgentName, EngineName, FileAgentName };

export interface Agent {
  name: AgentName;
  packageName: string;
  version: string;
  /** The executable, relative to the install folder. */
  bin: string;
  /** What `<bin> --version` prints when the install works. */
  versionLine: RegExp;
}

export const AGENTS: readonly Agent[] = [
  { name: "pi", packageName: "@mariozechner/pi-coding-agent", version: "0.73.1", bin: "node_modules/.bin/pi", versionLine: /^0\.73\.1$/m },
  {
    name: "omp",
    packageName: "@oh-my-pi/pi-coding-agent",
    version: "18.2.3",
    bin: "node_modules/.bin/omp",
    versionLine: /^omp\/18\.2\.3$/m,
  },
  {
    name: "claude-code",
    packageName: "@anthropic-ai/claude-code",
    version: "2.1.328",
    bin: "node_modules/.bin/claude",
    versionLine: /^2\.1\.328 \(Claude Code\)$/m,
  },
  {
    name: "codex",
    packageName: "@openai/codex",
    version: "0.169.0",
    bin: "node_modules/.bin/codex",
    versionLine: /^codex-cli 0\.169\.0$/m,
  },
  {
    name: "gemini",
    packageName: "@google/gemini-cli",
    version: "0.61.0",
    bin: "node_modules/.bin/gemini",
    versionLine: /^0\.61\.0$/m,
  },
  {
    name: "opencode",
    // opencode-ai's own package only links the binary of the platform package its postinstall
    // picks; compat runs on linux-x64 only, so that binary package is pinned itself (no script).
    packageName: "opencode-linux-x64",
    version: "1.18.33",
    bin: "node_modules/opencode-linux-x64/bin/opencode",
    versionLine: /^1\.18\.33$/m,
  },
];

/** The committed package.json and lockfile of an agent (and anything they refer to). */
export function agentSourceDir(agent: Agent): string {
  return join(import.meta.dir, "agents", agent.name);
}

/** `${XDG_CACHE_HOME:-$HOME/.cache}/agent-compat`: outside the repository, kept between runs. */
export function cacheRoot(env: Record<string, string | undefined>): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || "/root", ".cache");
  return join(base, "agent-compat");
}

export function installDir(agent: Agent, env: Record<string, string | undefined>): string {
  return join(cacheRoot(env), `${agent.name}@${agent.version}`);
}

export function agentByName(name: string): Agent | undefined {
  return AGENTS.find((agent) => agent.name === name);
}

/** A pinned agent whose sessions are files (not rows in its database, as opencode's are). */
export type FileAgentInstall = Agent & { name: FileAgentName };

/**
 * The agents among `agents` whose sessions are files: the families that place, read and
 * compare session files (reading, resume, matrix, discovery, transcripts) run only these; an
 * agent whose sessions are rows has its own check (checks/opencode-rows.ts).
 */
export function withFiles(agents: readonly Agent[]): FileAgentInstall[] {
  return agents.filter((agent): agent is FileAgentInstall => formatNamed(agent.name).rows === undefined);
}

/** A pinned agent that is an engine too (its name is in the engine table). */
export type EngineAgentInstall = Agent & { name: EngineName };

/** The agents among `agents` that have an engine: the engine checks run only these. */
export function withEngines(agents: readonly Agent[]): EngineAgentInstall[] {
  return agents.filter((agent): agent is EngineAgentInstall => isEngineName(agent.name));
}
