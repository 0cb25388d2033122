import type { CommandRun, SessionFacts } from "../../session/facts.ts";
import { relativeInText } from "../../session/paths.ts";
import type { Run } from "./note-types.ts";
import { answeredNo, commandKey, describeOutcome, withoutOutputFilter } from "../../session/runs.ts";
import { inlineCode } from "../notes/inline-code.ts";
import { relevance } from "./focus.ts";
import { describeMilestone, unsettledAttempts } from "./milestones.ts";
import { pasteHeadline, userProse } from "../notes/prose.ts";
import type { UserRequest } from "./user-requests.ts";
import { commandCode, describeFailure, describeRun, groupFailures, local, quote, type SectionInput } from "./render.ts";
import { isExploratory, type Uncommitted } from "./worktree.ts";
import { stalePlans } from "./plans.ts";
import { dedupeBy, newest } from "./select.ts";
import { capText, firstParagraph } from "../notes/text.ts";

export function renderDecisions({ notes, state }: SectionInput): string[] {
  const lines: string[] = [];
  for (const background of notes.background)
    for (const decision of background.decisions) lines.push(`- From ${background.source}: ${local(state, decision)}`);
  for (const choice of newest(notes.choices, 3).kept) lines.push(`- ${local(state, choice.text)}`);
  // What the user steered outweighs what the assistant decided alone: listed first.
  for (const steer of newest(notes.steered, 3).kept) lines.push(`- ${local(state, steer.text)}`);
  // Newest first in weight: the latest decisions are the ones the next session builds on.
  const { kept, omitted } = newest(
    dedupeBy(notes.decisions, (d) => d.text),
    5,
  );
  for (const decision of kept) lines.push(`- ${local(state, decision.text)}`);
  if (omitted > 0) lines.push(`- (${omitted} earlier not shown)`);
  return lines.length > 0 ? lines : ["- None recorded."];
}

/**
 * The checks whose latest run answered "no" (`test -f X` → X is not there, `grep` → nothing
 * found), the newest three: over the whole branch, as Session Facts counts runs, so an answer a
 * compaction summarised away is still stated with its exact command.
 */
function answersOf(commands: readonly CommandRun[], cwd: string | undefined): CommandRun[] {
  const latest = new Map<string, CommandRun>();
  for (const run of commands) {
    const key = commandKey(run.command, cwd);
    latest.delete(key);
    latest.set(key, run);
  }
  return [...latest.values()].filter(answeredNo).slice(-3);
}

/** A request in the user's words, without what they pasted (said in a note instead). */
function quoteRequest(request: UserRequest): string {
  const { prose, pastes } = userProse(request.text);
  const quoted = quote(prose === "" ? "(only pasted text)" : prose, 240);
  if (pastes.length === 0) return quoted;
  const headline = pasteHeadline(pastes, 100);
  const what = pastes.length === 1 ? "a paste" : `${pastes.length} pastes`;
  return `${quoted} (with ${what}: ${headline === undefined ? "output, not quoted" : inlineCode(headline)})`;
}

