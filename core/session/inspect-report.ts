import { countOf, formatCount } from "../format.ts";
import type { BranchAnalysis } from "./analyze.ts";
import type { CommandRun } from "./facts.ts";
import type { AgentName } from "./formats/types.ts";
import type { Session } from "./types.ts";
import { KNOWN_LAYOUT_VERSIONS } from "./formats/version.ts";

/** What `agent inspect --json` prints. Field names are a public contract. */
export interface InspectReport {
  file: string;
  format: AgentName;
  /** The file's own layout version (pi and omp: `version`, `null` for version 1; other agents: `null`). */
  version: number | null;
  /** The version of the agent that wrote the file, when the file says (Claude Code, Codex). */
  agentVersion: string | null;
  sessionId: string;
  cwd: string | null;
  title: string | null;
  parentSession: string | null;
  entries: number;
  malformedLines: number[];
  leafId: string | null;
  branchEntries: number;
  branchMessages: number;
  contextMessages: number;
  /** Each context message in order: `assistant`, `toolResult`, or the user side's kind (`user`, `compactionSummary`, `bashExecution`, …). */
  contextRoles: string[];
  estimatedTokens: number;
  filesRead: string[];
  filesModified: string[];
  filesDeleted: string[];
  commands: CommandRun[];
  models: string[];
  lastUserRequest: string | null;
  warnings: string[];
}

export function buildInspectReport(file: string, session: Session, analysis: BranchAnalysis, warnings: string[]): InspectReport {
  return {
    file,
    format: session.format,
    version: session.versionFound ?? null,
    agentVersion: session.header.agentVersion ?? null,
    sessionId: session.header.id,
    cwd: session.header.cwd ?? null,
    title: session.title ?? session.titleSlot?.title ?? null,
    parentSession: session.header.parentSession ?? null,
    entries: session.entries.length,
    malformedLines: session.malformedLines,
    leafId: analysis.branch.leafId ?? null,
    branchEntries: analysis.branch.entries.length,
    branchMessages: analysis.branchMessages,
    contextMessages: analysis.context.length,
    contextRoles: analysis.context.map((m) => (m.role === "user" ? m.kind : m.role)),
    estimatedTokens: analysis.estimatedTokens,
    filesRead: analysis.facts.filesRead,
    filesModified: analysis.facts.filesModified,
    filesDeleted: analysis.facts.filesDeleted,
    commands: analysis.facts.commands,
    models: analysis.facts.models,
    lastUserRequest: analysis.facts.lastUserRequest ?? null,
    warnings,
  };
}

/**
 * How the summary shows a value from the session (or its path): one field on one line whatever
 * it holds, and nothing withheld left in it, cut to `max` characters when given. The CLI's, as
 * only it knows what is withheld; a cut made here, before that, would print a key's start.
 */
export type ShowField = (text: string, max?: number) => string;

/**
 * The short human summary `agent inspect` prints without `--json`. `readAs` is the layout
 * version the file was read as (`Session.version`), which the report itself does not hold.
 * Every value that comes from the file goes through `show`.
 */
export function renderInspectReport(report: InspectReport, readAs: number, show: ShowField): string {
  // The one definition of a failed run (runs.ts), shared with Session Facts and the offline document.
  const failed = report.commands.filter((c) => c.failed).length;
  const skipped = report.malformedLines.length;
  const rows: [string, string][] = [
    ["file", show(report.file)],
    ["format", show(describeFormat(report, readAs))],
    ["session", show(report.sessionId)],
    ["cwd", report.cwd === null ? "(not recorded)" : show(report.cwd)],
  ];
  if (report.title) rows.push(["title", show(report.title)]);
  rows.push(
    ["entries", `${formatCount(report.entries)}${skipped ? ` (${countOf(skipped, "unusable line")} skipped)` : ""}`],
    ["leaf", report.leafId === null ? "(no entries)" : show(report.leafId)],
    ["branch", `${countOf(report.branchEntries, "entry", "entries")}, ${countOf(report.branchMessages, "message")}`],
    ["context", `${countOf(report.contextMessages, "message")}, ~${countOf(report.estimatedTokens, "token")}`],
    ["models", report.models.map((model) => show(model)).join(", ") || "(none recorded)"],
    [
      "files",
      `${report.filesRead.length} read, ${report.filesModified.length} modified${report.filesDeleted.length > 0 ? `, ${report.filesDeleted.length} deleted` : ""}`,
    ],
    ["commands", `${report.commands.length} run${failed ? `, ${failed} failed` : ""}`],
  );
  // The user's words on one line: their line breaks are spacing, not data.
  if (report.lastUserRequest) rows.push(["last ask", show(report.lastUserRequest.replace(/\s+/g, " ").trim(), 100)]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}

/**
 * `pi, version 1 (read as version 3)` for a file with a layout version of its own (one that
 * says so, or an old one read as the current), else the name and the agent's version:
 * `claude-code, agent version 2.1.328`.
 */
function describeFormat(report: InspectReport, readAs: number): string {
  if (report.version !== null || readAs < 3) {
    const version = report.version ?? 1;
    // An unknown version says which layout it was read as, as the warning does.
    if (!KNOWN_LAYOUT_VERSIONS.includes(version)) return `${report.format}, version ${version} (unknown: read as version ${readAs})`;
    return `${report.format}, version ${version}${version === 3 ? "" : " (read as version 3)"}`;
  }
  return report.agentVersion === null ? report.format : `${report.format}, agent version ${report.agentVersion}`;
}
