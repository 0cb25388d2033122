/**
 * Rules that stood in what the agent read: a task's text printed from an issue tracker (`issues
 * show 88`, `gh issue view 12`, `jira …`), or a file the user pointed at by name (docs/RELEASING.md)
 * and the session printed. Its requirements and no-gos bind the next session as the user's own
 * rules do: named (a few per source), marked as coming from that source.
 */
import { isConstraint } from "../notes/rules.ts";
import { capText, splitSentences } from "../notes/text.ts";

/** A command that prints an issue or a ticket. */
const TRACKER =
  /\b(?:issues?|gh\s+(?:issue|pr)|glab\s+(?:issue|mr)|jira|linear|tea\s+(?:issues?|pulls?)|bugzilla)\b[^|;&]*\b(?:show|view|get|read|cat|describe)\b/i;
/** Prose files people point at: `docs/RELEASING.md`, `SPEC.md` (code is not task text, whatever its comments say). */
const NAMED_PATH = /(?:[\w.@-]+\/)*[\w.@-]+\.(?:md|markdown|txt|rst|adoc|org)\b/g;

const PROSE_EXTENSION = /\.(?:md|markdown|txt|rst|adoc|org)\b/i;

/** Rules kept per source. */
const MAX_RULES = 5;

/** The prose files the user's messages name. */
export function pathsNamed(texts: readonly string[]): Set<string> {
  // Most messages name no prose file: the cheap test first, the path's folders only where one is.
  const naming = texts.filter((text) => PROSE_EXTENSION.test(text));
  return new Set(naming.flatMap((text) => [...text.matchAll(NAMED_PATH)].map((m) => m[0])));
}

/** A command that prints a file as it is (not one that merely names it: `git add AGENTS.md`). */
const PRINTS = /^(?:cat|bat|batcat|less|more|head|tail|nl|glow|type|sed\s+-n\s+\S+)\s+(?:-\S+\s+)*(\S+)\s*$/;

/** Whether what ran or was read is a task's text: a tracker's command, or a file the user named, read or printed. */
export function isTaskText(what: string, named: ReadonlySet<string>): boolean {
  if (TRACKER.test(what)) return true;
  const path = PRINTS.exec(what.trim())?.[1]?.replace(/^["']|["']$/g, "") ?? what;
  return [...named].some((name) => path === name || path.endsWith(`/${name}`));
}

/** "No restart needed!": a remark, not a requirement. */
const REMARK = /\bneeded\W*$/i;

/** The rule-like sentences of a printed task text (bullets, numbers and a read tool's line numbers left off), up to five. */
export function taskRules(output: string): string[] {
  const rules: string[] = [];
  for (const raw of output.split("\n")) {
    const line = raw
      .replace(/^\s*\d+\t/, "")
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")
      .trim();
    if (line === "" || line.startsWith("#")) continue;
    for (const sentence of splitSentences(line)) if (isConstraint(sentence) && !REMARK.test(sentence)) rules.push(capText(sentence, 200));
    if (rules.length >= MAX_RULES) break;
  }
  return [...new Set(rules)].slice(0, MAX_RULES);
}
