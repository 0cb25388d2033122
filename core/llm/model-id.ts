/**
 * A model id that arrives from an endpoint or an agent (the `model` a stream names, the ids
 * `GET /models` lists) is stored in session files, sent back as the model to use and printed:
 * it must be an identifier. One with a control character, a line break, an invisible format
 * character (bidi overrides, zero-width) or more than `MODEL_ID_CHARS` characters is not used.
 */

/** Far longer than any real id (`vendor/family-size-variant:tag`). */
export const MODEL_ID_CHARS = 256;

const NOT_IN_AN_ID = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

export function isModelId(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "" && value.length <= MODEL_ID_CHARS && !NOT_IN_AN_ID.test(value);
}
