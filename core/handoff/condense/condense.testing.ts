/** Contexts for the condense tests, built in memory: deterministic, any size. */
import { messageText, type AssistantBlock, type ContextMessage, type UserBlock } from "../../session/messages.ts";

const WORDS = ["parser", "token", "export", "src/lib/csv.ts", "vitest", "quote", "row", "column", "buffer", "stream", "schema", "retry"];

/** About `chars` characters of text in lines, different for each `seed`. */
export function filler(chars: number, seed: string): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const words = Array.from({ length: 10 }, (_, k) => WORDS[(i * 7 + k * 3 + seed.length) % WORDS.length]);
    const line = `${seed}:${i} ${words.join(" ")}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n").slice(0, chars);
}

export function userMessage(entryId: string, text: string, images = 0): ContextMessage {
  const content: UserBlock[] = [{ type: "text", text }];
  for (let i = 0; i < images; i++) content.push({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
  return { role: "user", kind: "user", content, entryId };
}

export function assistantMessage(
  entryId: string,
  text: string,
  calls: { id: string; name: string; arguments: unknown }[] = [],
  thinking?: string,
): ContextMessage {
  const content: AssistantBlock[] = [];
  if (thinking !== undefined) content.push({ type: "thinking", thinking });
  if (text !== "") content.push({ type: "text", text });
  for (const call of calls) content.push({ type: "toolCall", ...call });
  return { role: "assistant", content, provider: "anthropic", model: "claude", stopReason: calls.length > 0 ? "toolUse" : "stop", entryId };
}

export function toolResultMessage(entryId: string, toolCallId: string, toolName: string, text: string): ContextMessage {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError: false, entryId };
}

export interface WorkSessionOptions {
  /** Rounds of work: an assistant turn calling tools, and the results. */
  rounds: number;
  /** A user request opens every this many rounds. */
  requestEvery: number;
  /** Characters of one ordinary tool result; every fifth is four times as long. */
  resultChars: number;
  /** Reuse call ids in every round (`call_0`), as some models do. */
  reuseIds?: boolean;
}

/**
 * A coding session: user requests (`REQUEST-<round>`), each followed by rounds of tool calls
 * (every third round calls two tools at once) and their results, and a closing reply.
 */
export function workSession(options: WorkSessionOptions): ContextMessage[] {
  const context: ContextMessage[] = [];
  for (let r = 0; r < options.rounds; r++) {
    if (r % options.requestEvery === 0)
      context.push(userMessage(`u${r}`, `REQUEST-${r}: make the parser in src/lib/csv.ts handle case ${r}, and keep its API`));
    const calls = Array.from({ length: r % 3 === 0 ? 2 : 1 }, (_, k) => ({
      id: options.reuseIds ? `call_${k}` : `call_${r}_${k}`,
      name: k === 0 ? "read" : "bash",
      arguments: k === 0 ? { path: `src/lib/part-${r}.ts` } : { command: `npm test -- case-${r}` },
    }));
    context.push(assistantMessage(`a${r}`, r % 2 === 0 ? `Looking at part ${r}.` : "", calls, `thinking about ${r}`));
    for (const [k, call] of calls.entries()) {
      const chars = r % 5 === 4 ? options.resultChars * 4 : options.resultChars;
      context.push(toolResultMessage(`t${r}_${k}`, call.id, call.name, filler(chars, `out-${r}-${k}`)));
    }
    if (r % options.requestEvery === options.requestEvery - 1) context.push(assistantMessage(`d${r}`, `DONE-${r}: case ${r} works now.`));
  }
  return context;
}

/** The text a person typed, for each user request in a context. */
export function userRequests(context: readonly ContextMessage[]): string[] {
  return context.flatMap((m) => (m.role === "user" && m.kind === "user" ? [messageText(m)] : []));
}
