/** What the end-to-end secrets tests share: what must never be sent, and a model that quotes every placeholder it saw. */
import { FULL_DOCUMENT } from "../../../fixtures/handoff-pipeline.ts";
import { startFakeOpenAI, type FakeServer } from "../../../fixtures/fake-openai.ts";
import { answerCharLimit } from "../../../core/llm/answer-bound.ts";

/** Every secret, each line of a multi-line one (a cut key's tail), in text and JSON-escaped forms. */
export function neverSent(secrets: readonly string[]): string[] {
  return [
    ...new Set(
      secrets
        .flatMap((value) => [value, ...value.split("\n").filter((line) => line.length >= 16 && !line.startsWith("-----"))])
        .flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]),
    ),
  ];
}

/** Every placeholder and the key's stand-in a request carried. */
function placeholdersIn(body: unknown): string[] {
  return [...new Set(JSON.stringify(body).match(/\[REDACTED(?:-\d+)?:[a-z0-9-]+:\d+\]|\[withheld\]/g) ?? [])];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** A model that quotes every placeholder it was shown, out of their context: first without some sections when asked to. */
export function quotingServer(options: { firstMissesSections?: boolean; contextWindow?: number }): FakeServer {
  return startFakeOpenAI(
    (request, index) => {
      const placeholders = placeholdersIn(request.body);
      const quoted = `Quoted: ${placeholders.join(" ")}`;
      const text = index === 0 && options.firstMissesSections ? `## Goal\n${quoted}` : `${FULL_DOCUMENT}\n\n${quoted}`;
      // An answer far past the output cap it was sent is refused (core/llm/answer-bound.ts): a
      // request with a small cap (condensing's notes) gets as many whole quotes as stay inside it.
      const cap =
        isRecord(request.body) && typeof request.body.max_tokens === "number"
          ? answerCharLimit({ model: "fake-model", stream: true, max_tokens: request.body.max_tokens, messages: [] })
          : undefined;
      if (cap === undefined || text.length <= cap) return { text };
      let fitting = "Quoted:";
      for (const placeholder of placeholders) if (fitting.length + placeholder.length + 1 <= cap) fitting += ` ${placeholder}`;
      return { text: fitting };
    },
    { contextWindow: options.contextWindow },
  );
}
