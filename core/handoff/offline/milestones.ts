/**
 * The steps that move work out of the working tree (a branch, a version bump, a commit, a tag,
 * a push, a publish, a pull request), read from the commands that made them and their output.
 * They say what was done more reliably than any sentence, and they are what a release is made of.
 */

export type MilestoneKind = "branch" | "bump" | "commit" | "tag" | "push" | "publish" | "pr";

export type MilestoneStatus = "done" | "failed" | "unknown";

export interface Milestone {
  kind: MilestoneKind;
  /** What it made: `4f2a9c1 "release: 2.3.0" on main`, `v2.3.0`, `tinyfetch@2.3.0`, a URL. */
  detail: string;
  /**
   * `done` only on evidence: the command exited 0, or its output proves the step happened (a
   * later step failed). `unknown`: the command has no exit code (interrupted, still running in
   * the background, no result recorded) and its output proves nothing: it may not have happened.
   */
  status: MilestoneStatus;
  /** The run it came from. */
  command: string;
  excerpt: string | undefined;
  at: number;
}

/** How each kind is recognised in one `&&`/`;` step of a command. */
const STEP: readonly [MilestoneKind, RegExp][] = [
  ["branch", /\bgit\s+(?:checkout|switch)\s+-[bcB]\s+(\S+)/],
  ["bump", /\b(?:npm|pnpm|yarn)\s+(?:version|run\s+version\S*)(?:\s+(\S+))?|\bcargo\s+(?:release|set-version)\b/],
  ["commit", /\bgit\s+commit\b/],
  ["tag", /\bgit\s+tag\s+(?:-[asf]\s+)*(?!-)(\S+)/],
  ["push", /\bgit\s+push\b/],
  ["publish", /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?publish\b|\bcargo\s+publish\b|\btwine\s+upload\b|\bgh\s+release\s+create\b/],
  ["pr", /\bgh\s+pr\s+create\b/],
];

const unquote = (text: string) => text.replace(/^["']|["']$/g, "");

function commitDetail(step: string, output: string): string | undefined {
  const made = /\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\]\s*(.*)/.exec(output);
  if (made) return `${made[2]} "${(made[3] ?? "").trim()}" on ${made[1]}`;
  const logged = /^([0-9a-f]{7,40}) (.+)$/m.exec(output);
  if (logged) return `${logged[1]} "${(logged[2] ?? "").trim()}"`;
  const message = /\s-\w*m\s+("[^"]*"|'[^']*'|\S+)/.exec(step)?.[1];
  return message === undefined ? undefined : `"${unquote(message)}"`;
}

function detailOf(kind: MilestoneKind, step: string, match: RegExpExecArray, output: string): string | undefined {
  switch (kind) {
    case "branch":
    case "tag":
      return match[1];
    case "bump":
      return /^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/m.exec(output)?.[0] ?? (match[1] !== undefined ? unquote(match[1]) : undefined);
    case "commit":
      return commitDetail(step, output);
    case "push": {
      const refs = pushedRefs(output);
      return refs.length > 0
        ? [...new Set(refs)].join(", ")
        : step
            .split(/\s+/)
            .filter((w) => !w.startsWith("-"))
            .slice(3)
            .join(" ") || undefined;
    }
    case "publish":
      return /^\+ (\S+@\S+)/m.exec(output)?.[1];
    case "pr":
      return /https?:\/\/\S+\/pull\/\d+/.exec(output)?.[0];
  }
}

/**
 * The refs a push updated, from git's ref lines (`   8d1e0b7..4f2a9c1  main -> main`, ` * [new tag]
 * v1 -> v1`, ` + a...b main -> main (forced update)`); a rejected one (` ! [rejected] main -> main
 * (fetch first)`, ` ! [remote rejected] …`) updated nothing.
 */
function pushedRefs(output: string): string[] {
  return [...output.matchAll(/^[ \t]*[^!\s].*?->\s+(\S+)/gm)].map((m) => m[1] ?? "");
}

/** Proof in the output that a step of a failed command still happened (a later step failed). */
function happened(kind: MilestoneKind, output: string): boolean {
  if (kind === "commit") return /\[[^\]\s]+(?: \([^)]*\))? [0-9a-f]{7,40}\]/.test(output);
  if (kind === "push") return pushedRefs(output).length > 0;
  if (kind === "branch") return /Switched to a new branch/.test(output);
  return false;
}

/** How a run ended, as the milestones of its steps need it. */
export interface RunEnd {
  exitCode: number | null;
  failed: boolean;
}

/** The one predicate for "this step was done": evidence, never the absence of a failure. */
function statusOf(kind: MilestoneKind, output: string, end: RunEnd): MilestoneStatus {
  if (happened(kind, output)) return "done";
  if (end.failed) return "failed";
  return end.exitCode === null ? "unknown" : "done";
}

/** The milestones one command made (or tried to make), in the order of its steps. */
export function readMilestones(command: string, output: string, end: RunEnd, excerpt: string | undefined, at: number): Milestone[] {
  const milestones: Milestone[] = [];
  for (const step of command.split(/\s*(?:&&|;)\s*/)) {
    // A dry run makes nothing: it is not an attempt at the step.
    if (/(?:^|\s)--dry-run\b/.test(step) || /\bgit\s+push\b.*\s-\w*n\b/.test(step)) continue;
    for (const [kind, pattern] of STEP) {
      const match = pattern.exec(step);
      if (!match) continue;
      const status = statusOf(kind, output, end);
      const detail = detailOf(kind, step, match, output) ?? "";
      milestones.push({ kind, detail, status, command, excerpt: status === "failed" ? excerpt : undefined, at });
      break;
    }
  }
  return milestones;
}

const VERB: Record<MilestoneKind, string> = {
  branch: "branch",
  bump: "version bump",
  commit: "commit",
  tag: "tag",
  push: "push",
  publish: "publish",
  pr: "pull request",
};

/** `commit 4f2a9c1 "release: 2.3.0" on main`, `tag v2.3.0`, `version bump to v2.3.0`. */
export function describeMilestone(milestone: Milestone): string {
  const verb = VERB[milestone.kind];
  if (milestone.detail === "") return verb;
  return milestone.kind === "bump" ? `${verb} to ${milestone.detail}` : `${verb} ${milestone.detail}`;
}

/**
 * The attempts of `status` no later attempt of the same kind settled, oldest first: a failed one
 * until one is done; one with no result until one has a result (done or failed).
 */
export function unsettledAttempts(milestones: readonly Milestone[], status: "failed" | "unknown"): Milestone[] {
  const settles = (later: Milestone) => later.status === "done" || (status === "unknown" && later.status === "failed");
  return milestones.filter(
    (m) => m.status === status && !milestones.some((later) => later.at > m.at && sameStep(m, later) && settles(later)),
  );
}

/** Whether `later` attempts the step `earlier` attempted: of the same kind, and a push of the same ref (when both name one). */
function sameStep(earlier: Milestone, later: Milestone): boolean {
  if (earlier.kind !== later.kind) return false;
  if (earlier.kind !== "push" || earlier.detail === "" || later.detail === "") return true;
  const refs = earlier.detail.split(", ");
  return later.detail.split(", ").some((ref) => refs.includes(ref));
}

/** The kinds in the order first attempted: "version bump, commit, tag, push, publish". */
export function arcOf(milestones: readonly Milestone[]): string[] {
  return [...new Set(milestones.filter((m) => m.kind !== "branch").map((m) => VERB[m.kind]))];
}
