import { describe, expect, test } from "bun:test";
import { captureDocument } from "./capture.ts";

const DOC = "## Goal\nShip it.\n\n## Next Steps\n1. Run `npm test`.";
const ECHO_SENTENCE = "The above is a handoff document from a previous session. Use this context to continue the work seamlessly.";

describe("captureDocument", () => {
  test.each([
    ["a leading <think> block", `<think>\nLet me plan the sections.\n</think>\n\n${DOC}`],
    ["a leading <thinking> block", `<thinking>planning</thinking>\n${DOC}`],
    ["a think block in upper case", `<THINK>planning</THINK>${DOC}`],
    ["a think block after leading blank lines", `\n\n<think>planning</think>\n${DOC}`],
    ["a fence around the whole answer", `\`\`\`\n${DOC}\n\`\`\``],
    ["a markdown fence around the whole answer", `\`\`\`markdown\n${DOC}\n\`\`\``],
    ["a tilde fence around the whole answer", `~~~\n${DOC}\n~~~`],
    ["a four-backtick fence around the whole answer", `\`\`\`\`md\n${DOC}\n\`\`\`\``],
    ["an echoed wrapper with its trailing sentence", `<handoff-context>\n${DOC}\n</handoff-context>\n\n${ECHO_SENTENCE}`],
    ["an echoed wrapper without the trailing sentence", `<handoff-context>\n${DOC}\n</handoff-context>`],
    ["an echoed wrapper that was never closed", `<handoff-context>\n${DOC}`],
    [
      "think, then a fence, then an echoed wrapper",
      `<think>x</think>\n\`\`\`markdown\n<handoff-context>\n${DOC}\n</handoff-context>\n\`\`\``,
    ],
    ["surrounding whitespace only", `\n\n  ${DOC}  \n\n`],
  ])("removes %s", (_, answer) => {
    expect(captureDocument(answer)).toBe(DOC);
  });

  const REASONING = "Okay, the user wants a handoff. SECRET-REASONING: list the files first.";
  test.each([
    ["a lone closing tag on its own line (R1 templates open the block themselves)", `${REASONING}\n</think>\n\n${DOC}`],
    ["a lone closing tag right after the reasoning", `${REASONING}</think>${DOC}`],
    ["a lone </thinking>", `${REASONING}\n</thinking>\n${DOC}`],
    ["a lone closing tag in upper case", `${REASONING}\n</THINK>\n${DOC}`],
    ["reasoning that quotes a tag in backticks before its end", `${REASONING} The log shows \`</think>\`.\n</think>\n\n${DOC}`],
    ["a lone closing tag, then a fenced answer", `${REASONING}\n</think>\n\`\`\`markdown\n${DOC}\n\`\`\``],
  ])("drops the reasoning before %s", (_, answer) => {
    expect(captureDocument(answer)).toBe(DOC);
  });

  test.each([
    [
      "in a code span",
      "## Goal\nShip it.\n\n## Critical Context\n- The parser trips on `</think>` in replies.\n\n## Next Steps\n1. Run `npm test`.",
    ],
    ["in a fenced block", "## Goal\nShip it.\n\n## Critical Context\n```\nunexpected </think> at 3:1\n```\n\n## Next Steps\n1. Run it."],
    ["after its opening tag, mid-document", `${DOC}\n\nNote: <think>tags</think> appear in the logs.`],
  ])("keeps a closing tag the document quotes: %s", (_, answer) => {
    expect(captureDocument(answer)).toBe(answer);
  });

  test("an unclosed think block leaves nothing: the model never reached the answer", () => {
    expect(captureDocument(`<think>\nI should write ## Goal first, then ${DOC}`)).toBe("");
  });

  test("a think block that is not at the start is part of the document", () => {
    const answer = `${DOC}\n\nNote: <think>tags</think> appear in the logs.`;
    expect(captureDocument(answer)).toBe(answer);
  });

  test("keeps code fences inside a fenced answer", () => {
    const inner = "## Critical Context\n```sh\nnpm test\n```\n\n## Next Steps\n~~~\nls\n~~~";
    expect(captureDocument(`\`\`\`markdown\n${inner}\n\`\`\``)).toBe(inner);
  });

  test("keeps fences in an answer that is not fenced as a whole", () => {
    const answer = "## Critical Context\n```sh\nnpm test\n```\n\n## Next Steps\nRun it.";
    expect(captureDocument(answer)).toBe(answer);
  });

  test("a fence opened with backticks is not closed by tildes", () => {
    const answer = "```\n## Goal\nx\n~~~";
    expect(captureDocument(answer)).toBe(answer);
  });

  test("leaves plain text untouched except for trimming", () => {
    const answer = "## Goal\n\n  indented line\n\ttabbed line\n\n<handoff-context> mentioned mid-text";
    expect(captureDocument(`  ${answer}\n`)).toBe(answer);
  });

  test("an empty or blank answer captures as empty", () => {
    expect(captureDocument("")).toBe("");
    expect(captureDocument(" \n\t ")).toBe("");
  });

  const MENTION =
    "## Goal\nShip it.\n\n## Critical Context\n- The wrapper ends at `</handoff-context>`; the parser in src/wrap.ts splits on it.\n\n## Next Steps\n1. Run `npm test`.";
  test.each([
    ["a mention mid-document", MENTION, MENTION],
    [
      "a mention on a line of its own",
      "## Goal\nx\n</handoff-context>\n## Next Steps\ny",
      "## Goal\nx\n</handoff-context>\n## Next Steps\ny",
    ],
    ["a mention in the last line", "## Goal\nx\n\nEnds with </handoff-context>", "## Goal\nx\n\nEnds with </handoff-context>"],
    ["a whole-answer wrapper around a document with a mention", `<handoff-context>\n${MENTION}\n</handoff-context>`, MENTION],
    [
      "a whole-answer wrapper with the sentence, around a mention",
      `<handoff-context>\n${MENTION}\n</handoff-context>\n\n${ECHO_SENTENCE}`,
      MENTION,
    ],
    [
      "a wrapper closed part way, the answer going on after it",
      `<handoff-context>\n## Goal\nx\n</handoff-context>\n\n## Next Steps\ny`,
      `<handoff-context>\n## Goal\nx\n</handoff-context>\n\n## Next Steps\ny`,
    ],
    ["an opening tag mid-document", "## Goal\nSee <handoff-context> in wrap.ts.", "## Goal\nSee <handoff-context> in wrap.ts."],
  ])("keeps the whole document: %s", (_, answer, expected) => {
    expect(captureDocument(answer)).toBe(expected);
  });
});

