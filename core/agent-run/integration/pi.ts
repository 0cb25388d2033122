import { PI_EXTENSION_HOST } from "../../session/formats/pi/extension/host.ts";
import { piAgentDir } from "../../session/formats/pi/location.ts";
import { extensionIntegration } from "./extension.ts";

/** `/handoff` in pi 0.73.1: our extension in `~/.pi/agent/extensions/`, which switches pi to the new session itself. */
export const PI_INTEGRATION = extensionIntegration({
  host: PI_EXTENSION_HOST,
  label: "pi",
  home: piAgentDir,
  loads: "at its next start, or after /reload",
});
