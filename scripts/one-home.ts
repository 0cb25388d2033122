import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Ideas that have one home in the source, checked over the text so a copy cannot come back
 * unseen: each rule names the one file allowed to spell the thing, and the pattern a copy has.
 * Comment lines are left out (they may mention the thing); strings are not (a copy is a string).
 */
export interface HomeRule {
  /** What the one home holds, for the message. */
  readonly idea: string;
  /** The file (relative to the repository) allowed to spell it, or the folder (ending in `/`) whose files may. */
  readonly home: string;
  readonly copy: RegExp;
  /** Only files under this folder are checked (default: all). */
  readonly under?: string;
  /** Other files that may spell it, each for a reason of its own (said in the rule). */
  readonly also?: readonly string[];
}

export const HOME_RULES: readonly HomeRule[] = [
  {
    idea: "the message of anything thrown (errorMessage)",
    home: "core/errors.ts",
    copy: /instanceof Error \? *(\w+)\.message *: *String\(\1\)/,
  },
  {
    idea: "a system error's code (errorCode)",
    home: "cli/io/fs-errors.ts",
    copy: /["']code["'] in /,
  },
  {
    idea: "file-system error codes in words (FS_REASONS)",
    home: "cli/io/fs-errors.ts",
    copy: /permission denied|no space left on the device|too many symbolic links|operation not permitted|refusing to overwrite it|not a program this system can run/,
  },
  {
    idea: "the handoff document's wrapper tags (HANDOFF_OPEN, HANDOFF_CLOSE)",
    home: "core/session/formats/handoff-text.ts",
    copy: /<\/?handoff-context>/,
  },
  {
    idea: "how an agent names the new session and its id (idInName, nameWithId, findsSessionsOnlyInItsFolder)",
    home: "cli/sessions/new-session-place.ts",
    copy: /\b(?:idInName|nameWithId|findsSessionsOnlyInItsFolder)\b/,
    under: "cli/",
  },
  {
    idea: "agent knowledge (a table keyed by an agent's name)",
    home: "core/",
    copy: /^\s*["']?(?:claude-code|codex|omp|pi)["']?\s*:/,
    under: "cli/",
  },
  {
    // Discovery reads the same facts to find the sessions that exist; everything about the new one asks new-session-place.ts.
    idea: "the format's location (where sessions live, how the new one is placed)",
    home: "cli/sessions/new-session-place.ts",
    copy: /\.location\.(?:sessionFolder|sessionsRoot|sessionFiles|alsoFindsSessionsIn|filesByCwd)\b/,
    under: "cli/",
    also: ["cli/sessions/discover.ts"],
  },
];

export interface HomeViolation {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

/** The code of a line: blank for a comment line, the part before a trailing `//` comment otherwise. */
function codeOf(line: string): string {
  const trimmed = line.trimStart();
  if (trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//")) return "";
  return line.replace(/\s\/\/\s.*$/, "");
}

/** The copies in one file's text (`file` relative to the repository). */
export function findCopies(file: string, text: string, rules: readonly HomeRule[] = HOME_RULES): HomeViolation[] {
  const found: HomeViolation[] = [];
  const lines = text.split("\n");
  for (const rule of rules) {
    if (rule.home === file || (rule.home.endsWith("/") && file.startsWith(rule.home))) continue;
    if (rule.under !== undefined && !file.startsWith(rule.under)) continue;
    if (rule.also?.includes(file)) continue;
    lines.forEach((line, index) => {
      if (rule.copy.test(codeOf(line)))
        found.push({ file, line: index + 1, problem: `spells ${rule.idea} again; use the one in ${rule.home}` });
    });
  }
  return found;
}

/** Every production file of cli/ and core/ (tests and test helpers are free to spell things out). */
export function checkOneHome(root: string): { files: string[]; violations: HomeViolation[] } {
  const files = [...new Glob("{cli,core}/**/*.ts").scanSync({ cwd: root })]
    .filter((file) => !file.endsWith(".test.ts") && !file.endsWith(".testing.ts"))
    .sort();
  return { files, violations: files.flatMap((file) => findCopies(file, readFileSync(join(root, file), "utf8"))) };
}
