import { KNOWN_REASONING_MODELS, type ProviderProfile } from "./profile.ts";

/**
 * OpenAI.
 * - https://platform.openai.com/docs/api-reference/chat/create — `max_tokens` is "deprecated in
 *   favor of max_completion_tokens, and is not compatible with o-series models";
 *   `max_completion_tokens` bounds "visible output tokens and reasoning tokens"; "With o1 models
 *   and newer, developer messages replace the previous system messages"; `reasoning_effort`
 *   (none|minimal|low|medium|high); `stream_options.include_usage`.
 * - The refusal, as openai/openai-python#2046 quotes it: 400 {"error":{"message":"Unsupported
 *   parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens'
 *   instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}.
 * - temperature on reasoning models, as OpenHands/OpenHands#4131 quotes it: "Unsupported value:
 *   'temperature' does not support 0.0 with this model. Only the default (1) value is supported."
 * - Reasoning text is not returned by Chat Completions; its tokens are counted in
 *   usage.completion_tokens_details.reasoning_tokens (https://platform.openai.com/docs/guides/reasoning).
 * - Window errors: "This model's maximum context length is … (code context_length_exceeded)"
 *   (mckaywrigley/chatbot-ui#102); "Your input exceeds the context window of this model. Please
 *   adjust your input and try again." (anomalyco/opencode#6071).
 */
export const OPENAI: ProviderProfile = {
  id: "openai",
  name: "OpenAI",
  outputLimit: "max_completion_tokens",
  reasoningModels: /^(o\d|gpt-5|codex-mini)/i,
  reasoningInstructionsRole: "developer",
  streamOptions: true,
  toolChoiceNone: true,
  reasoningIn: ["hidden"],
  temperatureOnReasoningModels: "refused",
  lowEffort: { field: "reasoning_effort", value: "low", models: /^(o\d|gpt-5(?!.*-pro))/i },
  contextLengthWording: [
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens. Please reduce the length of the messages.",
    "Your input exceeds the context window of this model. Please adjust your input and try again.",
  ],
};

/**
 * OpenRouter.
 * - https://openrouter.ai/docs/api-reference/overview — `max_tokens`, `tools`, `tool_choice`.
 * - https://openrouter.ai/docs/use-cases/reasoning-tokens — reasoning text arrives in the
 *   `reasoning` field (and `reasoning_details`); `reasoning: {effort: "low"}` asks for less;
 *   "Reasoning tokens are considered output tokens".
 * - https://openrouter.ai/docs/client-sdks/typescript/models/chatstreamoptions — include_usage
 *   "has no effect. Full usage details are always included."
 * - https://openrouter.ai/docs/api-reference/errors-and-debugging — {"error":{"code":400,"message":…,"metadata":…}}.
 * - Window errors: "This endpoint's maximum context length is 32768 tokens. However, you
 *   requested about 42832 tokens …" (refly-ai/refly#1177).
 */
export const OPENROUTER: ProviderProfile = {
  id: "openrouter",
  name: "OpenRouter",
  outputLimit: "max_tokens",
  // Every model it routes to, by family (`openai/gpt-5`, `qwen/qwen3-32b`), and OpenRouter's `:thinking` variants.
  reasoningModels: new RegExp(`${KNOWN_REASONING_MODELS.source}|:thinking$`, "i"),
  reasoningInstructionsRole: "system",
  streamOptions: false,
  toolChoiceNone: true,
  reasoningIn: ["reasoning"],
  temperatureOnReasoningModels: "undocumented",
  lowEffort: { field: "reasoning.effort", value: "low" },
  contextLengthWording: [
    'This endpoint\'s maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
  ],
};

