import { relativeInText } from "../../session/paths.ts";
import { describeOutcome, displayCommand } from "../../session/runs.ts";
import { inlineCode, shortCommand } from "../notes/inline-code.ts";
import type { Background } from "./earlier-summaries.ts";
import type { OfflineNotes, Run, Step } from "./note-types.ts";
import { describeMilestone, type Milestone, unsettledAttempts } from "./milestones.ts";
import { dedupeBy, newest, newestWithin, spread } from "./select.ts";
import type { Report } from "./reported-work.ts";
import type { WorkState } from "./state.ts";
import { capText, countWords } from "../notes/text.ts";

/** What one section is written from. */
export interface SectionInput {
  notes: OfflineNotes;
  state: WorkState;
  focus: string | undefined;
}

/** Assistant and summary text in the document's one path form (paths inside the cwd relative to it). */
export function local(state: WorkState, text: string): string {
  return relativeInText(text, state.cwd);
}

export function quote(text: string, max = 300): string {
  return `"${capText(text, max)}"`;
}

function from(background: Background): string {
  return `From ${background.source}:`;
}

function omittedLine(omitted: number, what: string): string[] {
  return omitted > 0 ? [`- (${omitted} ${what} not shown)`] : [];
}

function orNone(lines: string[], none: string): string[] {
  return lines.length > 0 ? lines : [`- ${none}`];
}

/** A command as inline code, one line, in the document's one vocabulary (no `cd` into the cwd, relative paths). */
export function commandCode(command: string, cwd: string | undefined): string {
  return inlineCode(shortCommand(displayCommand(command, cwd), 110));
}

/** "the push step (`git push origin main`) has no result recorded (interrupted, or still running)". */
export function noResultLine(attempt: Milestone, cwd: string | undefined): string {
  return `the ${describeMilestone({ ...attempt, detail: "" })} step (${commandCode(attempt.command, cwd)}) has no result recorded (interrupted, or still running)`;
}

/** `cmd` → exit 1: `first error line`, with the one wording of outcomes (runs.ts). */
export function describeRun(run: Run, cwd: string | undefined): string {
  const outcome = run.exitCode === 0 && !run.failed ? "exit 0" : describeOutcome(run, cwd);
  const excerpt = run.failed && run.excerpt !== undefined ? `: ${inlineCode(capText(displayCommand(run.excerpt, cwd), 200))}` : "";
  return `${commandCode(run.command, cwd)} → ${outcome}${excerpt}`;
}

/** Failures with the same error line are one problem: the newest run, and the other commands that showed it. */
export function groupFailures(runs: readonly Run[]): { run: Run; also: Run[] }[] {
  const groups = new Map<string, { run: Run; also: Run[] }>();
  for (const run of runs) {
    const key = run.excerpt ?? run.command;
    const group = groups.get(key);
    if (group) groups.set(key, { run, also: [...group.also, group.run] });
    else groups.set(key, { run, also: [] });
  }
  return [...groups.values()].sort((a, b) => a.run.at - b.run.at);
}

/** A failure and the other commands that failed the same way. */
export function describeFailure(group: { run: Run; also: readonly Run[] }, cwd: string | undefined): string {
  const also = group.also.length > 0 ? ` (the same error in ${group.also.map((run) => commandCode(run.command, cwd)).join(", ")})` : "";
  return `${describeRun(group.run, cwd)}${also}`;
}

function describeStep(step: Step, cwd: string | undefined): string {
  if (step.run) return describeRun(step.run, cwd);
  const change = step.change === undefined ? "" : ` (${inlineCode(step.change.from)} → ${inlineCode(step.change.to)})`;
  const label = `${commandCode(step.label, cwd)}${change}`;
  return step.error === undefined ? label : `${label} → failed: ${inlineCode(capText(displayCommand(step.error, cwd), 160))}`;
}

