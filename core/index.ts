/** The public surface of core: everything cli/ may import. */
export { AgentError, isAgentError, type ErrorCode } from "./errors.ts";
export { parseSession } from "./session/parse.ts";
export type { Entry, LineProblem, Session, SessionFormat, SessionHeader, TitleSlot } from "./session/types.ts";
export type { ContextMessage } from "./session/messages.ts";
export { analyzeBranch, describeSessionProblems, type AnalyzeOptions, type BranchAnalysis } from "./session/analyze.ts";
export { buildInspectReport, renderInspectReport, type InspectReport } from "./session/report.ts";
export type { ResolveBlob } from "./session/convert.ts";
export type { SessionFacts, CommandRun } from "./session/facts.ts";