/**
 * Anthropic's OpenAI SDK compatibility layer (base URL https://api.anthropic.com/v1/).
 * - https://platform.claude.com/docs/en/api/openai-sdk — `max_tokens` and `max_completion_tokens`
 *   "Fully supported"; `stream_options` "Fully supported"; `reasoning_effort` "Ignored"; system
 *   and developer messages are hoisted into one system prompt; extended thinking only through
 *   `extra_body`, and "the OpenAI SDK won't return Claude's detailed thought process";
 *   temperature between 0 and 1.
 * - Window errors: {"type":"error","error":{"type":"invalid_request_error","message":"prompt is
 *   too long: 208310 tokens > 200000 maximum"}} (anthropics/claude-code#12186); "input length and
 *   `max_tokens` exceed context limit: 199759 + 8192 > 200000 …" (continuedev/continue#6080).
 */
export const ANTHROPIC: ProviderProfile = {
  id: "anthropic",
  name: "Anthropic",
  outputLimit: "max_tokens",
  // Claude thinks only when asked to through extra_body, which we never send.
  reasoningModels: undefined,
  reasoningInstructionsRole: "system",
  streamOptions: true,
  toolChoiceNone: true,
  reasoningIn: ["hidden"],
  temperatureOnReasoningModels: "accepted",
  contextLengthWording: [
    "prompt is too long: 208310 tokens > 200000 maximum",
    "input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again",
  ],
};

/**
 * Google's Gemini OpenAI compatibility (base URL https://generativelanguage.googleapis.com/v1beta/openai/).
 * - https://ai.google.dev/gemini-api/docs/openai — `reasoning_effort` "low", "medium", "high"
 *   map to 1K, 8K and 24K thinking tokens ("none" turns thinking off); thought summaries only
 *   with `extra_body.google.thinking_config.include_thoughts`, which we never send.
 * - https://ai.google.dev/gemini-api/docs/thinking — the 2.5 series and later think by default.
 * - Window errors come as a JSON array: [{"error":{"code":400,"message":"The input token count
 *   (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]
 *   (google-gemini/gemini-cli#6678).
 */
export const GOOGLE: ProviderProfile = {
  id: "google",
  name: "Google Gemini",
  outputLimit: "max_tokens",
  reasoningModels: /gemini-(2\.5|[3-9])/i,
  reasoningInstructionsRole: "system",
  streamOptions: true,
  toolChoiceNone: true,
  reasoningIn: ["hidden"],
  temperatureOnReasoningModels: "accepted",
  lowEffort: { field: "reasoning_effort", value: "low" },
  contextLengthWording: ["The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."],
};

/**
 * DeepSeek.
 * - https://api-docs.deepseek.com/guides/thinking_mode — the current models (deepseek-v4-flash,
 *   deepseek-v4-pro) think by default (`{"thinking": {"type": "enabled/disabled"}}`), reasoning
 *   arrives in `reasoning_content`; `reasoning_effort` low|high|max ("minimal" and "low" map to
 *   low); temperature and the penalties "will not trigger an error but will also have no effect";
 *   the reasoning_content of turns that called tools "must be passed back to the API" in every
 *   later request, else 400 "The reasoning_content in the thinking mode must be passed back to the
 *   API." (anomalyco/opencode#24722, #24901).
 * - https://api-docs.deepseek.com/quick_start/pricing — "deepseek-chat and deepseek-reasoner …
 *   correspond to the non-thinking mode and thinking mode of deepseek-v4-flash"; max output 384K,
 *   thinking included.
 * - https://api-docs.deepseek.com/api/create-chat-completion — `stream_options.include_usage`,
 *   `tool_choice` none|auto|required.
 * - https://api-docs.deepseek.com/quick_start/error_codes — 400 invalid format, 422 invalid parameters.
 * - Window errors, OpenAI's wording (musistudio/claude-code-router#895): "This model's maximum
 *   context length is 131072 tokens. However, you requested 131329 tokens (123137 in the
 *   messages, 8192 in the completion). Please reduce the length of the messages or completion."
 */
