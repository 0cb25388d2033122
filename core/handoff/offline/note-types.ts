import type { Background } from "./earlier-summaries.ts";
import type { Milestone } from "./milestones.ts";
import type { TurnEnding } from "./patterns.ts";
import type { UserRequest } from "./user-requests.ts";

/** What the offline engine notes of a branch (extract.ts writes them; the sections read them). */

/** An offer the assistant ended a reply with, with the sentences that explain it. */
export interface Offer {
  /** Up to three sentences ending with the question, on one line. */
  text: string;
  at: number;
}

/** Something said at a position in the context (`at` is the message index). */
export interface Said {
  text: string;
  at: number;
}

/** One shell command the assistant ran, judged by the one definition of failure (runs.ts). */
export interface Run {
  command: string;
  exitCode: number | null;
  failed: boolean;
  /** What went wrong (failed runs), else the first meaningful output line. */
  excerpt: string | undefined;
  /** A failed run's distinct error lines (up to 10), when it printed more than one. */
  errors?: string[];
  /** A test run got past its own build to run tests (see `settles`). */
  ranTests: boolean;
  at: number;
}

/** One tool call and how it went, for "where the work stopped". */
export interface Step {
  /** The command, or `edit <path>`. */
  label: string;
  run: Run | undefined;
  /** A tool other than the shell that failed (`edit` whose text was not found, …). */
  error: string | undefined;
  /** The call changed files. */
  edit: boolean;
  /** A small edit's one-line replacement, often the fix itself. */
  change: { from: string; to: string } | undefined;
  at: number;
}

/** A user request and everything the assistant did until the next one. */
export interface Exchange {
  request: UserRequest;
  /** The newest assistant text in the exchange, and where it was. */
  lastText: Said | undefined;
  /**
   * How the exchange's last assistant message left things; `none` when it got no answer;
   * `summarised` when a compaction replaced its answer (the summary says how it went).
   */
  ending: TurnEnding | "none" | "summarised";
  steps: Step[];
}

/** Everything the offline engine takes from the branch context, in order of appearance. */
export interface OfflineNotes {
  /** What people typed (handoff instructions, slash commands and wrappers excluded), classified. */
  requests: UserRequest[];
  exchanges: Exchange[];
  constraints: Said[];
  /** Rules the user took back later, with the words that did it (dropped from `constraints`). */
  withdrawnRules: { rule: Said; by: Said }[];
  /** The user's sentences that took a rule back, until the rules are settled at the end of the walk. */
  withdrawals: Said[];
  /** Paragraphs of many rule-like lines: a specification the user gave, noted once (see `noteConstraints`). */
  specifications: { count: number; first: string; last: string; at: number }[];
  decisions: Said[];
  /** Changes of course the user made by turning the assistant down (see steering.ts), with both sides' words. */
  steered: Said[];
  /** Choices the user made or approved ("Go with the in-memory LRU", option (a) after "yes"). */
  choices: Said[];
  /** Offers the user put off ("later" after "Want me to …?"): listed as open, since nothing says they were taken up. */
  deferredOffers: Offer[];
  runs: Run[];
  /** Branches, bumps, commits, tags, pushes, publishes and pull requests, from the runs that made them. */
  milestones: Milestone[];
  /** Paths named by tool calls, in call order (repeats kept). */
  touched: Said[];
  /** Checklists the session wrote (`- [ ] …` lines), where and when. */
  plans: { path: string; content: string; at: number }[];
  /** Rules in a task text the session printed (an issue, a file the user named), by source. */
  taskRules: { source: string; rules: string[]; at: number }[];
  /** Paths changed by tool calls, in call order. */
  edits: Said[];
  background: Background[];
  /** Open work a compaction summary lists (its Pending, In Progress, Next Steps), at the summary's place. */
  summaryPending: Said[];
  /** The summaries of branches the user left, as recorded (without our wrapper). */
  branchSummaries: string[];
}
