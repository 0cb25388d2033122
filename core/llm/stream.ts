import { isObject } from "../json.ts";
import type { TokenUsage } from "./types.ts";
import { checkedUsage, isTokenCount, tokenSum } from "./usage.ts";

/** One streamed delta, split into what may become the document and what may not. */
export interface DeltaParts {
  /** The visible answer text. */
  text: string;
  /** Reasoning text, in whatever field the provider put it; never part of the answer. */
  reasoning: string;
}

function partsText(parts: readonly unknown[]): DeltaParts {
  let text = "";
  let reasoning = "";
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string") text += part.text;
    else if (part.type === "thinking")
      reasoning += Array.isArray(part.thinking) ? partsText(part.thinking).text : typeof part.thinking === "string" ? part.thinking : "";
  }
  return { text, reasoning };
}

/**
 * A streamed `delta`: `content` as a string, or as parts (Mistral's Magistral streams thinking
 * parts beside text parts); reasoning from `reasoning_content` (DeepSeek, llama.cpp, LM Studio,
 * older vLLM) or `reasoning` (OpenRouter, Ollama, Groq, vLLM). `<think>` tags inside the text are
 * left to the capture step, which drops a leading think block.
 */
export function readDelta(delta: unknown): DeltaParts {
  if (!isObject(delta)) return { text: "", reasoning: "" };
  const content = delta.content;
  const fromContent =
    typeof content === "string"
      ? { text: content, reasoning: "" }
      : Array.isArray(content)
        ? partsText(content)
        : { text: "", reasoning: "" };
  const fields = [delta.reasoning_content, delta.reasoning].filter((r): r is string => typeof r === "string").join("");
  return { text: fromContent.text, reasoning: fromContent.reasoning + fields };
}

/**
 * Token usage from a stream chunk: the standard `usage` (sent last when `stream_options` asked
 * for it, or always, as Mistral and OpenRouter do), or Groq's `x_groq.usage`. Reasoning tokens
 * when the provider counts them (`completion_tokens_details.reasoning_tokens`). Counts that are
 * not counts (core/llm/usage.ts) mean no usage is reported; a bad reasoning count only drops it.
 */
export function readUsage(chunk: unknown): TokenUsage | undefined {
  if (!isObject(chunk)) return undefined;
  const usage = isObject(chunk.usage)
    ? chunk.usage
    : isObject(chunk.x_groq) && isObject(chunk.x_groq.usage)
      ? chunk.x_groq.usage
      : undefined;
  if (!usage) return undefined;
  const result = checkedUsage(tokenSum(usage, ["prompt_tokens"]), tokenSum(usage, ["completion_tokens"]));
  if (!result) return undefined;
  const details = usage.completion_tokens_details;
  const reasoningTokens = isObject(details) ? details.reasoning_tokens : undefined;
  if (isTokenCount(reasoningTokens)) result.reasoningTokens = reasoningTokens;
  return result;
}
