import { describeOutcome } from "../../session/runs.ts";
import { inlineCode, shortCommand } from "../facts-section.ts";
import type { CommandRun } from "../../session/facts.ts";
import type { Background } from "./background.ts";
import type { ErrorSeen, OfflineNotes, Said } from "./extract.ts";
import { dedupeBy, newest, spread } from "./select.ts";
import type { WorkState } from "./state.ts";
import { capText, commandInCwd, relativeToCwd } from "./text.ts";

/** What one section is written from. */
export interface SectionInput {
  notes: OfflineNotes;
  state: WorkState;
  focus: string | undefined;
}

function quote(text: string, max = 300): string {
  return `"${capText(text, max)}"`;
}

function from(background: Background): string {
  return `From ${background.source}:`;
}

function path(state: WorkState, value: string): string {
  return inlineCode(relativeToCwd(value, state.cwd));
}

function omittedLine(omitted: number, what: string): string[] {
  return omitted > 0 ? [`- (${omitted} ${what} not shown)`] : [];
}

function orNone(lines: string[], none: string): string[] {
  return lines.length > 0 ? lines : [`- ${none}`];
}

/** A command as inline code, one line, without a `cd` into the working directory. */
export function commandCode(command: string, cwd: string | undefined): string {
  return inlineCode(shortCommand(commandInCwd(command, cwd), 110));
}

/** A check's result; a pipe's status is its last command's, so say so. */
export function describeCheckResult(run: CommandRun): string {
  return `${describeOutcome(run)}${/\|\s/.test(run.command) ? ", the status of the pipe's last command" : ""}`;
}

export function describeError(error: ErrorSeen, cwd: string | undefined): string {
  const what = error.command !== undefined ? commandCode(error.command, cwd) : inlineCode(cwd ? error.what.split(`${cwd}/`).join("") : error.what);
  const how = error.command !== undefined && error.exitCode !== null ? `exit ${error.exitCode}` : "failed";
  return error.line === undefined ? `${what} → ${how}` : `${what} → ${how}: ${inlineCode(capText(error.line, 200))}`;
}

export function renderGoal({ notes, state, focus }: SectionInput): string[] {
  const lines: string[] = [];
  if (focus !== undefined && focus.trim() !== "") lines.push(`- Focus for this handoff: ${quote(focus, 400)}`);
  for (const background of notes.background) if (background.goal) lines.push(`- ${from(background)} ${background.goal}`);
  const first = state.substantialRequests[0] ?? notes.requests[0];
  const latest = state.substantialRequests.at(-1);
  if (first) lines.push(`- The user first asked: ${quote(first.text)}`);
  if (latest && latest !== first) lines.push(`- The latest substantial request: ${quote(latest.text)}`);
  return orNone(lines, "No request was recorded on this branch.");
}

export function renderConstraints({ notes }: SectionInput): string[] {
  const lines: string[] = [];
  for (const background of notes.background) for (const rule of background.constraints) lines.push(`- ${from(background)} ${rule}`);
  const { kept, omitted } = spread(dedupeBy(notes.constraints, (c) => c.text), 7);
  for (const rule of kept) lines.push(`- The user: ${quote(rule.text, 220)}`);
  lines.push(...omittedLine(omitted, "more user statements"));
  return orNone(lines, "None stated.");
}

function renderDone({ notes, state }: SectionInput): string[] {
  const lines: string[] = [];
  for (const background of notes.background) {
    if (background.done.length === 0) continue;
    lines.push(`- ${from(background)}`, ...background.done.map((item) => `  - ${item}`));
  }
  const files = newest(state.modifiedFiles, 10);
  if (files.kept.length > 0) {
    const earlier = files.omitted > 0 ? ` (${files.omitted} earlier not shown)` : "";
    lines.push(`- Files modified, most recent last${earlier}: ${files.kept.map((f) => path(state, f)).join(", ")}`);
  }
  const runs = newest(state.recentRuns, 8);
  if (runs.kept.length > 0) {
    const earlier = runs.omitted > 0 ? ` (${runs.omitted} earlier not shown)` : "";
    lines.push(`- Commands run for the open requests, newest last${earlier}:`, ...runs.kept.map((run) => `  - ${commandCode(run.command, state.cwd)} (${describeCheckResult(run)})`));
  }
  const checks = state.checks.filter((check) => !runs.kept.some((run) => run.command === check.command));
  if (checks.length > 0) {
    lines.push(`- Latest result of each check: ${checks.map((run) => `${commandCode(run.command, state.cwd)} (${describeCheckResult(run)})`).join("; ")}`);
  }
  const reports = newest(notes.completions, 4);
  for (const report of reports.kept) lines.push(`- The assistant reported: ${report.text}`);
  lines.push(...omittedLine(reports.omitted, "earlier reports of finished work"));
  return orNone(lines, "Nothing recorded as done.");
}

function renderInProgress({ state }: SectionInput): string[] {
  const turn = state.turn;
  switch (turn.kind) {
    case "working": {
      const lines: string[] = [];
      if (turn.text !== "") lines.push(`- The assistant's last words: ${quote(turn.text, 400)}`);
      const actions = newest(turn.actions, 2);
      if (actions.kept.length > 0) {
        const earlier = actions.omitted > 0 ? ` (after ${actions.omitted} earlier)` : "";
        lines.push(`- Its last tool calls${earlier}: ${actions.kept.map((a) => commandCode(a, state.cwd)).join(", ")}`);
      }
      return orNone(lines, "The assistant was working on the latest request.");
    }
    case "question":
      return [`- Waiting for the user to answer the assistant's question: ${quote(turn.question)}`];
    case "unanswered":
      return ["- Nothing had started: the latest request (under Pending) got no answer yet."];
    case "acknowledged":
      return [`- Nothing: the user's last message only acknowledged the previous answer (${quote(turn.request.text, 40)}).`];
    case "replied":
      return [`- Nothing: the assistant's last turn was a finished reply: ${quote(turn.text, 200)}`];
    case "completed":
      return ["- Nothing: the assistant's last turn reported the work finished."];
    case "none":
      return ["- Nothing recorded."];
  }
}

function renderPending({ state }: SectionInput): string[] {
  const open = newest(state.openRequests, 4);
  const lines = open.kept.map((request: Said) => `- Open request: ${quote(request.text)}`);
  lines.push(...omittedLine(open.omitted, "earlier open requests"));
  return orNone(lines, "No open requests: everything asked was reported done.");
}

export function renderProgress(input: SectionInput): string[] {
  return ["### Done", ...renderDone(input), "", "### In Progress", ...renderInProgress(input), "", "### Pending", ...renderPending(input)];
}
