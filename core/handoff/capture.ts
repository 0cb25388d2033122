import { stripEchoedWrapper } from "./wrap.ts";

const OPENING_TAG = /<think(?:ing)?>/i;
const CLOSING_TAG = /<\/think(?:ing)?>/gi;

/** True when `index` sits inside a fenced block or an inline code span: text the document quotes. */
function insideCode(text: string, index: number): boolean {
  const before = text.slice(0, index);
  if ((before.match(/^[ \t]*(`{3,}|~{3,})/gm)?.length ?? 0) % 2 === 1) return true;
  const line = before.slice(before.lastIndexOf("\n") + 1);
  return (line.match(/`/g)?.length ?? 0) % 2 === 1;
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
  for (const close of text.matchAll(CLOSING_TAG)) {
    if (insideCode(text, close.index)) continue;
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
