/**
 * The model engine's flags with an agent engine: accepted (a config or alias may set them for
 * every run), and one warning line says they are not used, since the agent answers with its own
 * model and settings. Spawned as a user runs it; a dry run, so no agent is needed.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

describe("flags an agent engine does not use", () => {
  test.each([
    [["--engine", "claude", "-m", "gpt-5"], "--model not used with --engine claude-code"],
    [["--engine", "omp", "--base-url", "http://127.0.0.1:9/v1", "--retries", "1"], "--base-url, --retries not used with --engine omp"],
    [
      ["--engine", "codex", "--provider", "openai", "--max-output-tokens", "500"],
      "--provider, --max-output-tokens not used with --engine codex",
    ],
  ])("%p: one warning line", async (flags, warning) => {
    const src = sandbox.source(join(REPO, "fixtures/handoff-markers.jsonl"));
    const run = await runAgent(["handoff", src, "--dry-run", ...flags], cleanEnv(sandbox.home, { PATH: "/usr/bin:/bin" }));
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n").filter((line) => line.includes("not used with --engine"));
    expect(lines).toEqual([`warning: ${warning}: the agent answers with its own model and settings`]);
  });

  test("no warning with the model engine or none of them given", async () => {
    const src = sandbox.source(join(REPO, "fixtures/handoff-markers.jsonl"));
    for (const flags of [
      ["--engine", "claude"],
      ["--engine", "llm", "-m", "x", "--base-url", "http://127.0.0.1:9/v1"],
    ]) {
      const run = await runAgent(["handoff", src, "--dry-run", ...flags], cleanEnv(sandbox.home, { PATH: "/usr/bin:/bin" }));
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain("not used with --engine");
    }
  });
});
