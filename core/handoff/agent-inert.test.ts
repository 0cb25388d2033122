import { describe, expect, test } from "bun:test";
import { fromInertText, toInertText } from "./agent-inert.ts";

const J = "\u2060";

/**
 * How each agent finds what it acts on, as `bun run compat` observed the real ones (Claude Code
 * 2.1.328, omp 18.2.3, Codex 0.169.0): where a prompt's text would make it read a file, inject
 * a skill, tag a model or run a command. A form a detector finds in the raw text must be gone
 * from the inert text.
 */
const DETECTORS: Record<string, (text: string) => boolean> = {
  // omp: an `@` at the start or after whitespace, an opening bracket or a quote.
  "omp @": (t) => /(?:^|[\s([{<"'`])@\S/u.test(t),
  // Claude Code: an `@` that starts a whitespace-separated word, or follows 。、？！.
  "Claude Code @": (t) => /(?:^|[\s\u3002\u3001\uff1f\uff01])@\S/u.test(t),
  // Codex: `$` and a name, anywhere.
  "Codex $": (t) => /\$[A-Za-z0-9_:-]/.test(t),
  // omp: `^provider/model` after whitespace.
  "omp ^": (t) => /(?:^|\s)\^[^\s^]/u.test(t),
  // omp and pi: a prompt that starts with `/`.
  "omp /": (t) => /^\s*\//.test(t),
};

const found = (text: string) => Object.keys(DETECTORS).filter((name) => DETECTORS[name]?.(text));

/** Forms each of which some agent acts on (compat reads a planted file through each, or sees it rewritten). */
const ACTED_ON: [string, string][] = [
  ["an absolute path", "notes are in @/abs/notes.txt please"],
  ["the home folder", "the key is @~/.ssh/id_test"],
  ["a relative path", "see @./src/parse.ts"],
  ["a parent folder", "see @../secrets.txt"],
  ["a bare name", "see @notes.txt"],
  ["a quoted path with a space", 'see @"/abs/my notes/a.txt"'],
  ["a single-quoted path", "see @'/abs/a.txt'"],
  ["lines of a file", "see @/abs/a.ts#L1-5"],
  ["a folder (its listing)", "see @/abs/dir/"],
  ["an image", "look @/abs/screen.png"],
  ["at the start of the text", "@/abs/a.txt first"],
  ["at the start of a line", "first\n@/abs/a.txt"],
  ["after a tab", "see\t@/abs/a.txt"],
  ["after a no-break space", "see\u00a0@/abs/a.txt"],
  ["after an ideographic space", "see\u3000@/abs/a.txt"],
  ["after an opening bracket", "(see @/abs/a.txt) [@/abs/b] {@/abs/c} <@/abs/d>"],
  ["after a quote", "\"@/abs/a.txt\" '@/abs/b.txt' `@/abs/c.txt`"],
  ["after an ideographic full stop", "见\u3002@/abs/a.txt"],
  ["inside a code fence", "```\n@/abs/a.txt\n```"],
  ["two in a row", "see @@/abs/a.txt"],
  ["a scoped package (omp looks it up as a path)", "install @types/node"],
  ["a Codex skill", "use $skill-creator now"],
  ["a Codex skill inside a word", "usex$skill-creator"],
  ["a Codex skill after a backslash", "use \\$skill-creator"],
  ["a Codex skill as a link", "use [$zz](/home/me/.codex/skills/plan/SKILL.md)"],
  ["a Codex skill after a dollar", "use $$skill"],
  ["a Codex skill in code", "`$skill` and\n```\n$skill\n```"],
  ["an omp model tag", "ask ^openai/gpt-5.1 about it"],
  ["an omp model tag at the start", "^anthropic/claude-sonnet-4-5 first"],
  ["a command at the start", "/review the diff"],
  ["a command after leading space", "  \n/review the diff"],
];

/** Forms no agent acts on: they stay byte for byte. */
const LEFT_AS_IS: [string, string][] = [
  ["an email address", "mail a@b.c or dev@example.com"],
  ["a package version", "install left-pad@1.3.0 and its peer react@18"],
  ["an @ right after a letter or digit", "see x@/abs/a.txt and v2@/abs/b"],
  ["a bare path", "see /abs/notes.txt and ~/notes.txt"],
  ["a file URL and a link", "see file:///abs/a.txt and [a](/abs/a.txt)"],
  ["a full-width at sign", "see \uff20/abs/a.txt and \ufe6b/abs/b.txt"],
  ["a dollar before no name", "costs $ 5, ${HOME}, $(pwd), $'x', $\"y\""],
  ["a caret inside a word or a quoted version", 'x^2 and "react": "^18.2.0"'],
  ["a slash that does not start the text", "run it /fast and a/b"],
  ["a shell line or a heading at the start", "!cat /abs/a.txt\n# remember this"],
  ["text with no such character", "Write the handoff document."],
];

describe("text an agent would act on is made inert", () => {
  test.each(ACTED_ON)("%s: some agent acts on it raw, none on the inert text, and it comes back whole", (_, raw) => {
    expect(found(raw).length).toBeGreaterThan(0);
    const inert = toInertText(raw);
    expect(found(inert)).toEqual([]);
    // Only joiners were added: the text reads the same.
    expect(inert.replaceAll(J, "")).toBe(raw.replaceAll(J, ""));
    expect(fromInertText(inert)).toBe(raw);
  });

  test.each(LEFT_AS_IS)("%s: stays as it is", (_, raw) => {
    expect(toInertText(raw)).toBe(raw);
    expect(fromInertText(raw)).toBe(raw);
  });

  test("where the joiner goes: before an @ or ^, after the $, before a leading /", () => {
    expect(toInertText("see @/a and $skill, ^openai/gpt-5")).toBe(`see ${J}@/a and $${J}skill, ${J}^openai/gpt-5`);
    expect(toInertText(" /cmd")).toBe(` ${J}/cmd`);
  });

  test("joiners the session already had survive the round trip, wherever they stood", () => {
    for (const raw of [`${J}@a`, `a${J}@b`, `$${J}`, `$${J}x`, `${J}/a`, ` ${J}^a/b`, `a${J}^b`, `${J}${J}`, `x${J}$${J}@${J}^`]) {
      expect(fromInertText(toInertText(raw))).toBe(raw);
    }
  });

  test("an answer that quotes the inert prompt reads as the session did; other joiners in it stay", () => {
    const quoted = `Read ${J}@/abs/notes.txt, then run $${J}skill.`;
    expect(fromInertText(quoted)).toBe("Read @/abs/notes.txt, then run $skill.");
    expect(fromInertText(`a${J}b`)).toBe(`a${J}b`);
  });
});
