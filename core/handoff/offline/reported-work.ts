/**
 * What the assistant reported done, one item per finished piece of work: the gist of its closing
 * reply, named by the request it answers when the reply names nothing itself ("Done."), and
 * marked where the command results contradict it ("All tests pass" after a failing test run).
 */
import type { RunViews } from "./checks.ts";
import type { Exchange, Run } from "./note-types.ts";
import { changesOrChecks, isCompletion, isOffer, isOpenItem } from "./patterns.ts";
import { capText, countWords, splitSentences, stripCodeBlocks } from "../notes/text.ts";

export interface Report {
  text: string;
  at: number;
  /** A check that had failed when the reply said the checks pass. */
  contradictedBy: Run | undefined;
}

/** Whether an exchange's last reply closed it: it reported the work done, or handed back, or a compaction summary stands for it. */
export function closedAt(exchange: Exchange): boolean {
  return exchange.ending === "completed" || exchange.ending === "replied" || exchange.ending === "summarised";
}

/** A closing reply without its questions, offers and open items: what it says was done. */
function reportOf(text: string): string {
  const sentences = splitSentences(stripCodeBlocks(text)).filter((s) => !s.endsWith("?") && !isOffer(s) && !isOpenItem(s));
  // A one-word exclamation ("Great!", "Done!") says nothing beside other sentences; alone, "Fixed!" is the report.
  const words = sentences.filter((s) => !/^[\p{L}']+!$/u.test(s));
  const said = words.length > 0 ? words : sentences.filter((s) => isCompletion(s, s));
  // A lead-in ("Released 2.3.0:", "The steps are:") counts only when what it leads into is kept, not a code block.
  const kept = said.filter((s, i) => !s.endsWith(":") || (said[i + 1] !== undefined && !said[i + 1]?.endsWith(":")));
  // List items carry no full stop: keep them apart.
  return capText(kept.map((s, i) => (i < kept.length - 1 && !/[.!:;]$/.test(s) ? `${s};` : s)).join(" "), 240);
}

/** A reply this short ("Done.", "Fixed.", "14 passing.") names nothing: the request it answers says what was done. */
const BARE_REPORT_WORDS = 4;

/** A reply saying the checks pass: "All tests pass", "the build is green". */
const PASS_CLAIM =
  /\b(?:tests?|specs?|checks?|builds?|lint(?:ing)?)\b[^.;:!?]{0,30}\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|clean)\b/i;

/** The reports of every exchange that did work and closed, oldest first. */
export function readReports(exchanges: readonly Exchange[], views: RunViews): Report[] {
  const reports: Report[] = [];
  for (const exchange of exchanges) {
    const reply = exchange.lastText;
    if (!reply || exchange.request.kind === "meta" || exchange.request.kind === "ack") continue;
    // Reading and searching is not work done; a question after edits still reports them.
    const edited = exchange.steps.some((step) => step.edit || (step.run !== undefined && changesOrChecks(step.run.command)));
    const closed = closedAt(exchange) && (edited || isCompletion(reply.text, splitSentences(reply.text)[0] ?? ""));
    if (!closed && !(exchange.ending === "question" && exchange.steps.some((step) => step.edit))) continue;
    const gist = reportOf(reply.text);
    if (gist === "") continue;
    const asked = exchange.request.statement;
    const text = countWords(gist) <= BARE_REPORT_WORDS && asked !== "" ? `${asked.replace(/[.!]$/, "")}: ${gist}` : gist;
    const contradictedBy = PASS_CLAIM.test(gist) ? views.failingChecksAt(reply.at).at(-1) : undefined;
    reports.push({ text, at: reply.at, contradictedBy });
  }
  return reports;
}
