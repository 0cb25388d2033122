/**
 * The shapes of every `--json` output: scripts depend on them, so each is an interface the CLI
 * builds its object against (a field missing or added is a type error there) and a list of its
 * keys, checked against the interface here and against the README by core/contracts.test.ts.
 */
import type { CondenseReport } from "./handoff/condense/condense-report.ts";
import type { ChatRequest, TokenUsage } from "./llm/types.ts";
import type { AgentBinKey } from "./agent-run/table.ts";
import type { AgentName } from "./session/formats/types.ts";
import type { InspectReport } from "./session/inspect-report.ts";

/** `agent handoff --json`. */
export interface HandoffJson {
  document: string;
  sessionFile: string;
  /** `null` when the session was read from a stream. */
  sourceFile: string | null;
  /** The id the agent resumes the new session by. */
  sessionId: string;
  sourceFormat: AgentName;
  sessionFormat: AgentName;
  /** Who wrote the document, as `--engine` resolved. */
  engine: string;
  /** The model the engine said answered when that is an identifier (core/llm/model-id.ts), else the one asked for. */
  model: string;
  /** `null` when the engine (model endpoint or agent) did not report usage for every request, or reported something that is not a count. */
  usage: TokenUsage | null;
  missingSections: string[];
  recorded: boolean;
  condensed: CondenseReport | null;
  redacted: number;
  /** The command that continues the new session and the folder to run it in; `null` when none can. */
  resume: { argv: string[]; cwd: string | null } | null;
}

/** One session in `agent ls --json` (an array of these). */
export interface LsSessionJson {
  agent: AgentName;
  id: string;
  /** The session file; for a session kept as rows (opencode), the agent's database holding it. */
  path: string;
  cwd: string | null;
  /** The file's modification time, ISO; for a session kept as rows, the time the agent last updated it. */
  updated: string;
  /** The file's size; for a session kept as rows (it has no file of its own), the bytes of its rows' JSON (opencode's messages and parts). */
  bytes: number;
  /** bytes / 4, of the text (a compressed rollout's decompressed size); null when a compressed rollout was too large to read to its end. */
  estimatedTokens: number | null;
  /** The title the agent shows for it, else the user's first request; on one line. */
  title: string | null;
  /** With `--long`: the messages on the session's current branch (null when it could not be read). */
  messages?: number | null;
}

/** `agent handoff --dry-run --json` with the model engine. */
export interface DryRunRequestsJson {
  dryRun: true;
  engine: string;
  requests: ChatRequest[];
  /** The plan in words, one line each. */
  plan: string[];
  estimatedTokens: number;
  redacted: number;
  condensed: CondenseReport | null;
}

/** `agent handoff --dry-run --json` with the offline engine. */
export interface DryRunDocumentJson {
  dryRun: true;
  engine: string;
  document: string;
}

/** One run of an agent engine that `--dry-run` shows: what would start, with what, and its stdin. */
export interface AgentRunJson {
  command: string[];
  env: Record<string, string>;
  /** Files the run writes into its empty folder first, by name (Codex's instructions: our system prompt). */
  files: Record<string, string>;
  prompt: string;
}

/** `agent handoff --dry-run --json` with an agent engine (`--engine claude-code`, …). */
export interface DryRunAgentJson {
  dryRun: true;
  engine: AgentName;
  runs: AgentRunJson[];
  plan: string[];
  estimatedTokens: number;
  redacted: number;
  condensed: CondenseReport | null;
}

/** Where a setting's value came from, in `agent config --json`. */
export interface SettingSourceJson {
  source: "flag" | "env" | "file" | "default";
  /** The flag, the variable or the file; `null` for a default. */
  from: string | null;
  /** The file's line, for a setting read from the config file. */
  line?: number;
}

