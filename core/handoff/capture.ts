import { stripEchoedWrapper } from "./wrap.ts";

const OPENING_TAG = /<think(?:ing)?>/i;
const CLOSING_TAG = /<\/think(?:ing)?>/gi;

/**
 * Whether a position sits inside a fenced block or an inline code span (text the document
 * quotes), asked of positions in increasing order: one pass over the text in all, however many
 * positions are asked (a prefix read again for each was quadratic: 32,000 quoted tags took 15 s).
 * A fence is a line (after any line terminator) that opens with three backticks or tildes after
 * blanks; an odd number of fences before the position opens a block, an odd number of backticks
 * before it on its line (after the last newline) opens a span.
 */
function codeTracker(text: string): (index: number) => boolean {
  let at = 0;
  let fences = 0;
  let ticks = 0;
  /** The current line so far: still blanks, in its opening run of `run` fence characters, or past that. */
  let lead: "blank" | "run" | "past" = "blank";
  let runChar = "";
  let run = 0;
  const endLine = () => {
    if (run >= 3) fences++;
    lead = "blank";
    run = 0;
  };
  return (index) => {
    for (; at < index; at++) {
      const c = text[at];
      if (c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") {
        endLine();
        if (c === "\n") ticks = 0;
        continue;
      }
      if (c === "`") ticks++;
      if (lead === "blank" && (c === "`" || c === "~")) {
        lead = "run";
        runChar = c;
        run = 1;
      } else if (lead === "run" && c === runChar) run++;
      else if (lead !== "blank" || (c !== " " && c !== "\t")) lead = "past";
    }
    return (fences + (run >= 3 ? 1 : 0)) % 2 === 1 || ticks % 2 === 1;
  };
}

/**
 * The answer without the model's reasoning, when the reasoning came inside the text:
 * - a leading `<think>…</think>` block (an unclosed one means the model never got to the answer);
 * - everything up to a closing tag that no opening tag precedes. The chat templates of
 *   DeepSeek-R1 and its distills write the opening `<think>` into the prompt themselves, so a
 *   server without a reasoning parser (llama.cpp `--reasoning-format none`, vLLM or Ollama
 *   without one) streams the reasoning and only its end tag (vllm-project/vllm#13125,
 *   deepseek-ai/DeepSeek-R1#352 and #526, open-webui/open-webui#9808). A closing tag the
 *   document quotes, in a code span or block, is text.
 */
function withoutReasoning(text: string): string {
  if (/^<think(ing)?>/i.test(text)) {
    const close = /<\/think(ing)?>/i.exec(text);
    return close ? text.slice(close.index + close[0].length).trim() : "";
  }
  const insideCode = codeTracker(text);
  for (const close of text.matchAll(CLOSING_TAG)) {
    if (insideCode(close.index)) continue;
    if (OPENING_TAG.test(text.slice(0, close.index))) return text;
    return text.slice(close.index + close[0].length).trim();
  }
  return text;
}

/**
 * Turns a model's answer into the document. Open models often wrap their answer: reasoning
 * before it (see `withoutReasoning`), a code fence around the whole reply, or an echo of the
 * `<handoff-context>` wrapper the new session will use around the whole reply. Each is
 * removed; what is left is trimmed.
 */
export function captureDocument(answer: string): string {
  let text = withoutReasoning(answer.trim());

  const fenced = /^(`{3,}|~{3,})[\w-]*[ \t]*\n([\s\S]*?)\n\1[ \t]*$/.exec(text);
  if (fenced?.[2] !== undefined) text = fenced[2].trim();

  return stripEchoedWrapper(text);
}
