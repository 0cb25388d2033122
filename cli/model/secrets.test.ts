import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { assistant, chain, text, user } from "../../fixtures/sessions/builders.ts";
import { describeUrl, urlSecrets } from "./secrets.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

describe("describeUrl: a URL as it may be printed", () => {
  test.each([
    ["https://api.openai.com/v1", "https://api.openai.com/v1"],
    ["http://user:pa55word@127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"],
    ["https://sk-abc123@proxy.example/v1", "https://proxy.example/v1"],
    ["https://host/v1?key=AIzaSecret&api-version=2024-01-01", "https://host/v1?key=***&api-version=***"],
    ["https://host/v1#token=abc", "https://host/v1"],
    ["localhost:11434/v1", "localhost:11434/v1"],
    ["not a url at all", "(a URL that does not parse)"],
  ])("%p → %p", (url, printed) => {
    expect(describeUrl(url)).toBe(printed);
  });

  test("the parts that must not be printed, also decoded", () => {
    expect(urlSecrets("https://bob:p%40ss@host/v1?key=k%3D1")).toEqual(["bob", "p%40ss", "p@ss", "k=1"]);
    expect(urlSecrets(undefined)).toEqual([]);
  });
});

const KEY = "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";
const URL_PASSWORD = "hunter2-in-the-url";
const URL_QUERY = "AIzaQueryValue123456";

describe("the key and the base URL's secrets in printed lines", () => {
  test("-v lines and a connection error name the endpoint without userinfo or query values", async () => {
    const src = sandbox.source();
    const run = await runAgent(
      [
        "handoff",
        src,
        "-v",
        "--retries",
        "0",
        "--no-record",
        "-m",
        "gpt-4.1-mini",
        "--base-url",
        `http://me:${URL_PASSWORD}@127.0.0.1:9/v1?key=${URL_QUERY}`,
      ],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("debug: engine llm; model gpt-4.1-mini at http://127.0.0.1:9/v1?key=*** (generic profile);");
    expect(run.stderr).toContain("Handoff failed: could not reach http://127.0.0.1:9/v1?key=***");
    for (const secret of [KEY, URL_PASSWORD, URL_QUERY, "me:"]) expect(run.stderr).not.toContain(secret);
  });

  test("an endpoint error that echoes the key, the URL and its query value prints none of them", async () => {
    let echoed = "";
    const server = sandbox.serve((request) => ({
      status: 400,
      error: { message: `bad request from ${echoed} with ${request.headers.authorization}` },
    }));
    const baseUrl = `${server.url.replace("http://", `http://me:${URL_PASSWORD}@`)}?key=${URL_QUERY}`;
    echoed = baseUrl;
    const run = await runAgent(
      ["handoff", sandbox.source(), "--no-record", "--retries", "0", "--base-url", baseUrl],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Handoff failed:");
    expect(run.stderr).toContain("[withheld]");
    for (const secret of [KEY, URL_PASSWORD, URL_QUERY]) expect(run.stderr).not.toContain(secret);
  });

  test("a base URL that is not http names no secret in the usage error", async () => {
    const run = await runAgent(
      ["handoff", sandbox.source(), "--base-url", `ftp://me:${URL_PASSWORD}@host/?key=${URL_QUERY}`],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url "ftp://host/?key=***" is not an http:// or https:// URL (it starts with "ftp:")');
    for (const secret of [URL_PASSWORD, URL_QUERY]) expect(run.stderr).not.toContain(secret);
  });

  test("--focus quoting the key: neither the request, the output nor the recorded instruction has it", async () => {
    const server = sandbox.serve(() => ({ text: "## Goal\nok" }));
    const src = sandbox.source();
    const before = readFileSync(src, "utf8");
    const run = await runAgent(
      ["handoff", src, "--json", "--focus", `rotate ${KEY} today`],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url }),
    );
    expect(run.code).toBe(0);
    expect(JSON.stringify(server.requests.map((r) => r.body))).toContain("rotate [withheld] today");
    const added = readFileSync(src, "utf8").slice(before.length);
    expect(added).toContain("Additional focus: rotate [withheld] today");
    for (const text of [JSON.stringify(server.requests.map((r) => r.body)), run.stdout, run.stderr, added]) expect(text).not.toContain(KEY);
  });

  test.each([
    ["a key in the session, --dry-run", ["--dry-run"]],
    ["a key in the session, --dry-run --no-redact", ["--dry-run", "--no-redact"]],
    ["a key in the session, --dry-run --engine offline", ["--dry-run", "--engine", "offline"]],
  ])("%s prints no key", async (_what, flags) => {
    const src = join(sandbox.dir, "source.jsonl");
    writeFileSync(src, chain([user(1, `My key is OPENAI_API_KEY=${KEY}, quoted as "${KEY}".`), assistant(2, [text(`Noted: ${KEY}`)])]));
    const run = await runAgent(
      ["handoff", src, "--focus", `use ${KEY}`, "--base-url", "http://127.0.0.1:9/v1", ...flags],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(run.stdout).toContain("[withheld]");
  });
});
