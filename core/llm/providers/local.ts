import { KNOWN_REASONING_MODELS, type ProviderProfile } from "./profile.ts";

/**
 * What every local server below takes alike, as each one's documentation (cited per server) says:
 * OpenAI's `max_tokens`, `stream_options`, `tool_choice: "none"`, a system message for a
 * reasoning model's instructions, and reasoning models known by name.
 */
const LOCAL_SERVER: Pick<
  ProviderProfile,
  "outputLimit" | "reasoningModels" | "reasoningInstructionsRole" | "streamOptions" | "toolChoiceNone"
> = {
  outputLimit: "max_tokens",
  reasoningModels: KNOWN_REASONING_MODELS,
  reasoningInstructionsRole: "system",
  streamOptions: true,
  toolChoiceNone: true,
};

/**
 * Ollama (http://localhost:11434/v1).
 * - https://docs.ollama.com/api/openai-compatibility — supported fields include `max_tokens`,
 *   `stream_options.include_usage`, `tools`, `tool_choice` and `reasoning_effort`.
 * - Thinking models stream their reasoning in `delta.reasoning` (the wire capture in
 *   dirac-run/dirac#227: {"delta":{"content":"","reasoning":"We"}}).
 * - A prompt over the context length (`num_ctx`, often far below the model's maximum) is cut
 *   silently, oldest first, and no error is returned (ollama/ollama#4967, #2208; the FAQ's
 *   "How can I specify the context window size?"): set --context-window to num_ctx.
 * - Started with `ollama serve` (the desktop app starts it too).
 * - `GET /v1/models` lists the pulled models, embedding models included, as
 *   `{"object":"list","data":[{"id":"qwen3:8b","object":"model","created":…,"owned_by":"library"}]}`,
 *   and `"data":null` when none is pulled (ToListCompletion in ollama's openai/openai.go).
 */
export const OLLAMA: ProviderProfile = {
  id: "ollama",
  name: "Ollama",
  ...LOCAL_SERVER,
  reasoningIn: ["reasoning", "think_tags"],
  temperatureOnReasoningModels: "accepted",
  contextLengthWording: [],
  local: { port: 11434, start: "ollama serve", addModel: "pull one with `ollama pull <model>`" },
};

/**
 * vLLM (http://localhost:8000/v1, `vllm serve <model>`).
 * - https://docs.vllm.ai/en/latest/features/reasoning_outputs/ — with `--reasoning-parser`,
 *   reasoning arrives in `reasoning` ("reasoning used to be called reasoning_content"); without
 *   one, as `<think>` tags in the content.
 * - https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html — "We support all
 *   parameters" of OpenAI's API (so `max_tokens`, `stream_options`); older releases excepted
 *   `tools` and `tool_choice`, which the adaptive fallback (adapt.ts) copes with.
 * - Errors: {"object":"error","message":"…","type":"BadRequestError","param":null,"code":400}
 *   (vllm-project/vllm#4667), lately {"error":{…}}; window wording "This model's maximum context
 *   length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000
 *   in the completion)…" (vllm-project/vllm#20409) and "…your request has 8 input tokens plus
 *   2045 'max_tokens'. Please reduce one or the other." (vllm-project/vllm#33425).
 * - `GET /v1/models` lists the model it serves (by `--served-model-name`, else its path or Hugging
 *   Face id) and any LoRA adapters, with `"owned_by":"vllm"`, `root`, `parent`, `max_model_len`.
 */
export const VLLM: ProviderProfile = {
  id: "vllm",
  name: "vLLM",
  ...LOCAL_SERVER,
  reasoningIn: ["reasoning", "reasoning_content", "think_tags"],
  temperatureOnReasoningModels: "accepted",
  contextLengthWording: [
    "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.",
    "This model's maximum context length is 2048 tokens. However, your request has 8 input tokens plus 2045 'max_tokens'. Please reduce one or the other.",
  ],
  local: { port: 8000, start: "vllm serve <model>", addModel: "vLLM serves the model it is started with (`vllm serve <model>`)" },
};

/**
 * llama.cpp's llama-server (http://localhost:8080/v1).
 * - https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md — started with
 *   `llama-server -m <model.gguf>`, listens on 8080; `--reasoning-format deepseek` puts reasoning
 *   in `reasoning_content`, `none` leaves `<think>` tags in the content; `-c` sets the window.
 * - Window errors (ggml-org/llama.cpp#15780, #17284): {"error":{"code":400,"message":"the request
 *   exceeds the available context size, try increasing it","type":"exceed_context_size_error",
 *   "n_prompt_tokens":1407,"n_ctx":256}}.
 * - `GET /v1/models` lists the one model it serves (its `--alias`, else the file's path), with
 *   `"owned_by":"llamacpp"` and a `meta` object; newer builds add an Ollama-style `models` array.
 */
export const LLAMACPP: ProviderProfile = {
  id: "llamacpp",
  name: "llama.cpp",
  ...LOCAL_SERVER,
  reasoningIn: ["reasoning_content", "think_tags"],
  temperatureOnReasoningModels: "accepted",
  contextLengthWording: ["the request exceeds the available context size, try increasing it"],
  local: {
    port: 8080,
    start: "llama-server -m <model.gguf>",
    addModel: "llama.cpp serves the model it is started with (`llama-server -m <model.gguf>`)",
  },
};

/**
 * LM Studio (http://localhost:1234/v1).
 * - https://lmstudio.ai/docs/cli/server-start — started with `lms server start` (or the
 *   Developer tab's "Start server"); https://lmstudio.ai/docs/developer/core/server.
 * - https://lmstudio.ai/docs/developer/openai-compat/chat-completions — OpenAI's Chat Completions
 *   with `max_tokens` and tools; reasoning separated into `reasoning_content` since 0.3.9
 *   (https://lmstudio.ai/docs/developer), else left as `<think>` tags in the content.
 * - Window errors, with `error` a plain string: "Trying to keep the first 15857 tokens when context
 *   the overflows. However, the model is loaded with context length of only 4096 tokens, which is
 *   not enough. Try to load the model with a larger context length, or provide a shorter input"
 *   (lmstudio-ai/lmstudio-bug-tracker#237); "The number of tokens to keep from the initial prompt
 *   is greater than the context length (n_keep: 10247 >= n_ctx: 4096)…" (tinyhumansai/openhuman#3550).
 * - `GET /v1/models` lists the loaded models; with just-in-time loading on, every downloaded one
 *   (https://lmstudio.ai/docs/app/api/headless), embedding models included. Models are
 *   fetched with `lms get <model>` and loaded with `lms load <model>` (https://lmstudio.ai/docs/cli).
 */
export const LMSTUDIO: ProviderProfile = {
  id: "lmstudio",
  name: "LM Studio",
  ...LOCAL_SERVER,
  reasoningIn: ["reasoning_content", "think_tags"],
  temperatureOnReasoningModels: "accepted",
  contextLengthWording: [
    "Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
    "The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 10247 >= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter prompt.",
  ],
  local: { port: 1234, start: "lms server start", addModel: "load one with `lms load <model>` (download it first with `lms get <model>`)" },
};
