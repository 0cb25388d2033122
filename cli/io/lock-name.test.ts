import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { lockPathFor } from "./lock.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

/** A legal file name of exactly `bytes` UTF-8 bytes ending in `.jsonl`, made of `unit`. */
function nameOf(bytes: number, unit = "s"): string {
  const room = bytes - ".jsonl".length;
  const unitBytes = Buffer.byteLength(unit, "utf8");
  return `${unit.repeat(Math.floor(room / unitBytes))}${"x".repeat(room % unitBytes)}.jsonl`;
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("lockPathFor: a lock name that always fits, and that every handoff agrees on", () => {
  test.each([20, 200, 250])("a %i-byte name keeps the name every version used: <source>.lock", (n) => {
    const path = `/data/${nameOf(n)}`;
    expect(lockPathFor(path)).toBe(`${path}.lock`);
  });

  test.each([
    [251, "s"],
    [253, "s"],
    [255, "s"],
    [255, "é"],
    [254, "日"],
    [255, "🎉"],
  ])("a %i-byte name of %p: at most 255 bytes, in the same folder, the same each time, ending in .lock", (n, unit) => {
    const name = nameOf(n, unit);
    expect(bytes(name)).toBe(n);
    const lock = lockPathFor(`/data/${name}`);
    expect(lock.startsWith("/data/")).toBe(true);
    const lockName = lock.slice("/data/".length);
    expect(bytes(lockName)).toBeLessThanOrEqual(255);
    expect(lockName).toMatch(/\.[0-9a-f]{8}\.lock$/);
    expect(lockName).not.toContain("\ufffd");
    expect(lockPathFor(`/data/${name}`)).toBe(lock);
  });

  test("two long names that differ only after the cut get two locks", () => {
    const a = `${"s".repeat(249)}a.jsonl`;
    const b = `${"s".repeat(249)}b.jsonl`;
    expect(lockPathFor(`/d/${a}`)).not.toBe(lockPathFor(`/d/${b}`));
  });
});

describe("a source with the longest legal names is recorded into", () => {
  test.each([
    [250, "s"],
    [251, "s"],
    [255, "s"],
    [255, "é"],
  ])("%i bytes of %p: recorded, no lock left, no warning", async (n, unit) => {
    const src = sandbox.source(EXAMPLE, nameOf(n, unit));
    const before = readFileSync(src, "utf8");
    const run = await runAgent(["handoff", src, "--engine", "offline"], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("not recorded");
    expect(run.stderr).not.toContain("warning");
    // Recorded: the instruction, the answer and the model entry.
    expect(readFileSync(src, "utf8").slice(before.length).trimEnd().split("\n")).toHaveLength(3);
    expect(existsSync(lockPathFor(src))).toBe(false);
    expect(readdirSync(sandbox.dir).filter((f) => f.endsWith(".lock") || f.endsWith(".tmp"))).toEqual([]);
  });
});
