/**
 * Codex's thread index: `state_5.sqlite` in its home, table `threads`. Once Codex has scanned
 * its sessions folder (`backfill_state.status` `complete`), `codex resume --last`, `codex exec
 * resume --last` and the picker list threads from this table only, so a rollout written after
 * that scan needs its row (`codex resume <id>` finds the file by name either way). The row is the
 * one Codex's own scan makes for our three-line rollout, read from the same lines (its
 * `session_meta` and its `user_message` event); compat/checks/codex-index.ts compares the two
 * column by column with Codex 0.169.0, and proves that the real Codex lists the row.
 */
import { isObject, stringField } from "../../../json.ts";
import type { AgentHome, PathSegments } from "../home.ts";
import type { IndexRow, PlacedSession, SessionIndex } from "../session-index.ts";
import { codexHome } from "./location.ts";
import { epochMs } from "./time.ts";

/**
 * The highest migration applied to `state_5.sqlite` (sqlx's `_sqlx_migrations.version`) by each
 * Codex version `bun run compat` ran: 62 for 0.169.0. Another version may have moved or renamed
 * a column the row needs; it is left alone.
 */
const TESTED_SCHEMA_VERSIONS = [62];

/** Codex's provider when its configuration names none. */
const DEFAULT_PROVIDER = "openai";

/**
 * Codex's listing hides a thread whose `model_provider` is not the one configured, and its scan
 * gives a rollout that names none (ours, unless the source was Codex) the configured one: the
 * active profile's `model_provider`, else the top-level one, else `openai`.
 */
export function configuredProvider(config: unknown): string {
  if (!isObject(config)) return DEFAULT_PROVIDER;
  const profileName = stringField(config, "profile");
  const profiles = config.profiles;
  const profile = profileName !== undefined && isObject(profiles) ? profiles[profileName] : undefined;
  return (
    (isObject(profile) ? stringField(profile, "model_provider") : undefined) ?? stringField(config, "model_provider") ?? DEFAULT_PROVIDER
  );
}

/** What Codex cuts off a user message before using it as a title (its older CLI put the request after it). */
const USER_MESSAGE_BEGIN = "## My request for Codex:";

/** The title Codex gives a thread from its first `user_message` event: after its request marker if any, trimmed. */
export function threadTitle(message: string): string {
  const at = message.indexOf(USER_MESSAGE_BEGIN);
  return (at === -1 ? message : message.slice(at + USER_MESSAGE_BEGIN.length)).trim();
}

/** The payload of the first line of `lines` of type `type` (and payload type `payloadType`, when given). */
function payloadOf(lines: readonly string[], type: string, payloadType?: string): Record<string, unknown> | undefined {
  for (const line of lines) {
    const value: unknown = JSON.parse(line);
    if (!isObject(value) || value.type !== type || !isObject(value.payload)) continue;
    if (payloadType === undefined || value.payload.type === payloadType) return value.payload;
  }
  return undefined;
}

/**
 * What Codex's scan records of a rollout with no turn in it yet: its defaults for the sandbox
 * (read-only) and for approvals, which the first turn replaces with the session's own.
 */
const READ_ONLY_POLICY = JSON.stringify({
  type: "managed",
  file_system: { type: "restricted", entries: [{ path: { type: "special", value: { kind: "root" } }, access: "read" }] },
  network: "restricted",
});

