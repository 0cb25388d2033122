import type { ContextOptions } from "./context.ts";
import { buildContext } from "./context.ts";
import { collectFacts, type SessionFacts } from "./facts.ts";
import type { ContextMessage } from "./messages.ts";
import { estimateTokens, rememberingQuarters, type TextQuarters } from "./tokens.ts";
import { indexEntries, walkBranch, type Branch, type SessionTree } from "./tree.ts";
import type { Session } from "./types.ts";
import { countOf } from "../format.ts";
import { lazily } from "../lazy.ts";

export interface AnalyzeOptions extends ContextOptions {
  /** Hand off the branch ending at this entry (or at the entry a line of this id became part of) instead of the last entry in the file. */
  leafId?: string;
}

/** Everything later steps need to know about one branch of a session. */
export interface BranchAnalysis {
  tree: SessionTree;
  branch: Branch;
  context: ContextMessage[];
  /** Read off the branch on first use: a dry run of the model engine, and `--no-facts`, never need them. */
  readonly facts: SessionFacts;
  /** `message` entries on the branch (the guard against handing off nothing counts these). */
  branchMessages: number;
  /** Our estimate of the context's tokens, counted on first use (a handoff counts what it sends instead). */
  readonly estimatedTokens: number;
  /**
   * The text estimate's memo for this branch's run: the estimate above and the plan of the
   * requests made of the context count the same texts (a dry run prints both).
   */
  readonly textQuarters: TextQuarters;
}

/** Index → branch → context, and the facts and the estimate when first read. */
export function analyzeBranch(session: Session, options: AnalyzeOptions = {}): BranchAnalysis {
  const tree = indexEntries(session.entries);
  const wanted = options.leafId;
  const leafId = wanted === undefined || tree.byId.has(wanted) ? wanted : (session.joinedIds?.get(wanted) ?? wanted);
  const branch = walkBranch(session.entries, tree, leafId);
  const context = buildContext(branch.entries, options);
  let branchMessages = 0;
  for (const entry of branch.entries) if (entry.type === "message") branchMessages++;
  const facts = lazily(() => collectFacts(branch.entries, session.header.cwd));
  // `inspect` and the dry run show it; a handoff never reads it, and a megabyte of text takes a while to count.
  const textQuarters = rememberingQuarters();
  const estimatedTokens = lazily(() => estimateTokens(context, textQuarters));
  return {
    tree,
    branch,
    context,
    get facts() {
      return facts();
    },
    branchMessages,
    get estimatedTokens() {
      return estimatedTokens();
    },
    textQuarters,
  };
}

/** Warnings a user should see about a session that still loaded. */
export function describeSessionProblems(session: Session, analysis: BranchAnalysis): string[] {
  const warnings: string[] = [...(session.notices ?? [])];
  if (session.problems.length > 0) {
    const lines = session.problems.map((p) => p.line);
    const shown = lines.slice(0, 10).join(", ") + (lines.length > 10 ? ` and ${lines.length - 10} more` : "");
    const first = session.problems[0];
    warnings.push(`skipped ${countOf(lines.length, "unusable line")}: ${shown}${first ? ` (line ${first.line}: ${first.reason})` : ""}`);
  }
  if (analysis.tree.duplicateIds.length > 0) {
    warnings.push(`entry ids used more than once (the later entry wins): ${analysis.tree.duplicateIds.slice(0, 5).join(", ")}`);
  }
  const { danglingParent, cycleAt } = analysis.branch;
  if (danglingParent) {
    warnings.push(
      `entry ${danglingParent.entryId} names a parent ${danglingParent.parentId} that is not in the file; the branch starts there`,
    );
  }
  if (cycleAt) warnings.push(`the parent chain loops back to entry ${cycleAt}; the branch was cut there`);
  for (const type of session.unknownTypes) warnings.push(`unknown entry type "${type}" kept and ignored`);
  return warnings;
}
