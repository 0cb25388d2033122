import { looksLikeHandoffInstruction } from "../../session/facts.ts";
import { HANDOFF_OPEN } from "../../session/formats/handoff-text.ts";
import { messageText, type AssistantContextMessage, type ContextMessage } from "../../session/messages.ts";
import { testsRan } from "../../session/settled-failures.ts";
import { ToolCalls, type Settlement } from "../../session/tool-calls.ts";
import { pathArgument, replacementArgument, type ToolAction } from "../../session/tools.ts";
import { unwrapSummary } from "../../session/wrappers.ts";
import { readBackground } from "./earlier-summaries.ts";
import { isCourtesyOnly } from "./closings.ts";
import { readMilestones } from "./milestones.ts";
import type { Offer, OfflineNotes, Run, Step } from "./note-types.ts";
import { noteChoices, noteConstraints, noteReply } from "./replies.ts";
import { noteSteering } from "./steering.ts";
import { isPlan, writtenContents } from "./plans.ts";
import { isTaskText, pathsNamed, taskRules } from "./task-spec.ts";
import { classifyRequest } from "./user-requests.ts";
import { isUserRequest, withdrawalsIn } from "../notes/constraints.ts";
import { standingRules } from "../notes/withdrawn.ts";
import { capText, errorExcerpt, errorLines, firstErrorLine, splitSentences } from "../notes/text.ts";
import { classifyEnding, isDecision } from "./patterns.ts";

/** A call as the notes keep it until its result comes. */
interface PendingStep {
  step: Step;
  action: ToolAction;
}

function label(name: string, args: unknown, action: ToolAction): string {
  if (action.kind === "shell") return action.command;
  const path = pathArgument(args);
  // A write that names no path is a patch (its files are inside it), also one Codex applied from a shell call.
  if (path === undefined && action.kind === "write") return "apply_patch";
  return path === undefined ? name : `${name} ${path}`;
}

function noteAssistant(notes: OfflineNotes, message: AssistantContextMessage, at: number, calls: ToolCalls<PendingStep>): void {
  const exchange = notes.exchanges.at(-1);
  const texts: string[] = [];
  for (const block of message.content) {
    if (block.type === "toolCall") {
      const pending: PendingStep = {
        step: { label: block.name, run: undefined, error: undefined, edit: false, change: undefined, at },
        action: { kind: "other" },
      };
      const action = calls.call(block.id, block.name, block.arguments, pending);
      const edit = action.kind === "write";
      Object.assign(pending.step, {
        label: label(block.name, block.arguments, action),
        edit,
        change: edit ? replacementArgument(block.arguments) : undefined,
      });
      pending.action = action;
      exchange?.steps.push(pending.step);
      if (edit)
        for (const written of writtenContents(block.arguments, pathArgument(block.arguments)))
          if (isPlan(written.content)) notes.plans.push({ ...written, at });
    } else if (block.type === "text" && block.text.trim() !== "") {
      texts.push(block.text);
    }
  }
  const text = texts.join("\n\n");
  for (const sentence of splitSentences(text)) if (isDecision(sentence)) notes.decisions.push({ text: capText(sentence, 220), at });
  if (!exchange || (text === "" && message.content.every((b) => b.type !== "toolCall"))) return;
  // "Sure." or "You're welcome!" alone reports nothing: the exchange stays as it was (unanswered, or at work).
  if (message.stopReason === "toolUse" || !isCourtesyOnly(text))
    exchange.ending = classifyEnding(text, message.stopReason, splitSentences(text));
  if (text !== "") exchange.lastText = { text, at };
}

/** What a result settled: a run judged (or still running), files read or changed, or a call that failed or never ran. */
function noteResult(notes: OfflineNotes, settled: Settlement<PendingStep>, at: number, named: ReadonlySet<string>): void {
  const { step, action } = settled.payload;
  switch (settled.kind) {
    case "run": {
      const { command, output, verdict } = settled;
      const excerpt = verdict.failed ? errorExcerpt(output) : firstErrorLine(output);
      const errors = verdict.failed ? errorLines(output) : [];
      const run: Run = {
        command,
        ...verdict,
        excerpt,
        ...(errors.length > 1 ? { errors } : {}),
        ranTests: testsRan(command, output),
        at: step.run?.at ?? at,
      };
      // A command that was still running keeps its place; the poll that ended it gives its verdict.
      const index = step.run === undefined ? -1 : notes.runs.indexOf(step.run);
      if (index === -1) notes.runs.push(run);
      else notes.runs[index] = run;
      // Its steps while it ran had no result yet: the verdict replaces them.
      if (step.run !== undefined) notes.milestones = notes.milestones.filter((m) => m.at !== run.at || m.command !== command);
      notes.milestones.push(...readMilestones(command, output, verdict, excerpt, run.at));
      step.run = run;
      if (!verdict.failed) noteTaskText(notes, command, output, run.at, named);
      // A command that wrote files (`sed -i`, `> out.txt`, `mv`) worked on them like an edit did,
      // one that read a file (`sed -n '1,80p' f`) like a read did (what it deleted, perhaps a
      // whole folder, is in the facts' deleted list).
      for (const event of settled.events) {
        if (event.op === "delete") continue;
        notes.touched.push({ text: event.path, at: step.at });
        if (event.op === "read") continue;
        notes.edits.push({ text: event.path, at: step.at });
        step.edit = true;
      }
      return;
    }
    case "running": {
      if (action.kind !== "shell") return;
      const run: Run = { command: action.command, exitCode: null, failed: false, excerpt: undefined, ranTests: false, at };
      notes.runs.push(run);
      step.run = run;
      // A push still running when the session ended is not known to have happened.
      notes.milestones.push(...readMilestones(action.command, "", run, undefined, at));
      return;
    }
    case "refused":
      step.error = firstErrorLine(settled.output) ?? "refused";
      return;
    case "done": {
      if (settled.failed) step.error = firstErrorLine(settled.output) ?? "failed";
      if (!settled.failed && action.kind === "read")
        for (const path of action.paths) noteTaskText(notes, path, settled.output, step.at, named);
      for (const event of settled.events) {
        notes.touched.push({ text: event.path, at: step.at });
        if (event.op !== "read") notes.edits.push({ text: event.path, at: step.at });
      }
      return;
    }
  }
}

