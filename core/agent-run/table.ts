import type { AgentName } from "../session/formats/types.ts";
import { CLAUDE_CODE_ENGINE } from "./claude-code.ts";
import { CODEX_ENGINE } from "./codex.ts";
import { OMP_ENGINE, PI_ENGINE } from "./pi.ts";
import type { AgentEngine } from "./types.ts";

/** Every agent that can write the document with its own CLI. A new one is one line here. */
export const AGENT_ENGINES: readonly AgentEngine[] = [CLAUDE_CODE_ENGINE, CODEX_ENGINE, PI_ENGINE, OMP_ENGINE];

/**
 * One value per agent, keyed by its name, made from its engine: the one literal list of names, so
 * the compiler says when an agent is missing from a table built this way (the cli's settings).
 */
export function byAgentEngine<T>(make: (engine: AgentEngine) => T): Record<AgentName, T> {
  return {
    "claude-code": make(agentEngine("claude-code")),
    codex: make(agentEngine("codex")),
    pi: make(agentEngine("pi")),
    omp: make(agentEngine("omp")),
  };
}

/** The config file's key for an agent's executable (`claude-code-bin`), which is also `agent config --json`'s. */
export type AgentBinKey = `${AgentName}-bin`;

export function agentBinKey(name: AgentName): AgentBinKey {
  return `${name}-bin`;
}

/** The environment variable for an agent's executable: `AGENT_CLAUDE_CODE_BIN`. */
export function agentBinEnv(name: AgentName): string {
  return `AGENT_${name.toUpperCase().replaceAll("-", "_")}_BIN`;
}

/** The same values under the agents' executable keys (`claude-code-bin`, …), in the table's order. */
export function byAgentBinKey<T>(make: (engine: AgentEngine) => T): Record<AgentBinKey, T> {
  const by = byAgentEngine(make);
  return { "claude-code-bin": by["claude-code"], "codex-bin": by.codex, "pi-bin": by.pi, "omp-bin": by.omp };
}

export function agentEngine(name: AgentName): AgentEngine {
  const engine = AGENT_ENGINES.find((e) => e.name === name);
  if (engine === undefined) throw new Error(`no agent engine named ${name}`);
  return engine;
}
