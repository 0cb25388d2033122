/**
 * Asking a local endpoint for its models, when it goes wrong, when it must not happen at all
 * (`--dry-run`, a model named), and when the endpoint is not local (the default model, as
 * before). Spawned with an explicit environment against real HTTP fakes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT, type FakeReply } from "../../fixtures/fake-openai.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { API_KEY, useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { MODEL_ASKED_OF_ENDPOINT } from "../flags/options.ts";

const sandbox = useHandoffSandbox();

describe("the list of models fails: the same one-line messages as a chat request, nothing written", () => {
  test.each<[string, FakeReply, string[], number, (url: string) => string, number]>([
    [
      "404 under /v1: the user must name the model",
      { status: 404, error: { message: "not found" } },
      [],
      2,
      (url) => `error: ${url}/models answered 404 not found; it lists no models: name one with --model`,
      1,
    ],
    [
      "405 under /v1",
      { status: 405, error: { message: "method not allowed" } },
      [],
      2,
      (url) => `error: ${url}/models answered 405 method not allowed; it lists no models: name one with --model`,
      1,
    ],
    [
      "500 every time: retried, then failed",
      { status: 500, error: { message: "overloaded" }, headers: { "retry-after": "0" } },
      ["--retries", "1"],
      1,
      (url) => `Handoff failed: ${url}/models answered 500 overloaded (gave up after 2 attempts)`,
      2,
    ],
    [
      "401 echoing the key",
      { status: 401, error: { message: `bad key ${API_KEY}` } },
      [],
      1,
      (url) => `Handoff failed: ${url}/models refused the API key (401); check OPENAI_API_KEY`,
      1,
    ],
    [
      "a page with status 200 (a captive portal)",
      { rawBody: "<html><title>Sign in</title></html>", contentType: "text/html" },
      [],
      1,
      (url) => `Handoff failed: ${url}/models answered 200 with text/html, not a list of models; name the model with --model`,
      1,
    ],
    [
      "an error inside a 200 answer",
      { rawBody: `{"error":{"message":"no models for you"}}`, contentType: "application/json" },
      [],
      1,
      (url) => `Handoff failed: ${url}/models sent an error in its 200 answer: no models for you`,
      1,
    ],
    [
      "a redirect: not followed",
      { status: 307, rawBody: "", headers: { location: "/v2/models" } },
      [],
      1,
      (url) =>
        `Handoff failed: ${url}/models redirected the request (307) to ${url.replace(/\/v1$/, "/v2")}/models; not followed (redirects are not followed): use --base-url ${url.replace(/\/v1$/, "/v2")}`,
      1,
    ],
    [
      "silent past --timeout",
      { delayMs: 5000, status: 500 },
      ["--timeout", "1", "--retries", "0"],
      1,
      () => "Handoff failed: no document within --timeout 1s",
      1,
    ],
  ])("%s", async (_, reply, args, code, message, asked) => {
    const server = sandbox.serve(() => ({ text: CANNED_DOCUMENT }), { models: reply });
    const url = server.url;
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, ...args], sandbox.env(url));
    expect(run.stderr).toBe(`${message(url)}\n`);
    expect(run.code).toBe(code);
    expect(server.modelLists).toHaveLength(asked);
    expect(server.requests).toEqual([]);
    sandbox.expectNothingWritten(src, original);
  });

  test("a base URL without /v1: the 404 says so, as it does for a chat request", async () => {
    const server = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const base = server.url.replace(/\/v1$/, "");
    const run = await runAgent(["handoff", sandbox.source()], sandbox.env(base));
    expect(run.stderr).toBe(
      `Handoff failed: ${base}/models answered 404 no route /models; the base URL has no /v1, under which OpenAI-compatible endpoints serve (try ${base}/v1)\n`,
    );
    expect(run.code).toBe(1);
  });

  test("the key and the URL's credentials and query values are in no message", async () => {
    const password = "hunter2-in-the-url";
    const query = "AIzaQueryValue123456";
    const server = sandbox.serve(() => ({ text: CANNED_DOCUMENT }), {
      models: { status: 400, error: { message: `no: ${API_KEY} ${password} ${query}` } },
    });
    const base = `${server.url.replace("http://", `http://me:${password}@`)}?key=${query}`;
    const run = await runAgent(["handoff", sandbox.source(), "-v"], sandbox.env(base));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Handoff failed: ${server.url}/models?key=*** answered 400 no: [withheld] [withheld] [withheld]`);
    for (const secret of [API_KEY, password, query, "me:"]) expect(run.stderr).not.toContain(secret);
    expect(server.modelLists[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });
});

describe("--dry-run never contacts the endpoint: the model shows as unresolved", () => {
  let hits: string[] = [];
  let tripwire: ReturnType<typeof Bun.serve> | undefined;
  afterEach(async () => {
    await tripwire?.stop(true);
    hits = [];
  });

  test.each<[string, string[]]>([
    ["a loopback endpoint", []],
    ["--provider ollama", ["--provider", "ollama"]],
    ["--json", ["--json"]],
  ])("%s", async (_, args) => {
    // Any request at all fails the test.
    tripwire = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        hits.push(`${req.method} ${new URL(req.url).pathname}`);
        return new Response("tripwire", { status: 500 });
      },
    });
    const url = `http://127.0.0.1:${tripwire.port}/v1`;
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--dry-run", ...args], sandbox.env(url));
    expect(run.code).toBe(0);
    expect(hits).toEqual([]);
    const printed = JSON.parse(run.stdout);
    const request = args.includes("--json") ? printed.requests[0] : printed;
    expect(request.model).toBe(MODEL_ASKED_OF_ENDPOINT);
    expect(run.stderr).toContain(
      `no model named: the model is asked of ${url} (its list of models) when the handoff runs; nothing is contacted now\n`,
    );
    sandbox.expectNothingWritten(src, original);
  });
});

describe("a model named anywhere is the one used, and nothing is asked", () => {
  function configHome(model: string): Record<string, string> {
    const xdg = join(sandbox.home, "xdg");
    mkdirSync(join(xdg, "agent"), { recursive: true });
    writeFileSync(join(xdg, "agent", "config.toml"), `model = "${model}"\n`);
    return { XDG_CONFIG_HOME: xdg };
  }

  test.each<[string, string[], (() => Record<string, string>) | undefined]>([
    ["--model", ["-m", "from-flag"], undefined],
    ["AGENT_MODEL", [], () => ({ AGENT_MODEL: "from-env" })],
    ["the config file", [], () => configHome("from-file")],
  ])("%s", async (name, args, extra) => {
    const server = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const run = await runAgent(["handoff", sandbox.source(), "--no-record", "--json", ...args], sandbox.env(server.url, extra?.()));
    expect(run.code).toBe(0);
    expect(server.modelLists).toEqual([]);
    const expected = { "--model": "from-flag", AGENT_MODEL: "from-env", "the config file": "from-file" }[name];
    expect(server.requests.map((r) => (r.body as { model: string }).model)).toEqual([expected ?? ""]);
  });
});

describe("an endpoint that is not local, no model named: the default, as before", () => {
  test.each<[string, Record<string, string>]>([
    ["OpenAI (no base URL)", { OPENAI_API_KEY: API_KEY }],
    ["OpenRouter", { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: "https://openrouter.ai/api/v1" }],
    ["a public proxy", { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: "https://llm.example.com/v1" }],
  ])("%s", async (_, env) => {
    const run = await runAgent(["handoff", sandbox.source(), "--dry-run"], cleanEnv(sandbox.home, env));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).model).toBe("gpt-4.1-mini");
    expect(run.stderr).not.toContain("no model named");
  });
});
