import type { ExtensionHost } from "../pi/extension/setup.ts";
import { ompAgentDir } from "./location.ts";

/**
 * omp loads pi's extension shape from `~/.omp/agent/extensions/` (its profile's, or
 * `PI_CODING_AGENT_DIR`), but skips a command named like one of its own: its `/handoff`
 * (which compacts in place) stays, and ours is `/agent-handoff`.
 */
export const OMP_EXTENSION_HOST: ExtensionHost = {
  agent: "omp",
  command: "agent-handoff",
  folder: (home) => [...ompAgentDir(home), "extensions"],
};