export function renderCriticalContext({ notes, state }: SectionInput, facts: SessionFacts): string[] {
  const lines: string[] = [];
  if (state.cwd) lines.push(`- Working directory: ${inlineCode(state.cwd)}; relative paths here are relative to it.`);
  const branches = [
    ...new Set([
      ...notes.background.map((b) => b.branch),
      ...notes.milestones.filter((m) => m.kind === "branch" && m.status === "done").map((m) => m.detail),
    ]),
  ];
  const named = branches.filter((b): b is string => b !== undefined && b !== "");
  if (named.length > 0) lines.push(`- Git branch: ${named.map((b) => inlineCode(b)).join(", then ")}`);
  const failed = facts.commands.filter((run) => run.failed).length;
  if (facts.commands.length > 0) {
    const still =
      state.stillFailing.length > 0 ? "; still failing at the end (the latest run of each command since the current request):" : "";
    lines.push(
      `- Commands: ${facts.commands.length} run, ${failed} failed (Session Facts lists them)${still}`,
      ...groupFailures(state.stillFailing).flatMap((group) => [
        `  - ${describeFailure(group, state.cwd)}`,
        ...errorSet(group.run, state.cwd),
      ]),
    );
  }
  for (const run of state.sideFailures)
    lines.push(`- An exploratory one-liner failed at the end (context, not the task): ${describeRun(run, state.cwd)}`);
  for (const plan of stalePlans(notes, state.cwd))
    lines.push(
      `- ${inlineCode(plan.path)} is out of date: the session wrote it as a checklist and later work contradicts it (${inlineCode(capText(plan.step, 120))}, yet ${inlineCode(plan.changed)} changed after it); trust the commits and results, not it.`,
    );
  const uncommitted = state.uncommitted;
  if (uncommitted !== undefined) lines.push(`- ${describeUncommitted(uncommitted, state.cwd)}`);
  const answers = answersOf(facts.commands, state.cwd);
  if (answers.length > 0)
    lines.push(
      `- What the checks answered "no" (findings, not failures): ${answers.map((run) => `${commandCode(run.command, state.cwd)} → ${describeOutcome(run, state.cwd)}`).join("; ")}`,
    );
  for (const background of notes.background)
    for (const item of background.critical) lines.push(`- From ${background.source}: ${local(state, item)}`);
  const asked = [...new Set([state.earlier[0], state.objective].filter((r) => r !== undefined))];
  if (asked.length > 0) lines.push(`- What the goal rests on, as the user asked it: ${asked.map(quoteRequest).join(" … ")}`);
  const unread = state.unreadRequests.filter((r) => !asked.includes(r)).slice(-3);
  if (unread.length > 0) lines.push(`- The user's other messages not in English, as written: ${unread.map(quoteRequest).join(" … ")}`);
  if (state.workingSet.length > 0) {
    lines.push(
      `- Files most recently worked on, newest last: ${state.workingSet.map((f) => `${inlineCode(f.path)}${f.change === undefined ? "" : ` (${f.change})`}`).join(", ")}`,
    );
  }
  if (state.userCommands.length > 0)
    lines.push(`- The user ran these themselves with \`!\`: ${state.userCommands.map((c) => commandCode(c, state.cwd)).join(", ")}`);
  for (const summary of notes.branchSummaries.slice(-2)) {
    lines.push(`- The user left another branch of this session; its summary begins: "${capText(firstParagraph(summary), 240)}"`);
  }
  return lines.length > 0 ? lines : ["- Nothing beyond the above."];
}

/** "Uncommitted: changed since the last commit (…): `a.ts`, `b.ts`; also the version bump (`npm version 2.4.0`)". */
function describeUncommitted(uncommitted: Uncommitted, cwd: string | undefined): string {
  const files = uncommitted.files.length > 0 ? `: ${uncommitted.files.map((f) => inlineCode(f)).join(", ")}` : "";
  const steps = uncommitted.steps.map((m) => `the ${describeMilestone({ ...m, detail: "" })} step (${commandCode(m.command, cwd)})`);
  const also = steps.length > 0 ? `${files === "" ? ": " : "; also "}${steps.join(", ")}` : "";
  const since =
    "kind" in uncommitted.since
      ? describeMilestone(uncommitted.since)
      : `${commandCode(uncommitted.since.command, cwd)}, before what the earlier compaction summarised`;
  return `Uncommitted: changed since the last commit (${since})${files}${also}`;
}

/** A failed run's distinct error lines, when it printed several: the set points at the cause. */
function errorSet(run: Run, cwd: string | undefined): string[] {
  const errors = run.errors ?? [];
  if (errors.length < 2) return [];
  return [
    `    - its ${errors.length} distinct error lines${errors.length === 10 ? " (the first 10)" : ""}:`,
    ...errors.map((line) => `      - ${inlineCode(capText(relativeInText(line, cwd), 200))}`),
  ];
}

/** The uncommitted files (or steps) in a few words. */
function uncommittedFiles(uncommitted: Uncommitted): string {
  const files = uncommitted.files.slice(-6).map((f) => inlineCode(f));
  const more = uncommitted.files.length > 6 ? ` and ${uncommitted.files.length - 6} more` : "";
  return files.length > 0 ? `${files.join(", ")}${more}` : "the version bump";
}

/**
 * The next actions, the true next one first: continue the interrupted work, fix what still
 * fails, get the answer the session waits for, do what is open. A finished request is never a
 * step; with `--focus`, steps about the focus come first and steps about what it says to leave
 * alone are dropped.
 */
