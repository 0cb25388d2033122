import type { JsonObject } from "../json.ts";

/** omp's optional first line: a fixed-size slot holding the session title. */
export interface TitleSlot {
  title: string;
  updatedAt: string;
  source?: string;
}

/** The session header, after validation. `raw` keeps every field as found. */
export interface SessionHeader {
  id: string;
  cwd: string | undefined;
  timestamp: string | undefined;
  parentSession: string | undefined;
  /** The version of the agent that wrote the file, when the file says (Claude Code, Codex). */
  agentVersion?: string;
  /** Who served the session's model, when the file says (Codex `model_provider`). */
  modelProvider?: string;
  /** The header line's 1-based line number in the file. */
  line: number;
  raw: JsonObject;
}

/**
 * One entry after migration to version 3. `data` is the parsed record itself (with `id`,
 * `parentId` and migrated fields filled in), so unknown fields survive a rewrite.
 */
export interface Entry {
  type: string;
  id: string;
  parentId: string | null;
  /** 1-based line number in the file. */
  line: number;
  data: JsonObject;
}

/** A line we could not use, and why. */
export interface LineProblem {
  line: number;
  reason: string;
}

/** A session file, parsed and migrated in memory to version 3. */
export interface Session {
  /** Which agent wrote the file. */
  format: AgentName;
  titleSlot: TitleSlot | undefined;
  header: SessionHeader;
  /** The `version` field as found in the file; `undefined` means version 1. */
  versionFound: number | undefined;
  /** The version the file's layout was read as (1, 2 or 3). */
  version: 1 | 2 | 3;
  entries: Entry[];
  /** 1-based line numbers of lines that are not usable entries, in file order. */
  malformedLines: number[];
  problems: LineProblem[];
  /** Entry types we do not know; kept in `entries`, ignored for context. */
  unknownTypes: string[];
  /** The session's name where the format keeps one apart from omp's title slot (Claude Code's `custom-title`). */
  title?: string;
  /** What the reader found that the user should hear, each one line (a Claude Code conversation that continued in another file). */
  notices?: readonly string[];
  /** True when the last byte of the file is not `\n` (a torn or hand-edited file). */
  missingFinalNewline: boolean;
  /**
   * Ids of lines that have no entry of their own because they became part of another (the
   * lines of one Claude Code answer, saved a block at a time), each with that entry's id: a
   * user may name any of them as the leaf.
   */
  joinedIds?: ReadonlyMap<string, string>;
}

/**
 * The agents whose sessions we read and write, in their one spelling: flag values (`--to`),
 * `inspect`'s `format`, `--json`. A name typed by a person may also be an alias (`claude`);
 * `SessionFormat.aliases` lists them.
 */
export type AgentName = "pi" | "omp" | "claude-code" | "codex" | "gemini" | "opencode";

/** The agents whose sessions are rows in their own database, not files (their format has `rows`). */
export type RowAgentName = "opencode";

/** The agents whose sessions are files: the tables of tests and fixtures made of session files are keyed by these. */
export type FileAgentName = Exclude<AgentName, RowAgentName>;

/** Tokens a model reports for one answer; kept here, below llm/, because a session records them. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Part of `outputTokens` spent on reasoning, when the provider counts it. */
  reasoningTokens?: number;
}
