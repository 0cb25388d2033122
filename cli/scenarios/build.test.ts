import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANNED_DOCUMENT, FAKE_MODEL, startFakeOpenAI, type FakeServer } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO } from "../../fixtures/run-agent.ts";

// Builds the single binary with the package's own script, then runs it once like a user would.
describe("the compiled binary", () => {
  let dir: string;
  let server: FakeServer;
  const binary = join(REPO, "dist", "agent");

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-binary-"));
    server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
    const build = Bun.spawnSync(["bun", "run", "build"], {
      cwd: REPO,
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "" },
    });
    if (build.exitCode !== 0) throw new Error(`bun run build failed:\n${build.stderr.toString()}`);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("hands off a session and ignores a .env in the working directory", async () => {
    copyFileSync(join(REPO, "fixtures", "example.jsonl"), join(dir, "source.jsonl"));
    // A compiled Bun binary would read this unless built with autoload off.
    writeFileSync(join(dir, ".env"), "AGENT_MODEL=model-from-dotenv\n");
    const proc = Bun.spawn([binary, "handoff", "source.jsonl", "--no-record", "--no-facts"], {
      cwd: dir,
      env: cleanEnv(dir, { OPENAI_API_KEY: "sk-test-binary", OPENAI_BASE_URL: server.url }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(stderr).toContain("New session started with handoff context:");
    expect(code).toBe(0);
    expect(stdout).toBe(`${CANNED_DOCUMENT}\n`);
    // The model the local endpoint lists, not AGENT_MODEL from the .env.
    expect(server.modelLists).toHaveLength(1);
    expect((server.requests[0]?.body as { model: string } | undefined)?.model).toBe(FAKE_MODEL);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toHaveLength(2);
  });
});
