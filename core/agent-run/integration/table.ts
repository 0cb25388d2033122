import type { EngineName } from "../table.ts";
import { CLAUDE_CODE_INTEGRATION } from "./claude-code.ts";
import { CODEX_INTEGRATION } from "./codex.ts";
import { OMP_INTEGRATION } from "./omp.ts";
import { PI_INTEGRATION } from "./pi.ts";
import type { AgentIntegration } from "./types.ts";

/**
 * `/handoff` inside each agent that has it, keyed by the agent's name, in the order
 * `integrate --all` and `--status` go through them. A new agent is its file beside these and one
 * line here.
 */
export const INTEGRATIONS: Partial<Record<EngineName, AgentIntegration>> = {
  "claude-code": CLAUDE_CODE_INTEGRATION,
  codex: CODEX_INTEGRATION,
  pi: PI_INTEGRATION,
  omp: OMP_INTEGRATION,
};

/** The integrations, in the table's order. */
export function integrations(): AgentIntegration[] {
  return Object.values(INTEGRATIONS).filter((entry): entry is AgentIntegration => entry !== undefined);
}

export function findIntegration(name: string): AgentIntegration | undefined {
  return Object.hasOwn(INTEGRATIONS, name) ? INTEGRATIONS[name as EngineName] : undefined;
}