/** A task's text the session printed (an issue, a file the user named): its rules, by source. */
function noteTaskText(notes: OfflineNotes, what: string, output: string, at: number, named: ReadonlySet<string>): void {
  // A source read again gives nothing new (the first reading's rules stand): it is not read through again.
  if (notes.taskRules.some((t) => t.source === what) || !isTaskText(what, named)) return;
  const rules = taskRules(output);
  if (rules.length > 0) notes.taskRules.push({ source: what, rules, at });
}

function emptyNotes(): OfflineNotes {
  return {
    requests: [],
    exchanges: [],
    constraints: [],
    withdrawnRules: [],
    withdrawals: [],
    specifications: [],
    decisions: [],
    steered: [],
    choices: [],
    deferredOffers: [],
    runs: [],
    milestones: [],
    plans: [],
    taskRules: [],
    touched: [],
    edits: [],
    background: [],
    summaryPending: [],
    branchSummaries: [],
  };
}

/**
 * The offline engine's notes of the branch (see note-types.ts). Walks the context once. A recorded handoff instruction and the assistant's answer to it are
 * skipped entirely: they are neither requests nor progress.
 */
export function extractNotes(context: readonly ContextMessage[]): OfflineNotes {
  const notes = emptyNotes();
  const calls = new ToolCalls<PendingStep>();
  let inHandoffAnswer = false;
  let pendingOffer: Offer | undefined;
  // The prose files the user named so far (a task text they point at), gathered as the requests come.
  const named = new Set<string>();

  const noteRequest = (text: string, at: number): void => {
    if (!isUserRequest(text)) return;
    const previous = notes.exchanges.at(-1);
    const request = classifyRequest(text, at, previous?.ending === "question", !notes.requests.some((r) => r.kind === "objective"));
    if (pendingOffer && request.defers) notes.deferredOffers.push(pendingOffer);
    noteChoices(notes, request, previous);
    noteSteering(notes, request, previous);
    pendingOffer = undefined;
    notes.requests.push(request);
    notes.exchanges.push({ request, lastText: undefined, ending: "none", steps: [] });
    noteConstraints(notes, request);
    for (const path of pathsNamed([text])) named.add(path);
    notes.withdrawals.push(...withdrawalsIn(text, at));
  };

  context.forEach((message, at) => {
    if (message.role === "user") {
      const text = messageText(message);
      inHandoffAnswer = message.kind === "user" && looksLikeHandoffInstruction(text);
      if (inHandoffAnswer) return;
      if (message.kind === "user") {
        noteRequest(text, at);
      } else if (message.kind === "compactionSummary") {
        // What the user asked before the compaction comes first, in order, just before the summary's place.
        const background = readBackground(unwrapSummary(text), "compaction");
        const replaced = message.replacedRequests ?? [];
        // A compaction mid-work (the kept part goes on with the same turn, or the summary lists open work) leaves the last request open.
        const midWork = background.pending.length > 0 || (context[at + 1] !== undefined && context[at + 1]?.role !== "user");
        replaced.forEach((request, i) => {
          noteRequest(messageText(request), at - (replaced.length - i) / (replaced.length + 1));
          const exchange = notes.exchanges.at(-1);
          if (exchange?.request.at !== undefined && exchange.request.at < at)
            exchange.ending = midWork && i === replaced.length - 1 ? "working" : "summarised";
        });
        notes.background.push(background);
        for (const item of background.pending) notes.summaryPending.push({ text: item, at });
      } else if (message.kind === "custom" && text.includes(HANDOFF_OPEN)) {
        notes.background.push(readBackground(text, "handoff"));
      } else if (message.kind === "branchSummary") {
        notes.branchSummaries.push(unwrapSummary(text));
      }
      return;
    }
    if (inHandoffAnswer) return;
    if (message.role === "assistant") {
      noteAssistant(notes, message, at, calls);
      pendingOffer = noteReply(notes.exchanges.at(-1));
      return;
    }
    const settled = calls.result(message.toolCallId, messageText(message), message.isError, message.exitCode, message.reportedFailed);
    if (settled) noteResult(notes, settled, at, named);
  });
  const { standing, withdrawn } = standingRules(notes.constraints, notes.withdrawals);
  notes.constraints = standing;
  notes.withdrawnRules = withdrawn;
  return notes;
}