/**
 * What "quoted" meant when each closing tag read the answer's whole prefix again (quadratic:
 * 32,000 quoted tags took 15 s): kept here as the definition the one-pass reading must match.
 */
function quotedByDefinition(text: string, index: number): boolean {
  const before = text.slice(0, index);
  if ((before.match(/^[ \t]*(`{3,}|~{3,})/gm)?.length ?? 0) % 2 === 1) return true;
  const line = before.slice(before.lastIndexOf("\n") + 1);
  return (line.match(/`/g)?.length ?? 0) % 2 === 1;
}

/** The document by that definition: after the first closing tag that is not quoted (unless an opening tag came first). */
function documentByDefinition(answer: string): string {
  const text = answer.trim();
  if (/^<think(ing)?>/i.test(text)) return captureDocument(answer);
  for (const close of text.matchAll(/<\/think(?:ing)?>/gi)) {
    if (quotedByDefinition(text, close.index)) continue;
    return /<think(?:ing)?>/i.test(text.slice(0, close.index)) ? captureDocument(text) : captureDocument(text.slice(close.index));
  }
  return captureDocument(text);
}

describe("captureDocument reads the answer once, however many closing tags it quotes", () => {
  test("200,000 closing tags quoted in code spans, then the reasoning's end: the document after it", () => {
    const answer = `${"`</think>` ".repeat(200_000)}\n</think>\n${DOC}`;
    expect(captureDocument(answer)).toBe(DOC);
  });

  test("100,000 fenced blocks that quote the tag, then the reasoning's end", () => {
    const answer = `${"```\n</think>\n```\n".repeat(100_000)}</think>\n${DOC}`;
    expect(captureDocument(answer)).toBe(DOC);
  });

  test("random answers of fences, backticks, tildes and line breaks: quoted exactly as defined", () => {
    const pieces = ["`", "```", "~~~", " ", "\t", "\n", "\r", "\u2028", "x", "</think>", "<think>", "</THINKING>", "## Goal"];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 5000; i++) {
      const answer = Array.from({ length: next(30) }, () => pieces[next(pieces.length)]).join("");
      expect([answer, captureDocument(answer)]).toEqual([answer, documentByDefinition(answer)]);
    }
  });
});
