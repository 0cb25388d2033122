import type { SessionFacts } from "../../session/facts.ts";
import { pathNormalizer } from "../../session/paths.ts";
import { isCheckCommand } from "../../session/runs.ts";
import { runViews } from "./checks.ts";
import { closedAt, readReports, type Report } from "./reported-work.ts";
import type { Exchange, Offer, OfflineNotes, Run, Step } from "./note-types.ts";
import { focusTerms, relevance, type FocusTerms } from "./focus.ts";
import type { Milestone } from "./milestones.ts";
import { isOffer, isOpenItem } from "./patterns.ts";
import { lastSentences } from "./replies.ts";
import { isWorkRequest, type UserRequest } from "./user-requests.ts";
import { capText, countWords, splitSentences } from "../notes/text.ts";
import { isExploratory, readUncommitted, type Uncommitted } from "./worktree.ts";

/** Where the work stood when the session ended. */
export type TurnState =
  | { kind: "none" }
  | { kind: "unanswered"; request: UserRequest }
  | { kind: "approved"; request: UserRequest; proposal: string | undefined }
  | { kind: "acknowledged"; request: UserRequest }
  | { kind: "finished" }
  | { kind: "question"; question: string }
  /** The last reply is in a language these patterns do not read: whether it finished is unknown. */
  | { kind: "unread"; reply: string }
  | { kind: "working"; words: string | undefined; steps: Step[] };

/** Derived views of the notes and facts that several sections share. */
export interface WorkState {
  cwd: string | undefined;
  focus: FocusTerms | undefined;
  turn: TurnState;
  /** The request the current work is about: the newest objective (the one closest to the focus, with one). */
  objective: UserRequest | undefined;
  /**
   * The request the unfinished work answers: the first work request since the last finished
   * reply, else (after only "continue" or approvals) the newest work request.
   */
  current: UserRequest | undefined;
  /** The newest work request (with a focus, the objective it picks): what "Latest request" names. */
  latest: UserRequest | undefined;
  /** Objectives before it, oldest first. */
  earlier: UserRequest[];
  /** Follow-up requests after it (not answers or approvals), oldest first. */
  followups: UserRequest[];
  /** Milestones since the objective was asked for. */
  milestones: Milestone[];
  /** Commands whose latest run since the objective was asked for failed, newest last (not exploratory one-liners). */
  stillFailing: Run[];
  /** Failed exploratory one-liners at the end (`node -e …`): context, not a step. */
  sideFailures: Run[];
  /** Files changed after the last successful commit. */
  uncommitted: Uncommitted | undefined;
  /** Failures since the objective that a later, different run showed fixed, with that run. */
  fixed: { run: Run; by: Run }[];
  /** What the last reply says is still open ("docs/api.md is not updated yet"). */
  openItems: string[];
  /** Open work an earlier compaction summary lists that no later reply reported done. */
  summaryPending: string[];
  /** Requests no reply has closed yet (not those the work in progress is about). */
  openRequests: UserRequest[];
  deferred: Offer[];
  /** The gist of each reply that closed a piece of work, oldest first. */
  reports: Report[];
  /** The user's messages in a language these patterns do not read (quoted, so no rule is lost). */
  unreadRequests: UserRequest[];
  /** Replies not in English, by the position of the request they answer: they close nothing, but are quoted. */
  unreadReplies: Map<number, string>;
  /** Something the last reply offered to do, if the user wants it. */
  lastOffer: string | undefined;
  /** Modified files in their one form, least recently touched first. */
  modifiedFiles: string[];
  /** Files deleted (and not written again), in their one form. */
  deletedFiles: string[];
  /** Paths touched most recently, newest last. */
  workingSet: { path: string; change: "modified" | "deleted" | undefined }[];
  /** The latest run of each distinct check command (tests, builds, linters), newest last. */
  checks: Run[];
  /** A check whose latest run came before files were changed again. */
  staleCheck: Run | undefined;
  userCommands: string[];
}

