import { stripEchoedWrapper } from "./wrap.ts";

/**
 * Turns a model's answer into the document. Open models often wrap their answer: a leading
 * `<think>` block, a code fence around the whole reply, or an echo of the `<handoff-context>`
 * wrapper the new session will use around the whole reply. Each is removed; what is left is trimmed.
 */
export function captureDocument(answer: string): string {
  let text = answer.trim();

  if (/^<think(ing)?>/i.test(text)) {
    const close = /<\/think(ing)?>/i.exec(text);
    // An unclosed think block means the model never got to the answer.
    text = close ? text.slice(close.index + close[0].length).trim() : "";
  }

  const fenced = /^(`{3,}|~{3,})[\w-]*[ \t]*\n([\s\S]*?)\n\1[ \t]*$/.exec(text);
  if (fenced?.[2] !== undefined) text = fenced[2].trim();

  return stripEchoedWrapper(text);
}