/** The row for a rollout we wrote (renderCodexSession's lines), as Codex's scan makes it. */
export function codexThreadRow({ content, path, modifiedMs, config }: PlacedSession): IndexRow {
  const lines = content.split("\n").filter((line) => line !== "");
  const meta = payloadOf(lines, "session_meta");
  const event = payloadOf(lines, "event_msg", "user_message");
  const id = meta && stringField(meta, "id");
  const created = meta && epochMs(stringField(meta, "timestamp"));
  const cwd = meta && stringField(meta, "cwd");
  const message = event && stringField(event, "message");
  if (!meta || id === undefined || created === undefined || cwd === undefined || message === undefined)
    throw new Error("a Codex rollout of ours lacks its session_meta id, timestamp or cwd, or its user_message event");
  const updated = Math.floor(modifiedMs);
  const title = threadTitle(message);
  return {
    table: "threads",
    values: {
      id,
      rollout_path: path,
      created_at: Math.floor(created / 1000),
      created_at_ms: created,
      // The file's modification time, as Codex's scan takes it: what "newest first" sorts by.
      updated_at: Math.floor(updated / 1000),
      updated_at_ms: updated,
      recency_at: Math.floor(updated / 1000),
      recency_at_ms: updated,
      // A rollout with no `source` is one of the interactive ones (Codex's default), which the picker lists.
      source: "vscode",
      model_provider: stringField(meta, "model_provider") ?? configuredProvider(config),
      cwd,
      title,
      first_user_message: title,
      preview: title,
      sandbox_policy: READ_ONLY_POLICY,
      approval_mode: "on-request",
      cli_version: stringField(meta, "cli_version") ?? "",
      originator: stringField(meta, "originator") ?? null,
      history_mode: "legacy",
    },
  };
}

/** Resolves `.`, `..` and repeated slashes in an absolute path, as Codex's `AbsolutePathBuf` does (no file system asked). */
function normalized(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

/** `path` against `base` when it is relative; absolute either way. */
function against(base: string, path: string): string {
  return normalized(path.startsWith("/") ? path : `${base}/${path}`);
}

/**
 * A path in Codex's configuration as Codex 0.169 reads one (its `AbsolutePathBuf`): `~` alone is
 * the home folder and `~/…` (or `~//…`) lies in it; any other relative path, `~user` included, is
 * relative to the folder of the file, Codex's home; `.` and `..` are resolved; empty is that folder.
 */
function configuredPath(value: string, home: AgentHome): string {
  const configFolder = codexHome(home).join("/");
  if (value === "~") return normalized(home.home);
  if (value.startsWith("~/")) return against(home.home, value.slice(2).replace(/^\/+/, ""));
  return against(configFolder, value);
}

/**
 * Where Codex keeps `state_5.sqlite`, as Codex 0.169 decides it: the folder `sqlite_home` in its
 * configuration names (see `configuredPath`; an empty one is Codex's home), else
 * `CODEX_SQLITE_HOME` trimmed, when not blank (no `~` expansion; a relative one lies in the
 * folder Codex runs in: the new session's cwd, where its resume command runs, else ours), else
 * its home.
 */
function databaseFolder(home: AgentHome, config: unknown, session: { content: string; currentFolder: string }): PathSegments {
  const configured = isObject(config) && typeof config.sqlite_home === "string" ? config.sqlite_home : undefined;
  if (configured !== undefined) return [configuredPath(configured, home)];
  const fromEnv = home.env.CODEX_SQLITE_HOME?.trim();
  if (fromEnv === undefined || fromEnv === "") return codexHome(home);
  if (fromEnv.startsWith("/")) return [normalized(fromEnv)];
  return [against(sessionCwd(session.content) ?? session.currentFolder, fromEnv)];
}

/** The absolute cwd a rollout's session_meta records, if it does. */
function sessionCwd(content: string): string | undefined {
  const lines = content.split("\n").filter((line) => line !== "");
  let meta: Record<string, unknown> | undefined;
  try {
    meta = payloadOf(lines, "session_meta");
  } catch {
    return undefined;
  }
  const cwd = meta && stringField(meta, "cwd");
  return cwd?.startsWith("/") ? cwd : undefined;
}

export const codexThreadIndex: SessionIndex = {
  label: "Codex's thread index",
  database: (home, config, session) => [...databaseFolder(home, config, session), "state_5.sqlite"],
  configFile: (home) => [...codexHome(home), "config.toml"],
  // sqlx records each migration with `success`; one that failed half way leaves the schema in no version.
  schemaVersionSql: "SELECT CASE WHEN MIN(success) = 1 THEN MAX(version) END AS version FROM _sqlx_migrations",
  testedSchemaVersions: TESTED_SCHEMA_VERSIONS,
  readySql: "SELECT COUNT(*) AS ready FROM backfill_state WHERE id = 1 AND status = 'complete'",
  listedBy: "`codex resume --last` and its picker",
  byIdCommand: (sessionId) => `codex resume ${sessionId}`,
  row: codexThreadRow,
};
