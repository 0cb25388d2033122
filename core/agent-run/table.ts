import { describeFormatNamesWhere } from "../session/formats/table.ts";
import { CLAUDE_CODE_ENGINE } from "./claude-code.ts";
import { CODEX_ENGINE } from "./codex.ts";
import { OMP_ENGINE, PI_ENGINE } from "./pi.ts";
import type { AgentEngine } from "./types.ts";

/**
 * Every agent that can write the document with its own CLI. A new one is one line here; an
 * agent in the format table with no line here reads and writes sessions but is not an engine (its
 * CLI has no headless run that can be made safe).
 */
export const AGENT_ENGINES = [CLAUDE_CODE_ENGINE, CODEX_ENGINE, PI_ENGINE, OMP_ENGINE] as const;

/** The name of an agent that has an engine: the engine table's names, as a type. */
export type EngineName = (typeof AGENT_ENGINES)[number]["name"];

/** Whether an agent (any format's name) has an engine. */
export function isEngineName(name: string): name is EngineName {
  return AGENT_ENGINES.some((engine) => engine.name === name);
}

/**
 * One value per agent engine, keyed by its name, in the table's order: the compiler holds a
 * table built this way (the cli's settings) to exactly the engine table's names.
 */
export function byAgentEngine<T>(make: (engine: AgentEngine<EngineName>) => T): Record<EngineName, T> {
  return Object.fromEntries(AGENT_ENGINES.map((engine) => [engine.name, make(engine)])) as Record<EngineName, T>;
}

/** The config file's key for an agent's executable (`claude-code-bin`), which is also `agent config --json`'s. */
export type AgentBinKey = `${EngineName}-bin`;

export function agentBinKey(name: EngineName): AgentBinKey {
  return `${name}-bin`;
}

/** The environment variable for an agent's executable: `AGENT_CLAUDE_CODE_BIN`. */
export function agentBinEnv(name: EngineName): string {
  return `AGENT_${name.toUpperCase().replaceAll("-", "_")}_BIN`;
}

/** The same values under the agents' executable keys (`claude-code-bin`, …), in the table's order. */
export function byAgentBinKey<T>(make: (engine: AgentEngine<EngineName>) => T): Record<AgentBinKey, T> {
  return Object.fromEntries(AGENT_ENGINES.map((engine) => [agentBinKey(engine.name), make(engine)])) as Record<AgentBinKey, T>;
}

export function agentEngine(name: EngineName): AgentEngine<EngineName> {
  const engine = AGENT_ENGINES.find((e) => e.name === name);
  if (engine === undefined) throw new Error(`no agent engine named ${name}`);
  return engine;
}

/** The agents `--engine` takes, in words, as the format table spells them: `pi, omp, claude-code (or claude) or codex`. */
export function describeEngineNames(): string {
  return describeFormatNamesWhere((format) => isEngineName(format.name));
}
