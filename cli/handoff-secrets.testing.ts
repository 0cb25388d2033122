/** What the end-to-end secrets tests share: what must never be sent, and a model that quotes every placeholder it saw. */
import { FULL_DOCUMENT } from "../fixtures/handoff-pipeline.ts";
import { startFakeOpenAI, type FakeServer } from "../fixtures/fake-openai.ts";

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

/** A model that quotes every placeholder it was shown, out of their context: first without some sections when asked to. */
export function quotingServer(options: { firstMissesSections?: boolean; contextWindow?: number }): FakeServer {
  return startFakeOpenAI(
    (request, index) => {
      const quoted = `Quoted: ${placeholdersIn(request.body).join(" ")}`;
      return { text: index === 0 && options.firstMissesSections ? `## Goal\n${quoted}` : `${FULL_DOCUMENT}\n\n${quoted}` };
    },
    { contextWindow: options.contextWindow },
  );
}
