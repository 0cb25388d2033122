/**
 * Threads Codex runs for itself beside the user's: a `spawn_agent` subagent, its guardian
 * reviewer, `/review`, a compaction, memory consolidation. Each has a rollout of its own in the
 * same `sessions/YYYY/MM/DD/` folder with the same cwd, often newer than the user's session (the
 * user stops while a helper runs), and holds the helper's task, not the user's.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";

/** What `session_meta` says of a thread Codex started for itself. */
export interface SpawnedThread {
  /** What ran it, as Codex names it: `subagent: thread_spawn`, `subagent: review`, `subagent: guardian`, `internal: memory_consolidation`, … */
  role: string;
  /** The thread it was spawned from, when the file says. */
  parentId: string | undefined;
}

/** `thread_source` values that name no user's thread (Codex 0.169: `user`, `subagent`, `memory_consolidation`). */
const AGENT_THREAD_SOURCES = new Set(["subagent", "memory_consolidation"]);

/** The name of a `source` variant: a string (`"review"`), or an object's one key (`{"thread_spawn":{…}}`), `other`'s value (`{"other":"guardian"}`). */
function variantName(variant: unknown): string | undefined {
  if (typeof variant === "string") return variant;
  if (!isObject(variant)) return undefined;
  const [name] = Object.keys(variant);
  if (name === "other" && typeof variant.other === "string") return variant.other;
  return name;
}

/**
 * Whether the rollout whose `session_meta` payload is `meta` is a thread Codex started for itself,
 * and which. Codex 0.169 writes `source` as `{"subagent": …}` for subagents (`"review"`,
 * `"compact"`, `{"thread_spawn":{"parent_thread_id",…}}`, `{"other":"guardian"}`, …) and
 * `{"internal": …}` for its own jobs, and `thread_source` `"subagent"` / `"memory_consolidation"`;
 * either is enough (older versions write only `source`). A user's session has `source` `"cli"`,
 * `"vscode"`, `"exec"`, … (a string) and `thread_source` `"user"` or none. Codex's own resume
 * picker lists only interactive sources; an `exec` run is still the user's work, so it is kept.
 */
export function spawnedThread(meta: JsonObject): SpawnedThread | undefined {
  const source = isObject(meta.source) ? meta.source : undefined;
  const key = source && ["subagent", "internal"].find((name) => Object.hasOwn(source, name));
  const spawnedBy = source && key !== undefined ? source[key] : undefined;
  const threadSource = stringField(meta, "thread_source");
  if (key === undefined && (threadSource === undefined || !AGENT_THREAD_SOURCES.has(threadSource))) return undefined;
  const spawn = isObject(spawnedBy) && isObject(spawnedBy.thread_spawn) ? spawnedBy.thread_spawn : undefined;
  return {
    role: key === undefined ? `thread_source: ${threadSource}` : `${key}: ${variantName(spawnedBy) ?? "?"}`,
    parentId: (spawn && stringField(spawn, "parent_thread_id")) ?? stringField(meta, "parent_thread_id"),
  };
}

/** `a thread Codex ran for itself (subagent: thread_spawn) of session <parent>`. */
export function describeSpawnedThread(thread: SpawnedThread): string {
  const parent = thread.parentId === undefined ? "" : ` of session ${thread.parentId}`;
  return `a thread Codex ran for itself (${thread.role})${parent}`;
}

/** The reader's one line about a spawned thread handed to it by path: it is read, and said to be no session of the user's. */
export function spawnedThreadNotice(thread: SpawnedThread): string {
  return `${describeSpawnedThread(thread)}, not a session the user worked in: listing and searching leave it out; hand off the session it belongs to for the user's work`;
}
