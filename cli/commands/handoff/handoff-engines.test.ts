import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../../fixtures/secrets.ts";
import { API_KEY, useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

describe("with no model configured", () => {
  test("the offline engine hands off and says so in one short line, once", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runAgent(["handoff", src], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n")[0]).toBe("no model configured: the offline engine writes the handoff (see agent config)");
    expect(run.stderr.split("no model configured")).toHaveLength(2);
    const lines = run.stdout.split("\n");
    for (const heading of [
      "## Goal",
      "## Constraints & Preferences",
      "## Progress",
      "## Key Decisions",
      "## Critical Context",
      "## Next Steps",
      "## Session Facts",
    ]) {
      expect(lines).toContain(heading);
    }
    const created = readdirSync(sandbox.dir).filter((f) => f !== "source.jsonl");
    expect(created).toHaveLength(1);
    const recorded = readFileSync(src, "utf8").trimEnd().split("\n").slice(-2)[0] ?? "";
    expect(JSON.parse(recorded).message).toMatchObject({ role: "assistant", provider: "agent", model: "offline" });
  });

  test.each<[string[]]>([[["--dry-run"]], [["--json"]], [["--dry-run", "--json"]], [["-v"]], [["-o", "-"]]])(
    "with %p too, the line is shown once",
    async (extra) => {
      const src = sandbox.source(EXAMPLE);
      const run = await runAgent(["handoff", src, ...extra], cleanEnv(sandbox.home));
      expect(run.code).toBe(0);
      expect(run.stderr.split("no model configured")).toHaveLength(2);
    },
  );

  test("-q hides it", async () => {
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), "-q"], cleanEnv(sandbox.home));
    expect([run.code, run.stderr]).toEqual([0, ""]);
  });

  test("--engine llm is a usage error with the hint", async () => {
    const src = sandbox.source(EXAMPLE);
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--engine", "llm"], cleanEnv(sandbox.home));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--engine llm needs a model");
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
    expect(readFileSync(src).equals(original)).toBe(true);
  });
});

describe("secrets", () => {
  const inJson = (value: string) => JSON.stringify(value).slice(1, -1);

  test("planted secrets never reach the server; the printed document has them back; the key appears nowhere", async () => {
    const server = sandbox.serve((request) => {
      // Like a model that repeats what it was shown: every placeholder comes back.
      const seen = [...new Set(JSON.stringify(request.body).match(/\[REDACTED:[a-z0-9-]+:\d+\]/g) ?? [])];
      return { text: `${CANNED_DOCUMENT}\n\nRotate: ${seen.join(" ")}` };
    });
    const src = sandbox.source(SECRETS_SESSION);
    const run = await runAgent(["handoff", src, "--json", "--verbose"], sandbox.env(server.url));
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
    for (const file of readdirSync(sandbox.dir)) expect(readFileSync(join(sandbox.dir, file), "utf8")).not.toContain(API_KEY);
    expect(run.stdout + run.stderr).not.toContain(API_KEY);
  });

  test("--dry-run shows the redacted request", async () => {
    const src = sandbox.source(SECRETS_SESSION);
    const run = await runAgent(
      ["handoff", src, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[REDACTED:");
    for (const { value } of PLANTED_SECRETS) expect(run.stdout).not.toContain(inJson(value));
  });
});

describe("the offline engine never touches the network", () => {
  // A base URL and no model: an llm run would ask the endpoint for its models first.
  test.each<[string, string[], Record<string, string>, string | undefined]>([
    ["--engine offline, the base URL from the environment", ["--engine", "offline"], {}, undefined],
    ["--engine offline with a key", ["--engine", "offline"], { OPENAI_API_KEY: API_KEY }, undefined],
    ["AGENT_ENGINE=offline", [], { AGENT_ENGINE: "offline" }, undefined],
    ["engine = offline in the config file", [], {}, 'engine = "offline"\n'],
    ["--engine offline --dry-run", ["--engine", "offline", "--dry-run"], {}, undefined],
  ])("%s: no request, no model list", async (_, flags, extra, config) => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const env = cleanEnv(sandbox.home, { OPENAI_BASE_URL: s.url, ...extra });
    if (config !== undefined) {
      const { mkdirSync, writeFileSync } = await import("node:fs");
      mkdirSync(join(sandbox.home, ".config", "agent"), { recursive: true });
      writeFileSync(join(sandbox.home, ".config", "agent", "config.toml"), config);
      env.XDG_CONFIG_HOME = join(sandbox.home, ".config");
    }
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), "--no-record", ...flags], env);
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    expect([s.requests.length, s.modelLists.length]).toEqual([0, 0]);
  });
});