export function renderNextSteps({ state, focus }: SectionInput): string[] {
  const steps: string[] = [];
  const turn = state.turn;
  const failures = groupFailures(state.stillFailing).reverse();
  const latest = failures[0];
  if (turn.kind === "working") {
    const about = state.current ? ` on: ${state.current.statement.replace(/[.!]$/, "")}` : "";
    // An exploratory one-liner at the end is context (Critical Context), not where the work stands.
    const lastRun = turn.steps
      .map((step) => step.run)
      .filter((run) => run !== undefined && !isExploratory(run))
      .at(-1);
    const where = latest
      ? ` The latest failure: ${describeFailure(latest, state.cwd)}; find its cause before running anything again.`
      : turn.steps.length === 0
        ? " Nothing was run for it yet."
        : lastRun !== undefined && lastRun.exitCode === 0 && !lastRun.failed
          ? ` Its last command passed (${commandCode(lastRun.command, state.cwd)}): confirm the result and report it to the user.`
          : " Check the result of its last tool call before repeating it.";
    const commit = state.uncommitted === undefined ? "" : ` Then commit it: ${uncommittedFiles(state.uncommitted)}.`;
    steps.push(`Continue the work${about}.${where}${commit}`);
  }
  if (turn.kind === "unread")
    steps.push(
      `Read the assistant's last reply (not in English) to see whether the work is finished: ${quote(local(state, turn.reply), 300)}`,
    );
  // The user decides first: a question the session ends on comes before any fix it is about.
  if (turn.kind === "question") steps.push(`Get the user's answer to the assistant's question: ${quote(local(state, turn.question), 450)}`);
  for (const group of failures)
    if (turn.kind !== "working" || group !== latest) steps.push(`Fix what still fails: ${describeFailure(group, state.cwd)}`);
  // A step of the arc that failed (the publish) is run again once its cause is fixed.
  const retry = unsettledAttempts(state.milestones, "failed").at(-1);
  if (retry)
    steps.push(
      `Then run the failed ${retry.kind === "bump" ? "version bump" : retry.kind} step again: ${commandCode(retry.command, state.cwd)}.`,
    );
  for (const attempt of unsettledAttempts(state.milestones, "unknown"))
    steps.push(
      `Check whether the ${attempt.kind === "bump" ? "version bump" : attempt.kind} step happened before going on (no result was recorded): ${commandCode(attempt.command, state.cwd)}.`,
    );
  // The main change comes before side issues: what the finished work left uncommitted is committed first.
  if ((turn.kind === "finished" || turn.kind === "acknowledged") && state.uncommitted !== undefined)
    steps.push(`Commit what changed since the last commit, once its checks pass: ${uncommittedFiles(state.uncommitted)}.`);
  if (turn.kind !== "question")
    for (const item of state.openItems) steps.push(`Finish what the last reply left open: ${quote(local(state, item))}`);
  for (const request of state.openRequests) {
    if (turn.kind === "unread") steps.push(`Finish the request, unless that reply says it is done: ${request.statement}`);
    else if (turn.kind !== "question" && turn.kind !== "working") steps.push(`Start on the open request: ${request.statement}`);
  }
  if (turn.kind === "approved")
    steps.push(`Do what the user approved (${quote(turn.request.text, 60)}): ${quote(turn.proposal ?? "the assistant's last proposal")}`);
  for (const offer of state.deferred) steps.push(`When the user is ready (they said "later"): ${quote(local(state, offer.text), 450)}`);
  if (state.staleCheck)
    steps.push(`Run ${commandCode(withoutOutputFilter(state.staleCheck.command), state.cwd)} again: files changed after its last run.`);
  if (steps.length === 0) {
    steps.push(
      state.objective
        ? "The recorded work is finished: ask the user what comes next."
        : "Ask the user what they want done: the session recorded no request.",
    );
    if (state.lastOffer !== undefined) steps.push(`If the user wants it, the assistant offered: ${quote(state.lastOffer)}`);
  }
  const terms = state.focus;
  if (!terms) return number(steps);
  const scored = steps.map((step, order) => ({ step, order, score: relevance(step, terms) }));
  const kept = scored.filter((s) => s.score >= 0).sort((a, b) => (b.score > 0 ? 1 : 0) - (a.score > 0 ? 1 : 0) || a.order - b.order);
  if (!kept.some((s) => s.score > 0))
    kept.unshift({ step: `Start on the focus given for this handoff: "${capText(focus ?? "", 300)}"`, order: -1, score: 1 });
  return number(kept.map((s) => s.step));
}

function number(steps: readonly string[]): string[] {
  return [...new Set(steps)].slice(0, 6).map((step, i) => `${i + 1}. ${step}`);
}
