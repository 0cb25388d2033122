/**
 * The Goal section: the objective stated plainly, not a quote of one message. It comes from
 * the user's requests over the branch (and an earlier summary's goal), weighted to the newest
 * work, never from pastes, acknowledgements or questions about the tool; where a release or
 * another arc of commands is under way, it says how far it got.
 */
import { displayCommand } from "../../session/runs.ts";
import { inlineCode } from "../notes/inline-code.ts";
import { arcOf, describeMilestone, unsettledAttempts } from "./milestones.ts";
import { local, noResultLine, type SectionInput } from "./render.ts";
import type { WorkState } from "./state.ts";
import { newestWithin } from "./select.ts";
import { capText, countWords } from "../notes/text.ts";

function failureLine(state: WorkState): string | undefined {
  // A failed step of the arc (the publish) names the failure better than a later diagnostic run.
  const failedStep = unsettledAttempts(state.milestones, "failed").at(-1);
  const failed =
    state.stillFailing.find((run) => run.command === failedStep?.command && run.at === failedStep.at) ?? state.stillFailing.at(-1);
  if (!failed) return undefined;
  const attempt = state.milestones.find((m) => m.status === "failed" && m.command === failed.command);
  const what = attempt
    ? `the ${describeMilestone({ ...attempt, detail: "" })} step (${inlineCode(displayCommand(failed.command, state.cwd))})`
    : inlineCode(displayCommand(failed.command, state.cwd));
  const why = failed.excerpt === undefined ? "" : `: ${inlineCode(capText(local(state, failed.excerpt), 160))}`;
  return `${what} failed${why}`;
}

/** "version bump to v0.8.0, commit 45ffe0a …, tag v0.8.0 and push main, v0.8.0 done; the publish step failed: …". */
function whereItStands(state: WorkState): string | undefined {
  const done = state.milestones.filter((m) => m.status === "done" && m.kind !== "branch");
  const parts: string[] = [];
  if (done.length > 0) {
    const commits = done.filter((m) => m.kind === "commit");
    const shown =
      commits.length > 3 ? [...done.filter((m) => m.kind !== "commit"), ...commits.slice(-1)].sort((a, b) => a.at - b.at) : done;
    const extra = commits.length > 3 ? ` (${commits.length} commits in all)` : "";
    parts.push(`${shown.map(describeMilestone).join(", ")}${extra} done`);
  }
  for (const attempt of unsettledAttempts(state.milestones, "unknown"))
    parts.push(`${noResultLine(attempt, state.cwd)}, so it is not known to have happened`);
  const failure = failureLine(state);
  if (failure) parts.push(failure);
  if (state.turn.kind === "working" && failure) parts.push("the assistant was diagnosing that failure when the session ended");
  else if (state.turn.kind === "working" && parts.length > 0) parts.push("the assistant was still at work when the session ended");
  return parts.length > 0 ? parts.join("; ") : undefined;
}

export function renderGoal({ notes, state, focus }: SectionInput): string[] {
  const lines: string[] = [];
  const background = notes.background.find((b) => b.goal !== undefined);
  const objective = state.objective;
  const arc = arcOf(state.milestones);
  // A release names its steps: bump, commit, tag, push, publish.
  const release = state.milestones.some((m) => m.kind === "publish" || m.kind === "tag" || m.kind === "bump");
  const steps = release && arc.length >= 2 ? ` (steps: ${arc.join(", ")})` : "";
  if (background?.goal !== undefined) {
    lines.push(`${local(state, background.goal).replace(/[.!]$/, "")} (from ${background.source}).`);
    const latest = state.latest ?? objective;
    if (latest) lines.push(`- Latest request: ${steps === "" ? latest.statement : `${latest.statement.replace(/[.!]$/, "")}${steps}.`}`);
  } else if (objective) {
    lines.push(steps === "" ? objective.statement : `${objective.statement.replace(/[.!]$/, "")}${steps}.`);
  }
  // Many short asks are all named (a series of small changes is the work); a few long ones are not cut.
  // With a summary's goal first, the newest request is named as such, not again among the ones since.
  const named = background?.goal !== undefined ? state.latest?.statement : undefined;
  const followups = state.followups.filter((r) => r.statement !== named);
  const since = newestWithin(followups, (r) => countWords(r.statement), { min: 2, max: 8, words: 70 });
  const before = since.omitted > 0 ? ` (${since.omitted} more before these)` : "";
  if (since.kept.length > 0)
    lines.push(`- Since then, the user asked${before}: ${since.kept.map((r) => capText(r.statement, 160)).join(" … ")}`);
  const stands = whereItStands(state);
  if (stands !== undefined) lines.push(`- Where it stands: ${stands}${stands.endsWith("`") ? "" : "."}`);
  const first = state.earlier[0];
  const replaced = objective?.revises === true ? state.earlier.at(-1) : undefined;
  if (replaced) lines.push(`- The user dropped the plan of the request before it: ${capText(replaced.statement, 200)}`);
  if (first && first !== replaced) {
    const others = state.earlier.length > 1 ? ` (then ${state.earlier.length - 1} more requests before the current one)` : "";
    lines.push(`- The session began with: ${capText(first.statement, 200)}${others}`);
  }
  if (focus !== undefined && focus.trim() !== "")
    lines.splice(lines[0]?.startsWith("- ") === false ? 1 : 0, 0, `- Focus for this handoff: "${capText(focus, 400)}"`);
  return lines.length > 0 ? lines : ["- No request was recorded on this branch."];
}
