/** What a user sees when the endpoint is not there, is at the wrong path, or fails for a while. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** A port on 127.0.0.1 nobody listens on: one the OS gave a server that is now stopped. */
async function closedPort(): Promise<string> {
  const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
  await sandbox.stopServer();
  return new URL(s.url).port;
}

describe("a local server that is not running: one line naming the URL and how that server is started", () => {
  const hints = [
    ["ollama", "is Ollama running? It is usually started with `ollama serve`"],
    ["vllm", "is vLLM running? It is usually started with `vllm serve <model>`"],
    ["llamacpp", "is llama.cpp running? It is usually started with `llama-server -m <model.gguf>`"],
    ["lmstudio", "is LM Studio running? It is usually started with `lms server start`"],
    ["generic", "nothing is listening there: is the server running?"],
  ];
  // With a model named, the chat request finds nobody; without, the list of models asked first does.
  const rows = hints.flatMap(([provider, hint]) => [
    [provider, "-m m", "", hint],
    [provider, "no model", "/models", hint],
  ]);
  test.each(rows)("--provider %s, %s", async (provider, model, path, hint) => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(
      ["handoff", src, "--retries", "0", "--provider", provider ?? "", ...(model === "-m m" ? ["-m", "m"] : [])],
      sandbox.env(url),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Handoff failed: could not reach ${url}${path} (ECONNREFUSED); ${hint} (gave up after 1 attempt; --retries 0)\n`,
    );
    sandbox.expectNothingWritten(src, original);
  });
});

describe("a 404 from a base URL without /v1", () => {
  test("says the base URL has no /v1, and what to try", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const base = s.url.replace(/\/v1$/, "");
    const src = sandbox.source();
    const run = await runAgent(["handoff", src, "-m", "qwen3:8b"], sandbox.env(base));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Handoff failed: ${base}/ answered 404 no route /chat/completions; the base URL has no /v1, under which OpenAI-compatible endpoints serve (try ${base}/v1)\n`,
    );
    expect(s.requests).toHaveLength(1);
  });

  test("a 404 under /v1 gets no such hint", async () => {
    const s = sandbox.serve(() => ({ status: 404, error: { message: "The model `nope` does not exist" } }));
    const run = await runAgent(["handoff", sandbox.source()], sandbox.env(s.url));
    expect(run.stderr).toBe(`Handoff failed: ${s.url} answered 404 The model \`nope\` does not exist\n`);
  });
});

describe("retries: each one and its cause on -v, and the attempts in the final error", () => {
  test("two 503s, then an answer: two retry lines, success", async () => {
    const s = sandbox.serve((_, i) =>
      i < 2 ? { status: 503, error: { message: `overloaded #${i + 1}` }, headers: { "retry-after": "0" } } : { text: CANNED_DOCUMENT },
    );
    const run = await runAgent(["handoff", sandbox.source(), "-v", "--retries", "2", "--no-record"], sandbox.env(s.url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`debug: attempt 1 of 3 failed: ${s.url} answered 503 overloaded #1; retrying in 0.0s`);
    expect(run.stderr).toContain(`debug: attempt 2 of 3 failed: ${s.url} answered 503 overloaded #2; retrying in 0.0s`);
    expect(s.requests).toHaveLength(3);
  });

  test("failing every time: the last cause and how many attempts were made; without -v, no retry lines", async () => {
    const s = sandbox.serve(() => ({ status: 429, error: { message: "slow down" }, headers: { "retry-after": "0" } }));
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--retries", "3"], sandbox.env(s.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Handoff failed: ${s.url} answered 429 slow down (gave up after 4 attempts)\n`);
    expect(s.requests).toHaveLength(4);
    sandbox.expectNothingWritten(src, original);
  });

  test("a refusal that retrying cannot fix is not retried", async () => {
    const s = sandbox.serve(() => ({ status: 400, error: { message: "model 'nope' does not exist" } }));
    const run = await runAgent(["handoff", sandbox.source(), "--retries", "3"], sandbox.env(s.url));
    expect(run.stderr).toBe(`Handoff failed: ${s.url} answered 400 model 'nope' does not exist\n`);
    expect(s.requests).toHaveLength(1);
  });
});
