/** The public surface of core: everything cli/ may import. */
export { AgentError, errorMessage, isAgentError, type ErrorCode } from "./errors.ts";
export { parseSession } from "./session/formats/pi/parse.ts";
export { splitLines, type RawLine } from "./session/lines.ts";
export { readSession } from "./session/formats/read.ts";
export {
  describeFormatNames,
  describeFormats,
  describeFormatsWhere,
  describeFormatNamesInCode,
  detectFormat,
  FILE_FORMATS,
  FORMATS,
  findFormat,
  formatNamed,
} from "./session/formats/table.ts";
export { newerVersionNotice } from "./session/formats/version.ts";
export { unknownLayoutNotice } from "./session/formats/version.ts";
export { withUsableCwd } from "./session/cwd.ts";
export type { Entry, FileAgentName, LineProblem, RowAgentName, Session, SessionHeader, TitleSlot } from "./session/types.ts";
export type {
  AgentHome,
  AgentLocation,
  AgentName,
  NewSessionFile,
  NewSessionInput,
  PathSegments,
  Recording,
  ResumeCommand,
  ResumeTarget,
  SessionFileLayout,
  SessionFormat,
  SessionGlance,
  SessionPlace,
  RegisteredFolder,
} from "./session/formats/types.ts";
export type { IndexRow, PlacedSession, SessionIndex, SqlValue } from "./session/formats/session-index.ts";
export type { ListedSession, NewRow, NewRows, ProjectPlace, Row, SessionRows, SessionRowStore } from "./session/formats/session-rows.ts";
export type { ContextMessage } from "./session/messages.ts";
export { handoffOnly, type HandoffOnly } from "./session/handoff-only.ts";
export { analyzeBranch, describeSessionProblems, type AnalyzeOptions, type BranchAnalysis } from "./session/analyze.ts";
export { buildInspectReport, renderInspectReport, type InspectReport, type ShowField } from "./session/inspect-report.ts";
export type { ResolveBlob } from "./session/convert.ts";
export type { SessionFacts, CommandRun } from "./session/facts.ts";
export { CompletionError, type ChatRequest, type ChatMessage, type Complete, type Completion, type TokenUsage } from "./llm/types.ts";
export { readDelta, readUsage } from "./llm/stream.ts";
export { AGENT_OUTPUT_LIMIT_BYTES, answerCharLimit, answerLineByteLimit, describeAnswerOverflow } from "./llm/answer-bound.ts";
export { chooseProfile, isProviderId, PROFILES, PROVIDER_IDS } from "./llm/providers/choose.ts";
export type { ProviderId, ProviderProfile } from "./llm/providers/profile.ts";
export { isLocalEndpoint, isLoopbackHost } from "./llm/providers/local-endpoint.ts";
export { chooseServedModel, readModelList, type ServedModel } from "./llm/served-models.ts";
export { classifyRefusal } from "./llm/providers/refusals.ts";
export { assertSomethingToHandOff } from "./handoff/nothing-to-hand-off.ts";
export { OFFLINE_MODEL, planHandoffRequests, runHandoff } from "./handoff/pipeline.ts";
export type { HandoffDeps, HandoffInput, HandoffResult } from "./handoff/pipeline-types.ts";
export { planTargetOf } from "./handoff/handoff-engine-setup.ts";
export { DEFAULT_CONTEXT_WINDOW } from "./handoff/condense/budget.ts";
export { checkRunPlan, describeRunPlan, type InputLimit, type PlanTarget, type RunPlan } from "./handoff/run-plan.ts";
export { describeCondensed, type CondenseReport } from "./handoff/condense/condense-report.ts";
export { estimateTokens } from "./session/tokens.ts";
export { appendSessionFacts, renderSessionFacts, type SessionFactsOptions } from "./handoff/facts-section.ts";
export { createRedactor, DEFAULT_PLACEHOLDER_WORD, type Redactor } from "./secrets/redact.ts";
export { createWithholder, TERMINAL_ESCAPE, type Withhold } from "./secrets/withhold.ts";
export { countOf, formatCount, withArticle } from "./format.ts";
export type {
  ConfigJson,
  DryRunAgentJson,
  DryRunDocumentJson,
  DryRunRequestsJson,
  HandoffJson,
  InspectJson,
  LsSessionJson,
} from "./contracts.ts";
export { parseJsonOrUndefined, stringField } from "./json.ts";
export { renderAgentPrompt, type AgentPrompt } from "./handoff/agent-prompt.ts";
export { fromInertText, toInertText } from "./handoff/agent-inert.ts";
export {
  AGENT_ENGINES,
  agentBinEnv,
  agentBinKey,
  agentEngine,
  byAgentBinKey,
  byAgentEngine,
  describeEngineNames,
  isEngineName,
  type AgentBinKey,
  type EngineName,
} from "./agent-run/table.ts";
export { agentEnvironment } from "./agent-run/env.ts";
export { describeAgentFailure, describeAgentTimeout, describeMissingAgent } from "./agent-run/failures.ts";
export { MESSAGE_LIMIT } from "./agent-run/output.ts";
export type { AgentAnswer, AgentEngine, AgentFailureKind, AgentOutcome, AgentRunOutput, AgentRunPlan } from "./agent-run/types.ts";
export { mayOpenWithHandoff, TITLE_MAX } from "./session/formats/glance.ts";
export { findIntegration, integrations, INTEGRATIONS } from "./agent-run/integration/table.ts";
export { MAX_HOOK_INPUT_BYTES } from "./agent-run/integration/hook-json.ts";
export { leafBeforePrompt } from "./agent-run/integration/prompt-leaf.ts";
export { parseHandoffArgs, type HandoffArgs } from "./agent-run/integration/hook-args.ts";
export {
  estimateSeconds,
  ranOutLine,
  splitHookBudget,
  tooLongLine,
  type HookBudget,
  type PlannedRun,
} from "./agent-run/integration/hook-budget.ts";
export {
  beforeCompactStep,
  beforeCompactText,
  HEAD_BYTES,
  markText,
  namesBeforeCompact,
  parseMark,
  type BeforeCompactMark,
} from "./agent-run/integration/before-compact.ts";
export {
  offerStep,
  parseOfferPercent,
  parseStopArgv,
  windowOf,
  type IntegrateOptions,
  type OfferStep,
  type StopArgs,
} from "./agent-run/integration/offer.ts";
export type { ContextUsage, ContextUsageReader } from "./session/context-usage.ts";
export {
  IntegrationProblem,
  type AgentIntegration,
  type HookAnswer,
  type HookCommand,
  type HookInput,
  type HookReply,
  type HookRequest,
  type IntegrationFile,
  type IntegrationState,
  type BeforeCompactSupport,
  type StopRequest,
  type StopSupport,
  type TextMerge,
} from "./agent-run/integration/types.ts";
