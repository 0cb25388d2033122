import { OMP_EXTENSION_HOST } from "../../session/formats/omp/extension.ts";
import { ompAgentDir } from "../../session/formats/omp/location.ts";
import { extensionIntegration } from "./extension.ts";

/** `/agent-handoff` in omp 18.2.3 (its own `/handoff` compacts in place): our extension in `~/.omp/agent/extensions/`. */
export const OMP_INTEGRATION = extensionIntegration({
  host: OMP_EXTENSION_HOST,
  label: "omp",
  home: ompAgentDir,
  loads: "at its next start",
});
