import { AgentError } from "../errors.ts";
import { isModelId, MODEL_ID_CHARS } from "./model-id.ts";
import type { ProviderProfile } from "./providers/profile.ts";

/**
 * Which model to use when the user named none and the endpoint is local: the one it serves, or
 * a message saying what to do. Pure: the list arrives as the parsed body of `GET /models`.
 */

/** At most this many model names in a message; the rest are counted. */
export const LISTED_MODELS = 20;

/** Embedding models cannot write a document; Ollama and LM Studio list them beside chat models. */
const EMBEDDING_MODEL = /embed/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The model ids in a `GET /models` answer: OpenAI's list shape, `{"data":[{"id":…},…]}`, which
 * Ollama, vLLM, llama.cpp and LM Studio all answer with (Ollama writes `"data":null` for none).
 * `undefined` when the body is not such a list. Each id once, in the endpoint's order.
 */
export function readModelList(body: unknown): string[] | undefined {
  if (!isRecord(body)) return undefined;
  if (body.data === null) return [];
  if (!Array.isArray(body.data)) return undefined;
  const ids = body.data.flatMap((entry) => (isRecord(entry) && typeof entry.id === "string" && entry.id.trim() !== "" ? [entry.id] : []));
  return [...new Set(ids)];
}

/**
 * `a, b, c`, or the first `LISTED_MODELS` and `and N more`. Each name whole: only ids (`isModelId`:
 * one line, at most `MODEL_ID_CHARS`) are listed, a user copies one to `--model`, and a cut here
 * would happen before the CLI takes secrets out of the message.
 */
export function listNames(names: readonly string[]): string {
  const listed = names.slice(0, LISTED_MODELS).join(", ");
  return names.length > LISTED_MODELS ? `${listed} and ${names.length - LISTED_MODELS} more` : listed;
}

export interface ServedModel {
  model: string;
  /** Why this one, for `-v`. */
  reason: string;
}

/**
 * The model to use from what the endpoint (`where`, as printed) serves. One that can chat: it.
 * Several: a usage error listing them (the user must choose). None: the handoff fails, saying how
 * the profile's server gets one. Embedding models are set aside, and said to be.
 */
export function chooseServedModel(listed: readonly string[], where: string, profile: ProviderProfile): ServedModel {
  // An id that is not an identifier (a line break, a control character, absurdly long) is never
  // sent, printed or stored: it is counted, and ignored.
  const ids = listed.filter(isModelId);
  const ignored = listed.length - ids.length;
  const chat = ids.filter((id) => !EMBEDDING_MODEL.test(id));
  const embedding = ids.filter((id) => EMBEDDING_MODEL.test(id));
  const asides = [
    ...(embedding.length === 0 ? [] : [embedding.length === 1 ? "an embedding model" : `${embedding.length} embedding models`]),
    ...(ignored === 0 ? [] : [`${ignored === 1 ? "an id" : `${ignored} ids`} we cannot use`]),
  ];
  const besides = asides.length === 0 ? "" : ` (besides ${asides.join(" and ")})`;
  const [only] = chat;
  if (only !== undefined && chat.length === 1)
    return { model: only, reason: `no model given: using ${only}, the only model ${where} serves${besides}` };
  if (chat.length > 1)
    throw new AgentError(
      "USAGE",
      `no model given, and ${where} serves ${chat.length} models${besides}; choose one with --model: ${listNames(chat)}`,
    );
  const onlyEmbedding = embedding.length === 0 ? "" : ` but embedding models (${listNames(embedding)}), which cannot write a document`;
  if (ignored > 0 && embedding.length === 0)
    throw new AgentError(
      "HANDOFF_FAILED",
      `${where} lists no model id we can use: ${ignored === 1 ? "the one it lists has" : `all ${ignored} it lists have`} control characters, line breaks or more than ${MODEL_ID_CHARS} characters; name the model with --model`,
    );
  throw new AgentError(
    "HANDOFF_FAILED",
    `${where} serves no model${onlyEmbedding}; ${profile.local?.addModel ?? "load or pull one on the server"}`,
  );
}
