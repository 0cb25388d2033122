/**
 * The steps that move work out of the working tree (a branch, a version bump, a commit, a tag,
 * a push, a publish, a pull request), read from the commands that made them and their output.
 * They say what was done more reliably than any sentence, and they are what a release is made of.
 */

export type MilestoneKind = "branch" | "bump" | "commit" | "tag" | "push" | "publish" | "pr";

export interface Milestone {
  kind: MilestoneKind;
  /** What it made: `4f2a9c1 "release: 2.3.0" on main`, `v2.3.0`, `tinyfetch@2.3.0`, a URL. */
  detail: string;
  ok: boolean;
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
      const refs = [...output.matchAll(/->\s+(\S+)/g)].map((m) => m[1] ?? "");
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

/** Proof in the output that a step of a failed command still happened (a later step failed). */
function happened(kind: MilestoneKind, output: string): boolean {
  if (kind === "commit") return /\[[^\]\s]+(?: \([^)]*\))? [0-9a-f]{7,40}\]/.test(output);
  if (kind === "push") return /->\s+\S+/.test(output);
  if (kind === "branch") return /Switched to a new branch/.test(output);
  return false;
}

/** The milestones one command made (or tried to make), in the order of its steps. */
export function readMilestones(command: string, output: string, failed: boolean, excerpt: string | undefined, at: number): Milestone[] {
  const milestones: Milestone[] = [];
  for (const step of command.split(/\s*(?:&&|;)\s*/)) {
    for (const [kind, pattern] of STEP) {
      const match = pattern.exec(step);
      if (!match) continue;
      const ok = !failed || happened(kind, output);
      milestones.push({ kind, detail: detailOf(kind, step, match, output) ?? "", ok, command, excerpt: ok ? undefined : excerpt, at });
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

/** The kinds in the order first attempted: "version bump, commit, tag, push, publish". */
export function arcOf(milestones: readonly Milestone[]): string[] {
  return [...new Set(milestones.filter((m) => m.kind !== "branch").map((m) => VERB[m.kind]))];
}
