/**
 * A pi/omp header with a session version we do not know: read (not skipped), said once, the
 * same way by `inspect`, `inspect --json` and `handoff`, and never recorded into.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

function sourceWithVersion(version: unknown): string {
  const [header = "", ...rest] = readFileSync(join(REPO, "fixtures", "example.jsonl"), "utf8").split("\n");
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, `${JSON.stringify({ ...JSON.parse(header), version })}\n${rest.join("\n")}`);
  return path;
}

describe("an unknown session version: one honest warning, read as a layout we know, never recorded into", () => {
  test.each<[number, string, number]>([
    [4, "newer than the 3 we know", 3],
    [99, "newer than the 3 we know", 3],
    [3.5, "newer than the 3 we know", 3],
    [2.5, "not one we know", 3],
    [0, "older than the 1 we know", 1],
    [-1, "older than the 1 we know", 1],
  ])("version %p", async (version, beside, readAs) => {
    const src = sourceWithVersion(version);
    const original = readFileSync(src);
    const env = cleanEnv(sandbox.home);
    const warning = `line 1: unknown session version ${version}${beside === "not one we know" ? "" : `, ${beside}`}; read as version ${readAs}`;

    const inspect = await runAgent(["inspect", src], env);
    expect(inspect.code).toBe(0);
    expect(inspect.stderr).toBe(`warning: ${src}: ${warning}\n`);
    expect(inspect.stdout).toContain(`\nformat    pi, version ${version} (unknown: read as version ${readAs})\n`);

    const json = await runAgent(["inspect", src, "--json"], env);
    const report = JSON.parse(json.stdout);
    expect(report.malformedLines).toEqual([]);
    expect(report.warnings).toEqual([warning]);
    expect(report.version).toBe(version);

    const handoff = await runAgent(["handoff", src, "--engine", "offline", "--json"], env);
    expect(handoff.code).toBe(0);
    expect(handoff.stderr).toContain(`warning: ${src}: ${warning}\n`);
    expect(handoff.stderr).toContain(
      `warning: ${src}: not recorded in the source: its session version ${version} is ${beside}, and we record only into versions 1 to 3 (the agent that wrote it may not read our lines)\n`,
    );
    expect(handoff.stderr).not.toContain("skipped");
    expect(JSON.parse(handoff.stdout).recorded).toBe(false);
    expect(readFileSync(src).equals(original)).toBe(true);
  });

  test.each([1, 2, 3])("a known version %p is recorded into, with no warning", async (version) => {
    const src = sourceWithVersion(version);
    const handoff = await runAgent(["handoff", src, "--engine", "offline", "--json"], cleanEnv(sandbox.home));
    expect(handoff.code).toBe(0);
    expect(handoff.stderr).not.toContain("warning");
    expect(JSON.parse(handoff.stdout).recorded).toBe(true);
  });
});
