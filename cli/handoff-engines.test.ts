import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI, type FakeServer } from "../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../fixtures/run-agent.ts";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../fixtures/secrets.ts";

const API_KEY = "sk-test-engines-9f8e7d6c5b4a";
let dir: string;
let home: string;
let server: FakeServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-engines-"));
  home = mkdtempSync(join(tmpdir(), "agent-home-"));
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function copy(fixture: string): string {
  const path = join(dir, "source.jsonl");
  copyFileSync(fixture, path);
  return path;
}

describe("with no model configured", () => {
  test("the offline engine hands off and says how to configure a model", async () => {
    const src = copy(join(REPO, "fixtures", "example.jsonl"));
    const run = await runAgent(["handoff", src], cleanEnv(home));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("no model configured, so the offline engine writes the handoff");
    expect(run.stderr).toContain("OPENAI_API_KEY");
    const lines = run.stdout.split("\n");
    for (const heading of ["## Goal", "## Constraints & Preferences", "## Progress", "## Key Decisions", "## Critical Context", "## Next Steps", "## Session Facts"]) {
      expect(lines).toContain(heading);
    }
    const created = readdirSync(dir).filter((f) => f !== "source.jsonl");
    expect(created).toHaveLength(1);
    const recorded = readFileSync(src, "utf8").trimEnd().split("\n").slice(-1)[0] ?? "";
    expect(JSON.parse(recorded).message).toMatchObject({ role: "assistant", provider: "agent", model: "offline" });
  });

  test("--engine llm is a usage error with the hint", async () => {
    const src = copy(join(REPO, "fixtures", "example.jsonl"));
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--engine", "llm"], cleanEnv(home));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--engine llm needs a model");
    expect(readdirSync(dir)).toEqual(["source.jsonl"]);
    expect(readFileSync(src).equals(original)).toBe(true);
  });
});

describe("secrets", () => {
  const inJson = (value: string) => JSON.stringify(value).slice(1, -1);

  test("planted secrets never reach the server; the printed document has them back; the key appears nowhere", async () => {
    server = startFakeOpenAI((request) => {
      // Like a model that repeats what it was shown: every placeholder comes back.
      const seen = [...new Set(JSON.stringify(request.body).match(/\[REDACTED:[a-z0-9-]+:\d+\]/g) ?? [])];
      return { text: `${CANNED_DOCUMENT}\n\nRotate: ${seen.join(" ")}` };
    });
    const src = copy(SECRETS_SESSION);
    const env = cleanEnv(home, { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.url });
    const run = await runAgent(["handoff", src, "--json", "--verbose"], env);
    expect(run.code).toBe(0);
    const wire = JSON.stringify(server.requests.map((r) => r.body));
    const out = JSON.parse(run.stdout);
    for (const { value } of PLANTED_SECRETS) {
      expect(wire).not.toContain(inJson(value));
      expect(out.document).toContain(value);
    }
    expect(out.redacted).toBeGreaterThan(30);
    expect(run.stderr).toMatch(/\d+ likely secrets replaced by placeholders/);
    // The key: only in the Authorization header, never in output or files.
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), "utf8")).not.toContain(API_KEY);
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
  });

  test("--dry-run shows the redacted request", async () => {
    const src = copy(SECRETS_SESSION);
    const run = await runAgent(["handoff", src, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"], cleanEnv(home));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[REDACTED:");
    for (const { value } of PLANTED_SECRETS) expect(run.stdout).not.toContain(inJson(value));
  });
});
