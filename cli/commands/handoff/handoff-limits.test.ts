import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");
const V1 = join(REPO, "fixtures", "sessions", "v1.jsonl");

/** What a proxy in front of the endpoint sends when the endpoint is down: 2,000 lines of page. */
const PROXY_PAGE = `<!DOCTYPE html>\n<html>\n<head>\n<title>502 Bad Gateway</title>\n<style>h1 { color: red }</style>\n</head>\n<body>\n<h1>Bad Gateway</h1>\n${"<p>The upstream server did not answer.</p>\n".repeat(1990)}</body>\n</html>\n`;

describe("an endpoint's error page", () => {
  test.each([
    ["an HTML 502 page of 2,000 lines", { status: 502, rawBody: PROXY_PAGE }, "answered 502 Bad Gateway"],
    [
      "a plain-text 503 over several lines",
      { status: 503, rawBody: "Service\nUnavailable\n\nRetry later.", contentType: "text/plain" },
      "answered 503 Service Unavailable Retry later.",
    ],
  ])("%s is one line: the status and a short text", async (_, reply, expected) => {
    const s = sandbox.serve(() => reply);
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--retries", "0"], sandbox.env(s.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Handoff failed: ${s.url} ${expected} (gave up after 1 attempt; --retries 0)\n`);
    sandbox.expectNothingWritten(src, original);
  });
});

describe("long file names: temp names stay within 255 bytes", () => {
  test.each([
    ["250 ASCII characters", `${"n".repeat(244)}.jsonl`],
    ["255 bytes, the most a name may have", `${"n".repeat(249)}.jsonl`],
    ["254 bytes of two-byte characters", `${"é".repeat(124)}.jsonl`],
    ["four-byte characters up to 254 bytes", `${"😀".repeat(62)}.jsonl`],
  ])("-o with %s", async (_, name) => {
    const src = sandbox.source(EXAMPLE);
    const out = join(sandbox.dir, name);
    const run = await runAgent(["handoff", src, "--engine", "offline", "-o", out], cleanEnv(sandbox.home));
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain('"customType":"handoff"');
    expect(readdirSync(sandbox.dir).sort()).toEqual([name, "source.jsonl"].sort());
  });

  test("a version 1 source with a 249-character name is upgraded and recorded (its temp file too)", async () => {
    const name = `${"s".repeat(243)}.jsonl`;
    const src = join(sandbox.dir, name);
    copyFileSync(V1, src);
    const run = await runAgent(["handoff", src, "--engine", "offline", "-o", join(sandbox.dir, "new.jsonl")], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("upgraded to session format version 3");
    expect(JSON.parse(readFileSync(src, "utf8").split("\n")[0] ?? "{}").version).toBe(3);
    expect(readdirSync(sandbox.dir).sort()).toEqual(["new.jsonl", name].sort());
    expect(existsSync(`${src}.lock`)).toBe(false);
  });

  test("-o with a name over 255 bytes is refused before any work, exit 2", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const src = sandbox.source();
    const original = readFileSync(src);
    const out = join(sandbox.dir, `${"n".repeat(250)}.jsonl`);
    const run = await runAgent(["handoff", src, "-o", out], sandbox.env(s.url));
    expect([run.code, run.stderr]).toEqual([2, `error: ${out}: the file name is longer than 255 bytes\n`]);
    expect(s.requests).toHaveLength(0);
    sandbox.expectNothingWritten(src, original);
  });
});
