import { piAgentDir } from "../location.ts";
import type { ExtensionHost } from "./setup.ts";

/** pi loads every `*.ts` in `~/.pi/agent/extensions/` (`PI_CODING_AGENT_DIR` moves it); `/handoff` is free there. */
export const PI_EXTENSION_HOST: ExtensionHost = {
  agent: "pi",
  command: "handoff",
  folder: (home) => [...piAgentDir(home), "extensions"],
};
