import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT, type FakeHandler } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../../fixtures/built-cli.ts";
import { API_KEY, useHandoffSandbox } from "./handoff.testing.ts";
import { MODEL_ASKED_OF_ENDPOINT } from "../../flags/options.ts";

const sandbox = useHandoffSandbox();
const { serve, source, env, expectNothingWritten } = sandbox;

describe("agent handoff, failures: exit code, message, nothing written", () => {
  const cases: { name: string; handler: FakeHandler; args?: string[]; code: number; message: string; requests: number }[] = [
    {
      name: "500 after retries",
      handler: () => ({ status: 500, error: { message: "upstream exploded" }, headers: { "retry-after": "0" } }),
      args: ["--retries", "1"],
      code: 1,
      message: "Handoff failed: ",
      requests: 2,
    },
    {
      name: "400 with a message",
      handler: () => ({ status: 400, error: { message: "model 'nope' does not exist" } }),
      code: 1,
      message: "model 'nope' does not exist",
      requests: 1,
    },
    {
      name: "stream cut before the finish, every time: retried, then failed",
      handler: () => ({ text: CANNED_DOCUMENT, cutBeforeFinish: true }),
      args: ["--retries", "1"],
      code: 1,
      message: "ended before the model finished (connection cut?) (gave up after 2 attempts)",
      requests: 2,
    },
    { name: "empty answer", handler: () => ({ text: "" }), code: 1, message: "Handoff failed: the model returned no text", requests: 1 },
    {
      name: "only a think block",
      handler: () => ({ text: "<think>hmm, where to start" }),
      code: 1,
      message: "Handoff failed: the model returned no text",
      requests: 1,
    },
    {
      name: "--strict and still missing a section after one repair",
      handler: () => ({ text: "## Goal\nOnly this." }),
      args: ["--strict"],
      code: 1,
      message: 'Handoff failed: the document still lacks "## Constraints & Preferences"',
      requests: 2,
    },
    {
      name: "401 with the key echoed back",
      handler: () => ({ status: 401, error: { message: `Incorrect API key provided: ${API_KEY}` } }),
      code: 1,
      message: "refused the API key (401)",
      requests: 1,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const s = serve(c.handler);
      const src = source();
      const original = readFileSync(src);
      const run = await runAgent(["handoff", src, "--verbose", ...(c.args ?? [])], env(s.url));
      expect(run.code).toBe(c.code);
      expect(run.stderr).toContain(c.message);
      expect(run.stdout).toBe("");
      expect(run.stderr).not.toContain(API_KEY);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(s.requests).toHaveLength(c.requests);
      expectNothingWritten(src, original);
    });
  }

  test("connection refused", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const url = s.url;
    await sandbox.stopServer();
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--retries", "0"], env(url));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Handoff failed: could not reach ${url}`);
    expectNothingWritten(src, original);
  });

  test("fewer than 2 messages: exit 3, no request sent", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const src = join(sandbox.dir, "source.jsonl");
    writeFileSync(
      src,
      `${JSON.stringify({ type: "session", version: 3, id: "x1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" })}\n${JSON.stringify({ type: "message", id: "a1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "hi", timestamp: 1 } })}\n`,
    );
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src], env(s.url));
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("Nothing to hand off (no messages yet)");
    expect(s.requests).toHaveLength(0);
    expectNothingWritten(src, original);
  });

  test("SIGINT mid-stream: exit 130, Handoff cancelled", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT, hangAfterFirstChunk: true }));
    const src = source();
    const original = readFileSync(src);
    const proc = Bun.spawn([...CLI_ARGV, "handoff", src], { env: env(s.url), cwd: REPO, stdout: "pipe", stderr: "pipe" });
    for (let i = 0; i < 200 && s.requests.length === 0; i++) await Bun.sleep(25);
    await Bun.sleep(150); // let the first chunk arrive
    proc.kill("SIGINT");
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(130);
    expect(stderr).toContain("Handoff cancelled");
    expect(stdout).toBe("");
    expectNothingWritten(src, original);
  });

  test("--timeout bounds a silent stream", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT, hangAfterFirstChunk: true }));
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--timeout", "1"], env(s.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Handoff failed: .*(1s)/);
    expectNothingWritten(src, original);
  });

  test("--out naming an existing file is refused before any request", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--out", src], env(s.url));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("already exists; refusing to overwrite it");
    expect(s.requests).toHaveLength(0);
    expectNothingWritten(src, original);
  });

  test("an unknown flag is an error with a suggestion", async () => {
    const src = source();
    const run = await runAgent(["handoff", src, "--foucs", "x"], cleanEnv(sandbox.home));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option --foucs; did you mean --focus?");
  });

  test("--dry-run prints the request body, sends and writes nothing", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--dry-run", "-f", "docs"], env(s.url));
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout);
    // No model named at a local endpoint: it would be asked of the endpoint, which a dry run does not contact.
    expect(body).toMatchObject({ model: MODEL_ASKED_OF_ENDPOINT, stream: true, stream_options: { include_usage: true } });
    expect(body.messages.at(-1).content).toEndWith("Additional focus: docs");
    expect(run.stderr).toMatch(/~\d+ tokens/);
    expect(s.requests).toHaveLength(0);
    expect(s.modelLists).toHaveLength(0);
    expectNothingWritten(src, original);
  });
});
