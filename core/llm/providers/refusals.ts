/**
 * What an endpoint's refusal means, read from its status and its body as it came: the prompt was
 * larger than the window (we plan smaller and try again), or one parameter was refused (we try
 * once without it). Each wording is one a provider documents or a public issue quotes; see the
 * profiles in hosted.ts and local.ts for the sources.
 */

export type Refusal = { kind: "context_length" } | { kind: "unsupported_parameter"; param: string };

/** Every provider's way of saying the prompt does not fit. */
const CONTEXT_LENGTH: readonly RegExp[] = [
  /context_length_exceeded/i, // OpenAI, Groq (the code)
  /maximum context length/i, // OpenAI, DeepSeek, vLLM, OpenRouter ("This endpoint's maximum context length")
  /context window of this model/i, // OpenAI, newer wording
  /reduce the length of the messages/i, // Groq (message alone), OpenAI
  /prompt is too long/i, // Anthropic
  /exceed context limit/i, // Anthropic ("input length and `max_tokens` exceed context limit")
  /input token count.{0,40}exceeds the maximum/i, // Google Gemini
  /exceed_context_size_error|exceeds the available context size/i, // llama.cpp
  /when context the overflows|loaded with context length of only/i, // LM Studio
  /n_keep[^a-z]{0,20}n_ctx|greater than the context length/i, // LM Studio, llama.cpp
  /context size has been exceeded/i, // LM Studio (MLX)
  /exceeds? (the )?context length/i, // Ollama ("input exceeds context length")
  /longer than the maximum model length/i, // vLLM ("The decoder prompt … is longer than …")
  /too many tokens/i,
];

const CONTEXT_STATUSES = new Set([400, 413, 422, 500]);

/**
 * What the request must look like to be taken, said of its turns rather than of one parameter.
 * Each maps to a rule in turns.ts, under a name `fallbackFor` (adapt.ts) knows: an endpoint
 * nobody documented (a proxy, OpenRouter, vLLM serving a Mistral model) teaches it by refusing.
 */
const TURN_RULES: readonly [RegExp, string][] = [
  [/Unexpected role '?user'? after role '?tool'?/i, "messages[].role"], // Mistral, mistral-common
  [/reasoning_content\W{0,3} in the thinking mode must be passed back/i, "messages[].reasoning_content"], // DeepSeek
];

/** Ways of naming the one parameter that was refused; the first group is its name. */
const REFUSED_PARAMETER: readonly RegExp[] = [
  /Unsupported parameter: '([^']+)'/i, // OpenAI
  /Unsupported value: '([^']+)' does not support/i, // OpenAI ('temperature', 'messages[0].role')
  /"loc":\s*\[\s*"body",\s*"([^"]+)"[^\]]*\][^}]*(?:extra_forbidden|Extra inputs are not permitted)/i, // Mistral, pydantic servers
  /(?:extra_forbidden|Extra inputs are not permitted)[^}]*"loc":\s*\[\s*"body",\s*"([^"]+)"/i,
  /Unrecognized request arguments? supplied: ([\w.]+)/i, // Azure-style proxies
  /Unknown (?:parameter|field|name|argument)[:\s]+\\?["'`]?([\w.[\]]+)/i, // Google ("Unknown name \"stream_options\"")
  /\\?["'`]?([a-z_][\w.[\]]*)\\?["'`]? (?:is|are) not (?:supported|permitted|allowed)/i, // "tools is not supported in this model"
  /"param":\s*"([^"]+)"[^}]*"code":\s*"unsupported_(?:parameter|value)"/i,
  /"code":\s*"unsupported_(?:parameter|value)"[^}]*"param":\s*"([^"]+)"/i,
];

/**
 * The refusal `body` (as the endpoint sent it) stands for, if any. Context-length wording wins:
 * a request too large for the window is never fixed by dropping a parameter.
 */
export function classifyRefusal(status: number, body: string): Refusal | undefined {
  // 429 is a rate limit ("too many tokens per minute"), never a window; llama.cpp once sent 500.
  if (CONTEXT_STATUSES.has(status) && CONTEXT_LENGTH.some((re) => re.test(body))) return { kind: "context_length" };
  if (status !== 400 && status !== 422) return undefined;
  for (const [re, param] of TURN_RULES) if (re.test(body)) return { kind: "unsupported_parameter", param };
  for (const re of REFUSED_PARAMETER) {
    const param = re.exec(body)?.[1];
    if (param) return { kind: "unsupported_parameter", param };
  }
  // An endpoint that takes only `tool_choice: "auto"` rarely says it any other way.
  if (/tool_choice/i.test(body)) return { kind: "unsupported_parameter", param: "tool_choice" };
  return undefined;
}
