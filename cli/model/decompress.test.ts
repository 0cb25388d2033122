/**
 * A body labelled with an encoding it is not in, as the process shows it: Bun's own decompression
 * would print "Decompression error: ZlibError" on stderr, outside anything we print; ours leaves
 * one line, ours. Spawned: that line went to the process's stderr, where no in-process run sees it.
 */
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { response, startRawServer, type RawServer } from "../../fixtures/raw-http.ts";
import { REPO } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
let server: RawServer | undefined;
afterEach(() => {
  server?.stop();
  server = undefined;
});

test.each(["gzip", "br", "zstd"])("a plain body labelled %s: exit 1, one line of ours on stderr, nothing written", async (encoding) => {
  const body = "not compressed at all";
  server = startRawServer(() => ({
    bytes: response({ "content-type": "text/event-stream", "content-encoding": encoding, "content-length": String(body.length) }, body),
    after: "end",
  }));
  const src = sandbox.source(join(REPO, "fixtures", "example.jsonl"));
  const proc = Bun.spawn([...CLI_ARGV, "handoff", src, "--model", "m", "--retries", "0"], {
    env: sandbox.env(server.url),
    cwd: sandbox.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).not.toContain("Decompression error");
  expect(stderr.split(server.url).join("URL").trimEnd().split("\n").at(-1)).toBe(
    `Handoff failed: URL sent a compressed answer that does not decompress (content-encoding: ${encoding})`,
  );
  expect(server.requests()).toBe(1);
});
