import type { ReasoningEffort } from "../types.ts";

/**
 * What we know about one provider's OpenAI-compatible Chat Completions endpoint: only facts the
 * provider documents (or a public issue shows), each cited beside its profile in hosted.ts and
 * local.ts. A fact nobody documents is left out; the adaptive fallbacks (adapt.ts) learn it
 * from the endpoint's own refusal instead.
 */

export type ProviderId =
  | "openai"
  | "openrouter"
  | "anthropic"
  | "google"
  | "deepseek"
  | "groq"
  | "mistral"
  | "ollama"
  | "vllm"
  | "llamacpp"
  | "lmstudio"
  | "generic";

/** Where a provider streams reasoning text (none of it ever enters the document). */
export type ReasoningChannel =
  /** `delta.reasoning_content` (DeepSeek, vLLM before 0.11, llama.cpp, LM Studio). */
  | "reasoning_content"
  /** `delta.reasoning` (OpenRouter, Ollama, Groq's `parsed` format, vLLM 0.11+). */
  | "reasoning"
  /** `<think>…</think>` at the start of the content (raw formats of open models). */
  | "think_tags"
  /** `delta.content` as an array of parts, thinking parts beside text parts (Mistral's Magistral). */
  | "content_parts"
  /** Not returned at all; only counted in usage (OpenAI, Anthropic's and Google's compat layers by default). */
  | "hidden";

/** How a provider asks for less reasoning, when it documents a way. */
export type EffortField = "reasoning_effort" | "reasoning.effort";

/** A local server: where it listens by default, how it is usually started, and how it gets a model to serve. */
export interface LocalServer {
  port: number;
  start: string;
  /** What to do when it serves no model, as the end of a sentence: "pull one with `ollama pull <model>`". */
  addModel: string;
}

export interface ProviderProfile {
  id: ProviderId;
  /** The provider's name, for messages. */
  name: string;
  /** The output-limit field it takes for ordinary models. */
  outputLimit: "max_tokens" | "max_completion_tokens";
  /** Models that reason before answering: their output limit includes the reasoning. */
  reasoningModels: RegExp | undefined;
  /** The output-limit field for reasoning models, when it differs from `outputLimit`. */
  reasoningOutputLimit?: "max_tokens" | "max_completion_tokens";
  /** The role reasoning models take instructions in (`system` for everyone else). */
  reasoningInstructionsRole: "system" | "developer";
  /** Accepts `stream_options: {include_usage}`. `false`: refused, or documented as having no effect. */
  streamOptions: boolean;
  /** Accepts `tool_choice: "none"` (the only value we send). */
  toolChoiceNone: boolean;
  /** Where reasoning text arrives. */
  reasoningIn: readonly ReasoningChannel[];
  /** What a `temperature` other than the default does on reasoning models (we never send one). */
  temperatureOnReasoningModels: "refused" | "ignored" | "accepted" | "undocumented";
  /** How to ask reasoning models for low effort, and which models take it. */
  lowEffort?: { field: EffortField; value: ReasoningEffort; models?: RegExp };
  /** How the provider words a prompt larger than the window (quoted; the fakes and tests use them). */
  contextLengthWording: readonly string[];
  /** Set for servers people run on their own machine. */
  local?: LocalServer;
  /** Refuses a `user` turn right after a `tool` turn: a short assistant turn goes between (turns.ts). */
  refusesUserAfterTool?: true;
  /** Reasoning models want each earlier assistant turn's `reasoning_content` back (turns.ts). */
  wantsReasoningBack?: true;
}

/**
 * Families of open-weight models that think before answering, whoever serves them (Qwen3 and
 * QwQ, DeepSeek-R1, gpt-oss, Magistral, Phi-4-reasoning, and any name saying "thinking").
 */
export const OPEN_REASONING_MODELS = /(qwen3|qwq|deepseek-r1|r1-distill|gpt-oss|magistral|phi-4-reasoning|thinking|reason)/i;

/** OpenAI's reasoning models (o-series, gpt-5, codex-mini), by name or after a vendor prefix (`openai/`, `azure/`). */
const OPENAI_REASONING = String.raw`(?:^|/)(?:o\d|gpt-5|codex-mini)`;

/**
 * Every family known to think before answering, whatever host serves it: OpenAI's (behind
 * Azure, LiteLLM or any proxy a model keeps its name), the open-weight ones, Gemini 2.5 and
 * later (https://ai.google.dev/gemini-api/docs/thinking: they think by default) and DeepSeek V4
 * (https://api-docs.deepseek.com/guides/thinking_mode: thinking is on by default). An endpoint
 * that documents nothing sizes its output limit by this: the room to think costs nothing when a
 * model does not use it, and its absence costs the whole answer when it does.
 */
export const KNOWN_REASONING_MODELS = new RegExp(
  `${OPENAI_REASONING}|${OPEN_REASONING_MODELS.source}|gemini-(?:2\\.5|[3-9])|deepseek-v4`,
  "i",
);

/** An endpoint we know nothing about: the plain request, adaptive fallbacks, no assumptions. */
export const GENERIC: ProviderProfile = {
  id: "generic",
  name: "the endpoint",
  outputLimit: "max_tokens",
  reasoningModels: KNOWN_REASONING_MODELS,
  reasoningInstructionsRole: "system",
  streamOptions: true,
  toolChoiceNone: true,
  reasoningIn: ["reasoning_content", "reasoning", "think_tags", "content_parts"],
  temperatureOnReasoningModels: "undocumented",
  contextLengthWording: [],
};

/** True when `model` reasons before answering on this provider. */
export function isReasoningModel(profile: ProviderProfile, model: string): boolean {
  return profile.reasoningModels?.test(model) ?? false;
}