export const DEEPSEEK: ProviderProfile = {
  id: "deepseek",
  name: "DeepSeek",
  outputLimit: "max_tokens",
  // Thinking is the default: every model but the non-thinking alias reasons.
  reasoningModels: /^(?!deepseek-chat$)/i,
  reasoningInstructionsRole: "system",
  streamOptions: true,
  toolChoiceNone: true,
  reasoningIn: ["reasoning_content"],
  temperatureOnReasoningModels: "ignored",
  lowEffort: { field: "reasoning_effort", value: "low" },
  contextLengthWording: [
    "This model's maximum context length is 131072 tokens. However, you requested 131329 tokens (123137 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
  ],
  wantsReasoningBack: true,
};

/**
 * Groq (base URL https://api.groq.com/openai/v1).
 * - https://console.groq.com/docs/openai — logprobs, logit_bias, top_logprobs, messages[].name
 *   and n ≠ 1 "will result in a 400 error".
 * - https://console.groq.com/docs/api-reference — `max_completion_tokens` (`max_tokens`
 *   deprecated), `tool_choice` none|auto|required.
 * - https://console.groq.com/docs/reasoning — `reasoning_format`: `parsed` puts reasoning in a
 *   `reasoning` field, `raw` keeps `<think>` tags in the content (the default, except with tools
 *   or JSON mode); `reasoning_effort` low|medium|high on gpt-oss.
 * - Window errors: {"error":{"message":"Please reduce the length of the messages or
 *   completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}
 *   (OpenHands/OpenHands#1902).
 */
export const GROQ: ProviderProfile = {
  id: "groq",
  name: "Groq",
  outputLimit: "max_completion_tokens",
  reasoningModels: KNOWN_REASONING_MODELS,
  reasoningInstructionsRole: "system",
  streamOptions: true,
  toolChoiceNone: true,
  reasoningIn: ["reasoning", "think_tags"],
  temperatureOnReasoningModels: "accepted",
  lowEffort: { field: "reasoning_effort", value: "low", models: /gpt-oss/i },
  contextLengthWording: ["Please reduce the length of the messages or completion."],
};

/**
 * Mistral (base URL https://api.mistral.ai/v1).
 * - https://docs.mistral.ai/api — `max_tokens`; `tool_choice` none|auto|any|required; usage
 *   comes in the last chunk.
 * - Refuses fields it does not know with 422 {"object":"error","message":{"detail":[{"type":
 *   "extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not
 *   permitted",…}]},"type":"invalid_request_error",…} — stream_options (dnakov/anon-kode#53),
 *   max_completion_tokens (editor-code-assistant/eca#231).
 * - https://docs.mistral.ai/capabilities/reasoning — Magistral models always reason; the content
 *   arrives as parts, {"type":"thinking","thinking":[…]} beside {"type":"text",…}
 *   (braintrustdata/braintrust-sdk-javascript#1857).
 * - Tool call ids must be 9 letters and digits: 400 {"object":"error","message":"Tool call id was
 *   abc123 but must be a-z, A-Z, 0-9, with a length of 9.","type":"invalid_request_error",…}
 *   (langchain-ai/langchain#24668, jackmpcollins/magentic#276); every id we send has that form
 *   (messages.ts), for every provider.
 * - After a tool turn only an assistant or another tool turn: 400 {"object":"error","message":
 *   "Unexpected role 'user' after role 'tool'","type":"invalid_request_message_order","param":
 *   null,"code":"3230"} (avante-corp/avante.nvim#2562, datapizza-labs/datapizza-ai#98; the rule
 *   is mistral-common's validator, mistralai/mistral-common#169).
 */
export const MISTRAL: ProviderProfile = {
  id: "mistral",
  name: "Mistral",
  outputLimit: "max_tokens",
  reasoningModels: /magistral/i,
  reasoningInstructionsRole: "system",
  streamOptions: false,
  toolChoiceNone: true,
  reasoningIn: ["content_parts"],
  temperatureOnReasoningModels: "accepted",
  contextLengthWording: [],
  refusesUserAfterTool: true,
};