export function renderConstraints({ notes, state }: SectionInput): string[] {
  const lines: string[] = [];
  for (const background of notes.background)
    for (const rule of background.constraints) lines.push(`- ${from(background)} ${local(state, rule)}`);
  const { kept, omitted } = spread(
    dedupeBy(notes.constraints, (c) => c.text),
    7,
  );
  for (const rule of kept) lines.push(`- The user: ${quote(rule.text, 220)}`);
  lines.push(...omittedLine(omitted, "more rules the user stated"));
  for (const { rule, by } of notes.withdrawnRules.slice(-3))
    lines.push(`- Withdrawn by the user later, no longer a rule: ${quote(rule.text, 160)} (they said: ${quote(by.text, 160)})`);
  for (const task of notes.taskRules.slice(-3))
    lines.push(
      `- From ${inlineCode(local(state, task.source))} (a task text the session printed): ${task.rules.map((r) => quote(local(state, r), 200)).join("; ")}`,
    );
  for (const spec of notes.specifications) {
    lines.push(
      `- The user's message also holds a specification of ${spec.count} requirements, from ${quote(spec.first, 90)} to ${quote(spec.last, 90)}: part of the task, not quoted here; the source session has them all.`,
    );
  }
  // Rules in a language these patterns read only in part may be missed: say so, and where the words are.
  const unread = state.unreadRequests.length;
  if (unread > 0) {
    const which = unread === 1 ? "One of the user's messages is" : `${unread} of the user's messages are`;
    lines.push(
      `- ${which} not in English: rules are read there only by "never/always/must" words of a few languages, so others may be missed; the messages are quoted under Critical Context.`,
    );
  }
  return orNone(lines, "None stated.");
}

/** Milestones that succeeded, in order; a failed attempt before a success is mentioned with it. */
function milestoneLine(milestones: readonly Milestone[]): string | undefined {
  const done = milestones.filter((m) => m.status === "done");
  if (done.length === 0) return undefined;
  const commits = done.filter((m) => m.kind === "commit");
  const shown = commits.length > 4 ? done.filter((m) => m.kind !== "commit" || m === commits.at(-1)) : done;
  const parts = shown.map((m) => {
    const failedBefore = milestones.find((f) => f.status === "failed" && f.kind === m.kind && f.at < m.at);
    const retry = failedBefore?.excerpt !== undefined ? ` (a first attempt failed: ${inlineCode(capText(failedBefore.excerpt, 80))})` : "";
    const many = m.kind === "commit" && commits.length > 4 ? ` (the newest of ${commits.length} commits)` : "";
    return `${describeMilestone(m)}${many}${retry}`;
  });
  return `- From the command results, in order: ${parts.join("; ")}`;
}

function renderDone({ notes, state }: SectionInput): string[] {
  const lines: string[] = [];
  for (const background of notes.background) {
    if (background.done.length === 0) continue;
    lines.push(`- ${from(background)}`, ...background.done.map((item) => `  - ${local(state, item)}`));
  }
  const reports = newestWithin(state.reports, (r) => countWords(r.text), { min: 5, max: 12, words: 140 });
  if (reports.kept.length > 0) {
    const earlier = reports.omitted > 0 ? ` (${reports.omitted} earlier not shown)` : "";
    const report = (r: Report) =>
      `  - ${local(state, r.text)}${r.contradictedBy === undefined ? "" : ` (but ${commandCode(r.contradictedBy.command, state.cwd)} had failed: see Pending)`}`;
    lines.push(`- The assistant reported, oldest first${earlier}:`, ...reports.kept.map(report));
  }
  const milestones = milestoneLine(notes.milestones);
  if (milestones !== undefined) lines.push(milestones);
  const files = newest(state.modifiedFiles, 10);
  if (files.kept.length > 0) {
    const earlier = files.omitted > 0 ? ` (${files.omitted} earlier not shown)` : "";
    lines.push(`- Files modified, most recent last${earlier}: ${files.kept.map((f) => inlineCode(f)).join(", ")}`);
  }
  const deleted = newest(state.deletedFiles, 10);
  if (deleted.kept.length > 0)
    lines.push(
      `- Files deleted${deleted.omitted > 0 ? ` (${deleted.omitted} more not shown)` : ""}: ${deleted.kept.map((f) => inlineCode(f)).join(", ")}`,
    );
  for (const { run, by } of state.fixed) {
    const later = by.failed
      ? `${commandCode(by.command, state.cwd)} later got past it and ran its tests`
      : `${commandCode(by.command, state.cwd)} later passed`;
    lines.push(`- Fixed since it failed: ${describeRun(run, state.cwd)}; ${later}`);
  }
  if (state.checks.length > 0) {
    lines.push(
      `- Latest result of each check: ${state.checks.map((run) => `${commandCode(run.command, state.cwd)} (${describeOutcome(run, state.cwd)})`).join("; ")}`,
    );
  }
  return orNone(lines, "Nothing recorded as done.");
}

