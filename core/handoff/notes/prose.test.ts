import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch } from "../../session/analyze.ts";
import { readSession } from "../../session/formats/read.ts";
import { isPastedLine, isPastedLineUnhinted, userProse } from "./prose.ts";
import { proseSentences, splitSentences } from "./text.ts";

// isPastedLine looks at a line's first characters before its patterns: it must say what the
// patterns alone say, for every line of every session we keep and for lines of every shape.
const repo = join(import.meta.dir, "..", "..", "..");
const sessions = [
  ...[...new Glob("fixtures/**/*.jsonl").scanSync(repo)].sort(),
  ...["large-session.jsonl", "before-compaction.jsonl"].map((name) => join("..", "shared", "sessions", name)),
].filter((file) => existsSync(join(repo, file)));

function sessionLines(file: string): string[] {
  try {
    const { context } = analyzeBranch(readSession(readFileSync(join(repo, file), "utf8"), file).session);
    return context.flatMap((message) => message.content.flatMap((block) => (block.type === "text" ? block.text.split("\n") : [])));
  } catch {
    return []; // a fixture that is not a readable session has no lines
  }
}

/** Lines of each shape the patterns know, and prose that starts the same way. */
const SHAPES = [
  "➜  agent git:(main) bun test",
  "$ bun test",
  "> agent@0.1.0 test",
  "at Object.<anonymous> (src/index.ts:3:9)",
  '{ "ok": true }',
  "[1/3] building",
  "| a | b |",
  "│ cell │",
  "─────────",
  "╭─ box",
  "npm ERR! code ENOENT",
  "npm error missing script",
  "npm install is slow here",
  "node:internal/modules/cjs/loader:1228",
  "Debugger attached.",
  "Waiting for the debugger to disconnect...",
  "TypeError: x is not a function",
  "Error: boom",
  "fs.promises.Error: boom",
  "_Exception: odd",
  "The Error: part is odd",
  "9Error: odd",
  "/usr/lib/node_modules/x",
  "'/tmp/a/b' was written",
  '"~/src/app/x"',
  "~/src/app.ts",
  "+ 12 lines",
  "- 3 files",
  "-3 files",
  "+++ b/src/x.ts",
  "--- a/src/x.ts",
  "@@ -1,3 +1,4 @@",
  "2024-05-01T10:00:01 started",
  "[2024-05-01 10:00:01] started",
  "***",
  "...",
  "✗ 3 tests failed",
  "✗✗✗",
  "→→→   ",
  "()()",
  "«»«",
  "Node.js v23.4.0",
  "bun test v1.3.2 (abc123)",
  "@scope/pkg v1.2",
  ".bin/tool v2.0.1",
  "-tool v2.0",
  "we moved to v2.0 last week",
  "use rgb values everywhere",
  "- a list item",
  "* another",
  "• bullet",
  "1. first",
  "12) twelfth",
  "  indented output",
  "\tTabbed output",
  " one space",
  "\u00a0no-break space",
  "\u3000ideographic space ─",
  "Никогда не меняй API.",
  "Никогда",
  "税込みで表示すること。",
  "",
  "   ",
  "a",
  "ab",
];

/** Each shape as written, after white space of several kinds, and with text after it. */
function variants(line: string): string[] {
  return [line, ` ${line}`, `\t${line}`, `\u00a0${line}`, `  ${line}`, `${line} and more`, `${line}\t`, line.toUpperCase()];
}

describe("isPastedLine's shortcuts", () => {
  const corpus = [...new Set([...SHAPES.flatMap(variants), ...sessions.flatMap(sessionLines)])];

  test("the corpus holds pasted lines and prose", () => {
    expect(corpus.filter(isPastedLineUnhinted).length).toBeGreaterThan(500);
    expect(corpus.filter((line) => !isPastedLineUnhinted(line)).length).toBeGreaterThan(500);
  });

  test("say what the patterns alone say, for every line", () => {
    expect(corpus.filter((line) => isPastedLine(line) !== isPastedLineUnhinted(line))).toEqual([]);
  });

  test.each(SHAPES)("%p: the same with and without the shortcuts, in every variant", (line) => {
    for (const variant of variants(line)) expect([variant, isPastedLine(variant)]).toEqual([variant, isPastedLineUnhinted(variant)]);
  });

  // Every first character, from ASCII to the astral planes, before prose, symbols and a pasted shape.
  test("say what the patterns alone say, whatever the first character", () => {
    const differ: string[] = [];
    const codes = [0, 0x2fff, 0xf900, 0xffff, 0x1f300, 0x1f6ff].flatMap((from, i, all) =>
      i % 2 === 0 ? [[from, all[i + 1] ?? from]] : [],
    );
    for (const [from = 0, to = 0] of codes)
      for (let code = from; code <= to; code++) {
        if (code >= 0xd800 && code <= 0xdfff) continue;
        const c = String.fromCodePoint(code);
        for (const line of [c, `${c}${c}${c}`, `${c} word`, `${c}Error: x`, `${c}x v1.2`, `${c}/a/b`, `${c}1 2`, `${c}\u2500\u2500`]) {
          if (isPastedLine(line) !== isPastedLineUnhinted(line)) differ.push(line);
        }
      }
    expect(differ).toEqual([]);
  });
});

describe("userProse's paragraphs", () => {
  const texts = [
    ...sessions.flatMap((file) => {
      try {
        const { context } = analyzeBranch(readSession(readFileSync(join(repo, file), "utf8"), file).session);
        return context.map((message) => message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n"));
      } catch {
        return [];
      }
    }),
    "a \n\n b",
    "one\n\u00a0\ntwo",
    "line\n  pasted\nline\n\n\n\nnext",
    "```\ncode\n```\nafter\n\nmore",
    "",
    "\n\n",
  ];

  test("are what its prose splits into at blank lines", () => {
    const differ = texts.filter((text) => {
      const { prose, paragraphs } = userProse(text);
      return JSON.stringify(paragraphs) !== JSON.stringify(prose === "" ? [] : prose.split(/\n\s*\n/));
    });
    expect(differ).toEqual([]);
  });

  test("split into the sentences splitSentences finds in them", () => {
    const paragraphs = texts.flatMap((text) => userProse(text).paragraphs);
    expect(paragraphs.length).toBeGreaterThan(100);
    expect(paragraphs.filter((p) => JSON.stringify(proseSentences(p)) !== JSON.stringify(splitSentences(p)))).toEqual([]);
  });
});