/** The newest work request, or the one closest to the focus. */
function pickObjective(requests: readonly UserRequest[], focus: FocusTerms | undefined): UserRequest | undefined {
  const objectives = requests.filter((r) => r.kind === "objective" && r.statement !== "");
  const stated = requests.filter((r) => isWorkRequest(r) && r.statement !== "");
  const candidates = objectives.length > 0 ? objectives : stated;
  if (!focus) return candidates.at(-1);
  // With a focus, any request may be the one it names, not only those that opened a new objective.
  const focused = stated.filter((r) => relevance(r.text, focus) > 0);
  if (focused.length > 0) return pickFocused(focused, focus);
  return candidates.at(-1);
}

function pickFocused(candidates: readonly UserRequest[], focus: FocusTerms): UserRequest | undefined {
  let best: UserRequest | undefined;
  let bestScore = 0;
  for (const request of candidates) {
    const score = relevance(request.text, focus);
    if (score >= bestScore && score > 0) [best, bestScore] = [request, score];
  }
  return best ?? candidates.at(-1);
}

/** "X is done. It is not committed yet: should it …?" → "X is done; it is not committed yet". */
function openItemsOf(text: string): string[] {
  const sentences = splitSentences(text);
  const items: string[] = [];
  sentences.forEach((sentence, i) => {
    if (!isOpenItem(sentence.replace(/[:—–-][^:—–-]*\?$/, ""))) return;
    let item = sentence.endsWith("?") ? sentence.replace(/\s*[:—–-][^:—–-]*\?$/, "") : sentence;
    const before = sentences[i - 1];
    if (/^(it|this|that|they|these)\b/i.test(item) && before !== undefined)
      item = `${before.replace(/[.!]$/, "")}; ${item[0]?.toLowerCase()}${item.slice(1)}`;
    items.push(capText(item, 300));
  });
  return items;
}

function readTurn(exchanges: readonly Exchange[]): TurnState {
  const last = exchanges.at(-1);
  if (!last) return { kind: "none" };
  if (last.ending === "none") {
    const previous = exchanges.at(-2)?.lastText?.text;
    if (last.request.kind === "approval")
      return { kind: "approved", request: last.request, proposal: previous === undefined ? undefined : lastSentences(previous, 2, 300) };
    if (last.request.kind === "ack")
      return exchanges.length > 1 && exchanges.at(-2)?.ending === "working"
        ? readTurn(exchanges.slice(0, -1))
        : { kind: "acknowledged", request: last.request };
    return { kind: "unanswered", request: last.request };
  }
  if (last.ending === "question") return { kind: "question", question: lastSentences(last.lastText?.text ?? "", 3, 450) };
  if (last.ending === "unread") return { kind: "unread", reply: last.lastText?.text ?? "" };
  if (last.ending !== "working") return { kind: "finished" };
  // Approvals ("ok, keep going") continue the turn before them: its last words still apply.
  let words: string | undefined;
  for (let i = exchanges.length - 1; i >= 0 && words === undefined; i--) {
    words = exchanges[i]?.lastText?.text;
    if (exchanges[i]?.request.kind !== "approval" && exchanges[i]?.request.kind !== "answer") break;
  }
  return { kind: "working", words, steps: last.steps.slice(-2) };
}

