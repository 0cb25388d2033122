/** The fake's Gemini API, over real HTTP on 127.0.0.1: what Gemini CLI reads from each method, and the request log. */
import { afterAll, describe, expect, test } from "bun:test";
import { startFakeModelServer } from "./server.ts";

const fake = startFakeModelServer((_request, index) =>
  index === 0
    ? { text: "Hi there.", inputTokens: 12, outputTokens: 3 }
    : index === 1
      ? { toolCalls: [{ id: "c1", name: "read_file", arguments: { file_path: "a" } }] }
      : { refuse: { status: 429, message: "slow down" } },
);
afterAll(() => fake.stop());

const post = (path: string, body: unknown) => fetch(`${fake.origin}${path}`, { method: "POST", body: JSON.stringify(body) });
const BODY = { contents: [{ role: "user", parts: [{ text: "Hello?" }] }] };

/** The JSON of every `data:` line of an SSE body. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
}

describe("the fake Gemini API", () => {
  test("streamGenerateContent: SSE events, the parts then the finish reason with the usage; logged with the model in the path", async () => {
    const response = await post("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", BODY);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const [first, last] = (await events(response)) as {
      candidates: { content: { parts: unknown[] }; finishReason?: string }[];
      usageMetadata?: unknown;
      modelVersion: string;
    }[];
    expect(first?.candidates[0]?.content.parts).toEqual([{ text: "Hi there." }]);
    expect(first?.modelVersion).toBe("gemini-2.5-flash");
    expect(last?.candidates[0]?.finishReason).toBe("STOP");
    expect(last?.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 });
    expect(fake.modelRequests("gemini").at(-1)).toEqual({
      method: "POST",
      path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      wire: "gemini",
      body: BODY,
    });
  });

  test("generateContent: one JSON answer, a function call as a part", async () => {
    const response = await post("/v1beta/models/gemini-2.5-flash:generateContent", BODY);
    const json = (await response.json()) as { candidates: { content: { role: string; parts: unknown[] } }[] };
    expect(json.candidates[0]?.content).toEqual({
      role: "model",
      parts: [{ functionCall: { id: "c1", name: "read_file", args: { file_path: "a" } } }],
    });
  });

  test("a refusal in the Gemini API's error shape", async () => {
    const response = await post("/v1beta/models/gemini-2.5-flash:generateContent", BODY);
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: { code: 429, message: "slow down", status: "RESOURCE_EXHAUSTED" } });
  });

  test("countTokens: a count, logged, no model request", async () => {
    const before = fake.modelRequests().length;
    const response = await post("/v1beta/models/gemini-2.5-flash:countTokens", BODY);
    expect(await response.json()).toEqual({ totalTokens: 100 });
    expect(fake.modelRequests().length).toBe(before);
    expect(fake.requests.at(-1)?.path).toBe("/v1beta/models/gemini-2.5-flash:countTokens");
  });
});
