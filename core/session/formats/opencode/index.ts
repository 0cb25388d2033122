/**
 * opencode: its sessions are rows in its SQLite database, not files (see store.ts). The file
 * half of the format says so: no file is an opencode session, and cli reads and writes its
 * sessions through the store (`rows`), by id.
 */
import { AgentError } from "../../../errors.ts";
import type { SessionFormat } from "../types.ts";
import { opencodeDataFolder } from "./location.ts";
import { opencodeStore, TESTED_VERSION } from "./store.ts";

const noFile = (what: string) =>
  new AgentError("USAGE", `opencode keeps its sessions in its database, not in files: ${what} (\`--session ses_…\`, \`--to opencode\`)`);

export const opencode: SessionFormat = {
  name: "opencode",
  label: "opencode",
  aliases: ["opencode-ai"],
  detect: () => false,
  read: () => {
    throw noFile("a session of it is named by its id");
  },
  // The rows, given the project cli found for the cwd (projectPlace); refused in words when none can be written there.
  renderNewSession: (input) => {
    if (input.projectPlace === undefined) throw noFile("a new session of it is rows in that database");
    const made = opencodeStore.newRows(input, input.projectPlace);
    if ("refused" in made) throw new AgentError("USAGE", made.refused);
    return { content: "", fileName: "", sessionId: made.sessionId, rows: made.rows };
  },
  testedVersion: TESTED_VERSION,
  location: {
    sessionsRoot: opencodeDataFolder,
    sessionFolder: (place) => opencodeDataFolder(place),
    sessionFiles: () => ({ folders: 0, isSessionName: () => false }),
    filesByCwd: false,
  },
  glance: () => undefined,
  resumeCommand: () => undefined,
  rows: opencodeStore,
};