export function readWorkState(notes: OfflineNotes, facts: SessionFacts, cwd: string | undefined, focusText?: string): WorkState {
  const focus = focusTerms(focusText);
  const objective = pickObjective(notes.requests, focus);
  const since = objective?.at ?? 0;
  const turn = readTurn(notes.exchanges);
  // "Continue", "go on" carry on the newest work asked for, never the first objective; a one-word
  // aside ("ls", "status?") is not work to name as the latest request.
  const latest = focus ? objective : (notes.requests.filter((r) => isWorkRequest(r) && countWords(r.statement) >= 2).at(-1) ?? objective);
  const last = notes.exchanges.at(-1);
  const lastCloseIndex = notes.exchanges.findLastIndex(closedAt);
  const afterClose = notes.exchanges.slice(lastCloseIndex + 1).map((e) => e.request);
  const openItems =
    last?.lastText && (last.ending === "completed" || last.ending === "replied" || last.ending === "question")
      ? openItemsOf(last.lastText.text)
      : [];
  // Words of intent with nothing run ("I'll add the flag.") leave the request open.
  const nothingRun = turn.kind === "working" && turn.steps.length === 0;
  const openRequests =
    turn.kind === "unanswered" || turn.kind === "unread" || nothingRun || (turn.kind === "question" && openItems.length === 0)
      ? afterClose.filter((r) => isWorkRequest(r) && r.statement !== "").slice(-3)
      : [];
  const views = runViews(notes.runs, cwd);
  const reports = readReports(notes.exchanges, views);
  const unreadReplies = new Map<number, string>();
  for (const e of notes.exchanges) if (e.ending === "unread" && e.lastText) unreadReplies.set(e.request.at, e.lastText.text);
  const finalSentence = last?.lastText ? splitSentences(last.lastText.text).at(-1) : undefined;
  const relative = pathNormalizer(cwd);
  const touchedAt = new Map<string, number>();
  for (const touch of notes.touched) touchedAt.set(relative(touch.text), touch.at);
  const modifiedSet = new Set(facts.filesModified.map(relative));
  const deletedSet = new Set(facts.filesDeleted.map(relative));
  const modified = [...modifiedSet]
    .map((path, order) => ({ path, order, at: touchedAt.get(path) ?? -1 }))
    .sort((a, b) => a.at - b.at || a.order - b.order);
  const latestSince = views.latest(
    notes.runs.filter((run) => run.at >= since),
    () => true,
  );
  const fixed = latestSince.flatMap((run) => {
    const by = views.settledBy(run);
    return by === undefined ? [] : [{ run, by }];
  });
  const checks = views.unsettled(views.latest(notes.runs, (run) => isCheckCommand(run.command)));
  const lastCheck = checks.filter((run) => run.at >= since).at(-1);
  const lastEdit = notes.edits.at(-1)?.at ?? -1;
  return {
    cwd,
    focus,
    turn,
    objective,
    current: afterClose.find((r) => isWorkRequest(r) && r.statement !== "") ?? (focus ? objective : latest),
    latest,
    earlier: notes.requests.filter((r) => r.kind === "objective" && r.statement !== "" && r.at < since),
    followups: notes.requests.filter(
      (r) => r.at > since && (r.kind === "followup" || r.kind === "objective") && countWords(r.statement) >= 3,
    ),
    milestones: notes.milestones.filter((m) => m.at >= since),
    stillFailing: views
      .unsettled(latestSince)
      .filter((run) => run.failed && !isExploratory(run))
      .slice(-3),
    sideFailures: views
      .unsettled(latestSince)
      .filter((run) => run.failed && isExploratory(run))
      .slice(-2),
    uncommitted: readUncommitted(notes, facts, cwd),
    fixed: fixed.slice(-3),
    openItems,
    openRequests,
    // A later reply that closed its work (not the summary standing in for a turn) settles what the summary left open.
    summaryPending: notes.summaryPending
      .filter((item) => !notes.exchanges.some((e) => e.ending !== "summarised" && closedAt(e) && (e.lastText?.at ?? -1) > item.at))
      .map((item) => item.text),
    deferred: notes.deferredOffers.slice(-2),
    unreadRequests: notes.requests.filter((r) => r.kind !== "ack" && r.foreign),
    unreadReplies,
    reports,
    lastOffer: turn.kind === "finished" && finalSentence !== undefined && isOffer(finalSentence) ? finalSentence : undefined,
    modifiedFiles: modified.map((f) => f.path),
    deletedFiles: [...deletedSet],
    workingSet: [...touchedAt.entries()]
      .sort((a, b) => a[1] - b[1])
      .slice(-8)
      .map(([path]) => ({ path, change: modifiedSet.has(path) ? "modified" : deletedSet.has(path) ? "deleted" : undefined })),
    checks: checks.slice(-3),
    staleCheck: lastCheck !== undefined && !lastCheck.failed && lastEdit > lastCheck.at ? lastCheck : undefined,
    userCommands: [...new Set(facts.commands.filter((run) => run.by === "user").map((run) => run.command))].slice(-3),
  };
}
