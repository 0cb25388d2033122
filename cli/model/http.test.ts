/** The request as it goes out: its URL built from the base URL, its headers, its body as given. */
import { afterEach, describe, expect, test } from "bun:test";
import { CANNED_DOCUMENT, startFakeOpenAI, type FakeServer } from "../../fixtures/fake-openai.ts";
import { accountFrom } from "./account.ts";
import { ConnectionError, endpointUrl, send, StatusError } from "./http.ts";

describe("the URL: the path after the base URL's, its query kept after it", () => {
  test.each([
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1/chat/completions"],
    ["http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1/chat/completions"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/chat/completions"],
    [
      "https://x.openai.azure.com/openai/deployments/prod?api-version=2024-10-21",
      "https://x.openai.azure.com/openai/deployments/prod/chat/completions?api-version=2024-10-21",
    ],
    ["https://h.example/v1/?a=1&b=2", "https://h.example/v1/chat/completions?a=1&b=2"],
    ["https://h.example?key=k", "https://h.example/chat/completions?key=k"],
  ])("%s", (base, url) => {
    expect(endpointUrl(base, "/chat/completions")).toBe(url);
  });
});

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("what is sent", () => {
  test.each<[string, string | undefined, string]>([
    ["the key", "sk-http-test", "Bearer sk-http-test"],
    ["no key (a local server): a placeholder", undefined, "Bearer no-key"],
  ])("%s", async (_, apiKey, authorization) => {
    server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
    const body = '{"model":"m","messages":[{"role":"user","content":"é"}],"stream":true}';
    const response = await send({
      method: "POST",
      url: `${server.url}/chat/completions`,
      apiKey,
      body,
      signal: new AbortController().signal,
    });
    await response.text();
    expect(server.requests[0]?.headers).toMatchObject({
      authorization,
      "content-type": "application/json",
      accept: "application/json",
      // As Bun's fetch asks by itself; we decompress the answer ourselves (decompress.ts).
      "accept-encoding": "gzip, deflate, br, zstd",
    });
    expect(server.requests[0]?.body).toEqual(JSON.parse(body));
  });
});

describe("the OpenAI organization and project: OPENAI_ORG_ID and OPENAI_PROJECT_ID as OpenAI-Organization and OpenAI-Project", () => {
  test.each<[string, Record<string, string>, { "openai-organization"?: string; "openai-project"?: string }]>([
    [
      "both",
      { OPENAI_ORG_ID: "org-abc", OPENAI_PROJECT_ID: "proj_123" },
      { "openai-organization": "org-abc", "openai-project": "proj_123" },
    ],
    ["the organization only", { OPENAI_ORG_ID: "org-abc" }, { "openai-organization": "org-abc", "openai-project": undefined }],
    ["the project only", { OPENAI_PROJECT_ID: "proj_123" }, { "openai-organization": undefined, "openai-project": "proj_123" }],
    [
      "a trailing newline ($(cat id.txt)): trimmed",
      { OPENAI_ORG_ID: "org-abc\n", OPENAI_PROJECT_ID: " proj_123\t" },
      { "openai-organization": "org-abc", "openai-project": "proj_123" },
    ],
    ["blank: not sent", { OPENAI_ORG_ID: "", OPENAI_PROJECT_ID: " \n" }, { "openai-organization": undefined, "openai-project": undefined }],
    ["unset: not sent", {}, { "openai-organization": undefined, "openai-project": undefined }],
  ])("%s", async (_, env, headers) => {
    server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
    const response = await send({
      method: "GET",
      url: `${server.url}/models`,
      apiKey: "k",
      account: accountFrom(env),
      signal: new AbortController().signal,
    });
    await response.text();
    const sent = server.modelLists[0]?.headers ?? {};
    const got: Record<string, string | undefined> = {
      "openai-organization": sent["openai-organization"],
      "openai-project": sent["openai-project"],
    };
    expect(got).toEqual(headers);
  });
});

describe("how it fails", () => {
  test("a status other than 2xx: its status, headers and body as they came", async () => {
    server = startFakeOpenAI(() => ({ status: 429, error: { message: "slow down" }, headers: { "retry-after": "3" } }));
    const failed = await send({
      method: "POST",
      url: `${server.url}/chat/completions`,
      apiKey: "k",
      body: "{}",
      signal: new AbortController().signal,
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StatusError);
    const error = failed as StatusError;
    expect([error.status, error.headers.get("retry-after"), JSON.parse(error.body ?? "")]).toEqual([
      429,
      "3",
      { error: { type: "invalid_request_error", message: "slow down" } },
    ]);
  });

  test("nothing listening: a connection error with the runtime's error as its cause", async () => {
    const failed = await send({
      method: "GET",
      url: "http://127.0.0.1:9/v1/models",
      apiKey: "k",
      signal: new AbortController().signal,
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect((failed as ConnectionError).cause).toBeInstanceOf(Error);
  });

  test("an aborted request is the abort, not a connection error", async () => {
    const controller = new AbortController();
    controller.abort();
    const failed = await send({ method: "GET", url: "http://127.0.0.1:9/v1/models", apiKey: "k", signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    expect(failed).not.toBeInstanceOf(ConnectionError);
    expect((failed as Error).name).toBe("AbortError");
  });
});