/** `agent config --json`. */
export interface ConfigJson {
  configFile: string;
  configFileFound: boolean;
  settings: {
    model: { value: string | null; askedOfEndpoint: boolean } & SettingSourceJson;
    "base-url": { value: string | null } & SettingSourceJson;
    "context-window": { value: number } & SettingSourceJson;
    /** `null`: no limit. */
    "max-input-tokens": { value: number | null } & SettingSourceJson;
    engine: { value: string; resolved: string | null } & SettingSourceJson;
    to: { value: string | null } & SettingSourceJson;
    /** `/handoff` inside an agent (`agent hook`): `null` for "the agent itself". */
    "hook-engine": { value: string | null } & SettingSourceJson;
    /** The agent's model's window for `integrate --offer`, where the agent records none; `null`: unset. */
    "offer-window": { value: number | null } & SettingSourceJson;
    /** `null`: the engine decides (on for the offline engine, off for the others). */
    "last-exchanges": { value: boolean | null } & SettingSourceJson;
    /** Each agent engine's executable (`AGENT_<NAME>_BIN`, the config file), `null` for "found on PATH". */
  } & Record<AgentBinKey, { value: string | null } & SettingSourceJson>;
  apiKey: { set: boolean; from: "OPENAI_API_KEY" };
}

/** `agent inspect --json`. */
export type InspectJson = InspectReport;

/** The keys of `T` as a list, from an object that must name each key once and nothing else. */
function keysOf<T>(keys: Record<keyof T, true>): (keyof T & string)[] {
  return Object.keys(keys).filter((key): key is keyof T & string => key in keys);
}

export const HANDOFF_JSON_KEYS = keysOf<HandoffJson>({
  document: true,
  sessionFile: true,
  sourceFile: true,
  sessionId: true,
  sourceFormat: true,
  sessionFormat: true,
  engine: true,
  model: true,
  usage: true,
  missingSections: true,
  recorded: true,
  condensed: true,
  redacted: true,
  resume: true,
});

export const LS_SESSION_JSON_KEYS = keysOf<LsSessionJson>({
  agent: true,
  id: true,
  path: true,
  cwd: true,
  updated: true,
  bytes: true,
  estimatedTokens: true,
  title: true,
  messages: true,
});

export const DRY_RUN_REQUESTS_JSON_KEYS = keysOf<DryRunRequestsJson>({
  dryRun: true,
  engine: true,
  requests: true,
  plan: true,
  estimatedTokens: true,
  redacted: true,
  condensed: true,
});

export const DRY_RUN_DOCUMENT_JSON_KEYS = keysOf<DryRunDocumentJson>({ dryRun: true, engine: true, document: true });

export const DRY_RUN_AGENT_JSON_KEYS = keysOf<DryRunAgentJson>({
  dryRun: true,
  engine: true,
  runs: true,
  plan: true,
  estimatedTokens: true,
  redacted: true,
  condensed: true,
});

export const CONFIG_JSON_KEYS = keysOf<ConfigJson>({ configFile: true, configFileFound: true, settings: true, apiKey: true });

export const CONFIG_SETTINGS_JSON_KEYS = keysOf<ConfigJson["settings"]>({
  model: true,
  "base-url": true,
  "context-window": true,
  "max-input-tokens": true,
  engine: true,
  to: true,
  "hook-engine": true,
  "offer-window": true,
  "last-exchanges": true,
  "claude-code-bin": true,
  "codex-bin": true,
  "pi-bin": true,
  "omp-bin": true,
});

export const INSPECT_JSON_KEYS = keysOf<InspectJson>({
  file: true,
  format: true,
  version: true,
  agentVersion: true,
  sessionId: true,
  cwd: true,
  title: true,
  parentSession: true,
  entries: true,
  malformedLines: true,
  leafId: true,
  branchEntries: true,
  branchMessages: true,
  contextMessages: true,
  contextRoles: true,
  estimatedTokens: true,
  filesRead: true,
  filesModified: true,
  filesDeleted: true,
  commands: true,
  models: true,
  lastUserRequest: true,
  warnings: true,
});
