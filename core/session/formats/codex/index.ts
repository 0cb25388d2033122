/** Codex CLI rollouts: read them into the common model, write a new one holding a handoff. */
import { isObject } from "../../../json.ts";
import type { SessionFormat } from "../types.ts";
import { glanceCodex } from "./glance.ts";
import { codexLocation } from "./location.ts";
import { readCodexRollout } from "./read.ts";
import { codexThreadIndex } from "./thread-index.ts";
import { renderCodexSession } from "./write.ts";

/** The Codex CLI version `bun run compat` last ran (compat/agents.ts). */
const TESTED_VERSION = "0.169.0";

/** A rollout starts with `{"timestamp":…,"type":"session_meta","payload":{…}}`. */
function detect(head: readonly string[]): boolean {
  const first = head.find((line) => line.trim() !== "");
  if (first === undefined || !first.includes('"session_meta"')) return false;
  try {
    const value: unknown = JSON.parse(first);
    return isObject(value) && value.type === "session_meta" && isObject(value.payload);
  } catch {
    return false;
  }
}

export const codex: SessionFormat = {
  name: "codex",
  label: "Codex",
  aliases: [],
  detect,
  read: readCodexRollout,
  renderNewSession: (input) => renderCodexSession(input, TESTED_VERSION),
  location: codexLocation,
  // `model_provider` is a key of the user's Codex configuration: only Codex's built-in `openai`
  // is the provider pi and omp also call `openai` (`bun run compat`: a new pi session naming a
  // Codex-only provider starts with pi's default model, and omp's tries its own default).
  sharedProviders: ["openai"],
  testedVersion: TESTED_VERSION,
  glance: glanceCodex,
  // Codex finds a rollout by the id in its name, only under its own sessions folder; it takes no path.
  resumeCommand: ({ sessionId, cwd, underRoot }) => (underRoot === undefined ? undefined : { argv: ["codex", "resume", sessionId], cwd }),
  // Once Codex has scanned its sessions folder it lists threads from its database only.
  sessionIndex: codexThreadIndex,
};
