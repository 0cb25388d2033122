/** What a Codex rollout's first lines tell: `session_meta` and the first thing the user asked. */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { objectsOf, requestTitle, textOf } from "../glance.ts";
import type { GlanceInput, SessionGlance } from "../types.ts";
import { isHarnessText } from "./harness.ts";
import { describeSpawnedThread, spawnedThread } from "./spawned.ts";

/**
 * The user's first words: Codex lists sessions by the first `user_message` event; a rollout
 * without one (older, or ours before Codex wrote to it) by its first user message that is not
 * Codex's own context.
 */
function firstRequest(records: readonly JsonObject[]): string | undefined {
  for (const record of records) {
    const payload = isObject(record.payload) ? record.payload : undefined;
    if (payload === undefined) continue;
    if (record.type === "event_msg" && payload.type === "user_message") {
      const message = stringField(payload, "message");
      if (message !== undefined && message.trim() !== "") return requestTitle(message);
    }
    if (record.type === "response_item" && payload.type === "message" && payload.role === "user" && Array.isArray(payload.content)) {
      const parts = payload.content.filter(isObject).map((part) => textOf([part]));
      if (parts.some(isHarnessText)) continue;
      const text = parts.join("\n");
      if (text.trim() !== "") return requestTitle(text);
    }
  }
  return undefined;
}

/**
 * The rollout's id, cwd and first request, from its first lines. A thread Codex ran for itself
 * (a subagent, a review; see spawned.ts) is not a session of the user's: undefined, as for a file of
 * another agent, so listing it, choosing it as the newest session and finding it by id all pass
 * it over. Given by its path, it is still read (and said to be what it is).
 */
export function glanceCodex({ head }: GlanceInput): SessionGlance | undefined {
  const records = objectsOf(head);
  const meta = records[0];
  if (meta?.type !== "session_meta" || !isObject(meta.payload)) return undefined;
  const id = stringField(meta.payload, "id");
  if (id === undefined || id === "") return undefined;
  const glance: SessionGlance = {
    id,
    cwd: stringField(meta.payload, "cwd"),
    title: undefined,
    firstRequest: firstRequest(records.slice(1)),
  };
  const spawned = spawnedThread(meta.payload);
  if (spawned) glance.agentThread = describeSpawnedThread(spawned);
  return glance;
}
