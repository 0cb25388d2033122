import { ANTHROPIC, DEEPSEEK, GOOGLE, GROQ, MISTRAL, OPENAI, OPENROUTER } from "./hosted.ts";
import { LLAMACPP, LMSTUDIO, OLLAMA, VLLM } from "./local.ts";
import { GENERIC, type ProviderId, type ProviderProfile } from "./profile.ts";

/** Every profile, by id (what `--provider` takes). */
export const PROFILES: Readonly<Record<ProviderId, ProviderProfile>> = {
  openai: OPENAI,
  openrouter: OPENROUTER,
  anthropic: ANTHROPIC,
  google: GOOGLE,
  deepseek: DEEPSEEK,
  groq: GROQ,
  mistral: MISTRAL,
  ollama: OLLAMA,
  vllm: VLLM,
  llamacpp: LLAMACPP,
  lmstudio: LMSTUDIO,
  generic: GENERIC,
};

export const PROVIDER_IDS: readonly string[] = Object.keys(PROFILES);

export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(PROFILES, value);
}

/** Hosted APIs, by the host their documentation gives. */
const HOSTS: readonly [string, ProviderProfile][] = [
  ["api.openai.com", OPENAI],
  ["openrouter.ai", OPENROUTER],
  ["api.anthropic.com", ANTHROPIC],
  ["generativelanguage.googleapis.com", GOOGLE],
  ["api.deepseek.com", DEEPSEEK],
  ["api.groq.com", GROQ],
  ["api.mistral.ai", MISTRAL],
];

/** Local servers, by a name in the host, else by the port each listens on by default. */
const LOCAL: readonly [RegExp, ProviderProfile][] = [
  [/ollama/i, OLLAMA],
  [/lm-?studio/i, LMSTUDIO],
  [/vllm/i, VLLM],
  [/llama[-.]?cpp|llama-server/i, LLAMACPP],
];

function isHostOrSubdomain(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

/**
 * The profile for an endpoint, from its base URL: OpenAI when there is none; a hosted API by
 * its documented host; a local server by its name or default port (11434 Ollama, 1234 LM
 * Studio, 8000 vLLM, 8080 llama.cpp); anything else is generic. `forced` (`--provider`) wins.
 */
export function chooseProfile(baseUrl: string | undefined, forced?: ProviderId): ProviderProfile {
  if (forced) return PROFILES[forced];
  if (baseUrl === undefined) return OPENAI;
  if (!URL.canParse(baseUrl)) return GENERIC;
  const url = new URL(baseUrl);
  const hosted = HOSTS.find(([domain]) => isHostOrSubdomain(url.hostname, domain));
  if (hosted) return hosted[1];
  const named = LOCAL.find(([name]) => name.test(url.hostname));
  if (named) return named[1];
  const port = Number(url.port);
  return [OLLAMA, LMSTUDIO, VLLM, LLAMACPP].find((p) => p.local?.port === port) ?? GENERIC;
}
