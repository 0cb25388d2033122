import type { AgentName } from "../session/formats/types.ts";
import { CLAUDE_CODE_ENGINE } from "./claude-code.ts";
import { CODEX_ENGINE } from "./codex.ts";
import { OMP_ENGINE, PI_ENGINE } from "./pi.ts";
import type { AgentEngine } from "./types.ts";

/** Every agent that can write the document with its own CLI. A new one is one line here. */
export const AGENT_ENGINES: readonly AgentEngine[] = [CLAUDE_CODE_ENGINE, CODEX_ENGINE, PI_ENGINE, OMP_ENGINE];

export function agentEngine(name: AgentName): AgentEngine {
  const engine = AGENT_ENGINES.find((e) => e.name === name);
  if (engine === undefined) throw new Error(`no agent engine named ${name}`);
  return engine;
}
