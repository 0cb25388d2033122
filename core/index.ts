/** The public surface of core: everything cli/ may import. */
export { AgentError, isAgentError, type ErrorCode } from "./errors.ts";
export { parseSession } from "./session/parse.ts";
export type { Entry, LineProblem, Session, SessionFormat, SessionHeader, TitleSlot } from "./session/types.ts";
export type { ContextMessage } from "./session/messages.ts";
export { analyzeBranch, describeSessionProblems, type AnalyzeOptions, type BranchAnalysis } from "./session/analyze.ts";
export { buildInspectReport, renderInspectReport, type InspectReport } from "./session/report.ts";
export type { ResolveBlob } from "./session/convert.ts";
export type { SessionFacts, CommandRun } from "./session/facts.ts";
export { CompletionError, type ChatRequest, type ChatMessage, type Complete, type Completion, type TokenUsage } from "./llm/types.ts";
export { assertSomethingToHandOff, OFFLINE_MODEL, planHandoffRequests, runHandoff, type HandoffDeps, type HandoffInput, type HandoffResult } from "./handoff/pipeline.ts";
export { DEFAULT_CONTEXT_WINDOW } from "./handoff/condense/budget.ts";
export { describeCondensed, type CondenseReport } from "./handoff/condense/report.ts";
export type { Recording } from "./handoff/outputs.ts";
export { estimateTokens } from "./session/tokens.ts";
export { appendSessionFacts, renderSessionFacts, type SessionFactsOptions } from "./handoff/facts-section.ts";
export { writeOfflineDocument, type OfflineInput } from "./handoff/offline.ts";
export { createRedactor, type Redactor } from "./handoff/redact.ts";
export { createWithholder, type Withhold } from "./handoff/withhold.ts";