function renderInProgress({ state }: SectionInput): string[] {
  const turn = state.turn;
  switch (turn.kind) {
    case "working": {
      const lines: string[] = [];
      if (state.current) lines.push(`- Working on: ${state.current.statement}`);
      if (turn.words !== undefined) lines.push(`- The assistant's last words: ${quote(local(state, turn.words), 400)}`);
      if (turn.steps.length > 0)
        lines.push(`- Its last tool calls and their results:`, ...turn.steps.map((step) => `  - ${describeStep(step, state.cwd)}`));
      return orNone(lines, "The assistant was working on the latest request.");
    }
    case "question":
      return [`- Waiting for the user to answer the assistant: ${quote(local(state, turn.question), 450)}`];
    case "unread":
      return [
        `- Not known: the assistant's last reply is not in English, which these rules do not read, so nothing in it is taken as done: ${quote(local(state, turn.reply), 400)}`,
      ];
    case "unanswered":
      return ["- Nothing had started: the latest request (under Pending) got no answer yet."];
    case "approved":
      return ["- Nothing had started: the user approved the assistant's proposal (under Pending), and the session ended there."];
    case "acknowledged":
    case "finished":
      // A reply that ends the turn proves nothing about a step whose result never came.
      return unsettledAttempts(state.milestones, "unknown").length > 0
        ? ["- Nothing under way: the assistant's last reply ended its turn, but a step has no result recorded (see Pending)."]
        : ["- Nothing: the assistant's last reply finished the work asked for."];
    case "none":
      return ["- Nothing recorded."];
  }
}

function renderPending({ state }: SectionInput): string[] {
  const lines: string[] = [];
  for (const item of state.openItems) lines.push(`- The assistant's last reply says: ${quote(local(state, item))}`);
  const open = state.openRequests.map((r) => {
    const reply = state.turn.kind === "unread" ? undefined : state.unreadReplies.get(r.at);
    return reply === undefined
      ? r.statement
      : `${r.statement} (the reply to it is not in English, so not read as done: ${quote(local(state, reply), 200)})`;
  });
  if (state.turn.kind === "question") lines.push(...open.map((s) => `- Open until the user answers (see In Progress): ${s}`));
  else lines.push(...open.map((s) => `- Open request: ${s}`));
  if (state.turn.kind === "approved") {
    const proposal = state.turn.proposal === undefined ? "" : ` ${quote(state.turn.proposal)}`;
    lines.push(`- Approved by the user (${quote(state.turn.request.text, 60)}), not started: the assistant's proposal${proposal}`);
  }
  for (const item of state.summaryPending)
    lines.push(`- Open in the earlier compaction summary, not reported done since: ${local(state, item)}`);
  for (const offer of state.deferred) lines.push(`- Put off by the user ("later"): ${quote(local(state, offer.text), 450)}`);
  for (const attempt of unsettledAttempts(state.milestones, "unknown"))
    lines.push(`- Not known to be done: ${noResultLine(attempt, state.cwd)}.`);
  if (state.turn.kind === "finished" || state.turn.kind === "acknowledged") {
    for (const group of groupFailures(state.stillFailing))
      lines.push(`- Still failing, though the work was reported done: ${describeFailure(group, state.cwd)}`);
  }
  if (lines.length > 0) return lines;
  if (state.turn.kind === "working") return ["- Nothing else: the latest request is still in progress (see In Progress)."];
  if (state.turn.kind === "question") return ["- Nothing else: the session waits for the user's answer (see In Progress)."];
  return ["- No open requests: everything asked was reported done."];
}

export function renderProgress(input: SectionInput): string[] {
  return ["### Done", ...renderDone(input), "", "### In Progress", ...renderInProgress(input), "", "### Pending", ...renderPending(input)];
}
