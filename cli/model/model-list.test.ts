/**
 * A local endpoint and no model named: the CLI, spawned with an explicit environment, asks each
 * local server's fake (fixtures/fake-providers.ts, its `GET /v1/models` in that server's own
 * shape) for its models, and uses the only one, or says what to do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { startFakeProviders, type FakeProviders } from "../../fixtures/fake-providers.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
let fake: FakeProviders;

beforeAll(() => {
  fake = startFakeProviders({ window: 200_000, answer: CANNED_DOCUMENT });
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.modelLists.length = 0;
  for (const mode of Object.keys(fake.served)) delete fake.served[mode];
});

/** A handoff of the sandbox's source through `mode`'s fake, naming no model. */
async function handoff(mode: string, provider: string, args: string[] = []) {
  const base = `${fake.url}/${mode}/v1`;
  const src = sandbox.source();
  const original = readFileSync(src);
  const run = await runAgent(["handoff", src, "--provider", provider, ...args], cleanEnv(sandbox.home, { OPENAI_BASE_URL: base }));
  return { run, base, src, original };
}

describe("one model to chat with: it is the one asked, recorded and printed", () => {
  test.each<[string, string[], string, string]>([
    ["ollama", ["qwen3:8b"], "qwen3:8b", ""],
    ["ollama", ["nomic-embed-text:latest", "qwen3:8b"], "qwen3:8b", " (besides an embedding model)"],
    ["vllm", ["Qwen/Qwen3-8B"], "Qwen/Qwen3-8B", ""],
    ["llamacpp", ["/models/qwen3-8b-q4_k_m.gguf"], "/models/qwen3-8b-q4_k_m.gguf", ""],
    ["lmstudio", ["qwen/qwen3-8b", "text-embedding-nomic-embed-text-v1.5"], "qwen/qwen3-8b", " (besides an embedding model)"],
  ])("%s serving %j", async (mode, served, model, besides) => {
    fake.served[mode] = served;
    const { run, base, src } = await handoff(mode, mode, ["--json", "-v"]);
    expect(run.code).toBe(0);
    expect(fake.modelLists).toEqual([mode]);
    expect(fake.requests.map((r) => r.body.model)).toEqual([model]);
    expect(JSON.parse(run.stdout).model).toBe(model);
    expect(run.stderr).toContain(`debug: no model given: using ${model}, the only model ${base} serves${besides}\n`);
    // The answer recorded in the source names the model that wrote it.
    expect(readFileSync(src, "utf8")).toContain(`"model":${JSON.stringify(model)}`);
    expect(run.stdout).not.toContain("gpt-4.1-mini");
  });

  test("said on -v only: without it, nothing about the model on stderr", async () => {
    fake.served.ollama = ["qwen3:8b"];
    const { run } = await handoff("ollama", "ollama", ["--no-record"]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(CANNED_DOCUMENT)).toBe(true);
    expect(run.stderr).not.toContain("qwen3:8b");
    expect(fake.requests.map((r) => r.body.model)).toEqual(["qwen3:8b"]);
  });
});

describe("several models, or none: one line saying what to do; nothing sent, nothing written", () => {
  const many = Array.from({ length: 25 }, (_, i) => `org/model-${i + 1}`);
  test.each<[string, string, string[], number, string]>([
    [
      "ollama",
      "ollama",
      ["qwen3:8b", "llama3.2:latest", "gemma3:4b"],
      2,
      "error: no model given, and BASE serves 3 models; choose one with --model: qwen3:8b, llama3.2:latest, gemma3:4b",
    ],
    [
      "vllm",
      "vllm",
      ["Qwen/Qwen3-8B", "sql-lora"],
      2,
      "error: no model given, and BASE serves 2 models; choose one with --model: Qwen/Qwen3-8B, sql-lora",
    ],
    [
      "lmstudio",
      "lmstudio",
      many,
      2,
      `error: no model given, and BASE serves 25 models; choose one with --model: ${many.slice(0, 20).join(", ")} and 5 more`,
    ],
    ["ollama", "ollama", [], 1, "Handoff failed: BASE serves no model; pull one with `ollama pull <model>`"],
    [
      "ollama",
      "ollama",
      ["nomic-embed-text:latest"],
      1,
      "Handoff failed: BASE serves no model but embedding models (nomic-embed-text:latest), which cannot write a document; pull one with `ollama pull <model>`",
    ],
    [
      "lmstudio",
      "lmstudio",
      [],
      1,
      "Handoff failed: BASE serves no model; load one with `lms load <model>` (download it first with `lms get <model>`)",
    ],
    [
      "llamacpp",
      "llamacpp",
      [],
      1,
      "Handoff failed: BASE serves no model; llama.cpp serves the model it is started with (`llama-server -m <model.gguf>`)",
    ],
    // On a port no profile knows, the server is unnamed.
    ["ollama", "auto", [], 1, "Handoff failed: BASE serves no model; load or pull one on the server"],
  ])("%s (--provider %s) serving %j", async (mode, provider, served, code, message) => {
    fake.served[mode] = served;
    const { run, base, src, original } = await handoff(mode, provider);
    expect(run.code).toBe(code);
    expect(run.stderr).toBe(`${message.replace("BASE", base)}\n`);
    expect(run.stdout).toBe("");
    expect(fake.modelLists).toEqual([mode]);
    expect(fake.requests).toEqual([]);
    sandbox.expectNothingWritten(src, original);
  });
});
