import { inlineCode } from "../facts-section.ts";
import { newest, dedupeBy, spread } from "./select.ts";
import { commandCode, describeCheckResult, describeError, type SectionInput } from "./render.ts";
import { capText, firstParagraph, relativeToCwd, withoutOutputFilter } from "./text.ts";

export function renderDecisions({ notes }: SectionInput): string[] {
  const lines: string[] = [];
  for (const background of notes.background) for (const decision of background.decisions) lines.push(`- From ${background.source}: ${decision}`);
  const { kept, omitted } = spread(dedupeBy(notes.decisions, (d) => d.text), 6);
  for (const decision of kept) lines.push(`- ${decision.text}`);
  if (omitted > 0) lines.push(`- (${omitted} more not shown)`);
  return lines.length > 0 ? lines : ["- None recorded."];
}

export function renderCriticalContext({ notes, state }: SectionInput): string[] {
  const lines: string[] = [];
  if (state.cwd) lines.push(`- Working directory: ${inlineCode(state.cwd)}; relative paths here are relative to it.`);
  const errors = newest(notes.errors, 4);
  if (errors.kept.length > 0) {
    const earlier = errors.omitted > 0 ? `, ${errors.omitted} earlier not shown` : "";
    lines.push(`- Errors seen (${notes.errors.length}${earlier}; newest last):`, ...errors.kept.map((e) => `  - ${describeError(e, state.cwd)}${state.passedLater.has(e) ? " (a later run passed)" : ""}`));
  }
  if (state.workingSet.length > 0) {
    const files = state.workingSet.map((f) => `${inlineCode(relativeToCwd(f.path, state.cwd))}${f.modified ? " (modified)" : ""}`);
    lines.push(`- Files most recently worked on, newest last: ${files.join(", ")}`);
  }
  if (state.userCommands.length > 0) {
    lines.push(`- The user ran these themselves with \`!\`: ${state.userCommands.map((c) => commandCode(c, state.cwd)).join(", ")}`);
  }
  for (const summary of notes.branchSummaries.slice(-2)) {
    lines.push(`- The user left another branch of this session; its summary begins: "${capText(firstParagraph(summary), 240)}"`);
  }
  return lines.length > 0 ? lines : ["- Nothing beyond the above."];
}

export function renderNextSteps({ notes, state, focus }: SectionInput): string[] {
  const steps: string[] = [];
  if (focus !== undefined && focus.trim() !== "") steps.push(`Follow the focus given for this handoff: "${capText(focus, 400)}"`);
  const turn = state.turn;
  if (turn.kind === "working") {
    const what = turn.text !== "" ? `"${capText(turn.text, 240)}"` : `the last tool call was ${commandCode(turn.actions.at(-1) ?? "", state.cwd)}`;
    steps.push(`Pick up where the last turn stopped (${what}); check its effect before repeating it.`);
  }
  if (turn.kind === "question") steps.push(`Get the user's answer to: "${capText(turn.question, 240)}"`);
  if (state.unresolvedFailure) steps.push(`Fix the failure that was not resolved: ${describeError(state.unresolvedFailure, state.cwd)}`);
  const request = state.openRequests.at(-1);
  if (request) steps.push(`Carry out the latest open request: "${capText(request.text, 300)}"`);
  const check = state.checks.at(-1);
  if (check) {
    const command = commandCode(withoutOutputFilter(check.command), state.cwd);
    steps.push(`Run ${command} to confirm the state of the tree (last time: ${describeCheckResult(check)}).`);
  }
  if (steps.length === 0 || (!request && turn.kind !== "working" && !state.unresolvedFailure)) {
    steps.push(notes.requests.length > 0 ? "The recorded work looks finished: ask the user what comes next." : "Ask the user what they want done: the session recorded no request.");
  }
  return steps.map((step, i) => `${i + 1}. ${step}`);
}
