import type { ProviderProfile } from "../llm/providers/profile.ts";
import type { Complete, TokenUsage } from "../llm/types.ts";
import type { BranchAnalysis } from "../session/analyze.ts";
import type { ProjectPlace } from "../session/formats/session-rows.ts";
import type { NewSessionFile, Recording, SessionFormat } from "../session/formats/types.ts";
import type { Session } from "../session/types.ts";
import type { CondenseReport } from "./condense/condense-report.ts";
import type { SourceRow } from "./facts-section.ts";
import type { InputLimit, RunPlan } from "./run-plan.ts";

export interface HandoffInput {
  session: Session;
  analysis: BranchAnalysis;
  /**
   * Absolute path of the source session; becomes the new session's `parentSession`. For a
   * session read as a stream, what it was read from (`stdin`, `/dev/fd/63`).
   */
  sourcePath: string;
  /** The source was read as a stream: there is no file to name as the new session's parent. */
  sourceIsStream?: boolean;
  /** The source is a session kept as rows of the database `sourcePath` names (opencode's): Session Facts name its id there. */
  sourceRow?: SourceRow;
  focus?: string;
  model: string;
  /** Who serves the model (`openai`, `openrouter`, `ollama`, a host name), for the recorded answer. */
  provider: string;
  /** What the provider documents about its endpoint (default: generic, nothing assumed). */
  profile?: ProviderProfile;
  systemPrompt?: string;
  /** Missing sections fail the run (after one repair request) instead of warning. */
  strict?: boolean;
  /** Record the instruction and the answer in the source session, where its format can (see `SessionFormat.record`). */
  record?: boolean;
  /** The format the source was read in; default: the table's entry for `session.format`. */
  sourceFormat?: SessionFormat;
  /** The agent the new session is for; default: the source's. */
  target?: SessionFormat;
  /** The new session's id when its file's name fixes it (`-o <uuid>.jsonl` for Claude Code); default: a fresh one. */
  sessionId?: string;
  /** For a target whose sessions are rows in its database: the project cli found for the cwd. */
  projectPlace?: ProjectPlace;
  /** The model's context window in tokens (default 128000); a larger context is condensed to fit. */
  contextWindow?: number;
  /** Caps the document's length; also what the context budget keeps free for it. */
  maxOutputTokens?: number;
  /** `offline` writes the document from the branch by code, sending nothing. Default `llm`. */
  engine?: "llm" | "offline";
  /** How the model was reached, for the recorded answer: the Chat Completions wire (default), or an installed agent's CLI. */
  api?: "openai-completions" | "agent-cli";
  /** Append the `## Session Facts` section computed by code (default true). */
  facts?: boolean;
  /** Append `## Last Exchanges`, the branch's end verbatim (default: for the offline engine only). */
  lastExchanges?: boolean;
  /** Replace likely secrets in every request with placeholders, restored in the final document (default true). */
  redact?: boolean;
  /** Strings never sent, written or restored, whatever `redact` says (the API key). */
  withheld?: readonly string[];
  /** The most input tokens the run may send (`--max-input-tokens`): a larger plan is refused before anything is sent. */
  inputLimit?: InputLimit;
}

/** Effects the pipeline needs, passed in so core stays pure and tests stay exact. */
export interface HandoffDeps {
  complete: Complete;
  now: () => Date;
  newSessionId: () => string;
  newEntryId: () => string;
  /** Minutes to add to UTC for the user's local time at a moment (`-date.getTimezoneOffset()`); default 0. */
  utcOffsetMinutes?: (at: Date) => number;
  signal?: AbortSignal;
  /** Told of each change made to requests after the endpoint refused a parameter (`-v`). */
  notice?: (line: string) => void;
  /** Told the run's plan (requests, input tokens) before the first request is sent; never for the offline engine. */
  onPlan?: (plan: RunPlan) => void;
  /**
   * The model, while the endpoint is still being asked which one it serves: awaited once the
   * input is redacted (that needs no model), and sent, recorded and printed in place of `input.model`.
   */
  modelAsked?: Promise<string>;
}

export interface HandoffResult {
  document: string;
  missingSections: string[];
  usage: TokenUsage;
  /** The model that answered (as the endpoint named it), else the one asked for. */
  model: string;
  requests: number;
  /** The new session, in the target's format, and when it was made (agents may file it by date). */
  newSession: NewSessionFile & { timestamp: Date };
  /** `undefined` when recording was not asked for, or the source's format cannot record. */
  recording: Recording | undefined;
  warnings: string[];
  /** What was condensed to fit the window; `null` when the context went as it was. */
  condensed: CondenseReport | null;
  /** Distinct secrets replaced by placeholders before anything was sent. */
  redacted: number;
}
