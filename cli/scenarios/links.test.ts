import { describe, expect, test } from "bun:test";
import { linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** A small version 1 session (no ids), whose recording rewrites the whole file. */
const V1 = [
  { type: "session", id: "11111111-2222-4333-8444-555555555555", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" },
  { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "fix it", timestamp: 1 } },
  {
    type: "message",
    timestamp: "2025-01-01T00:00:02.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 2 },
  },
]
  .map((line) => JSON.stringify(line))
  .join("\n")
  .concat("\n");

describe("a source reached through a link", () => {
  test("a symlinked version 1 source is upgraded in the real file; the link stays a link", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    mkdirSync(join(sandbox.dir, "real"));
    const real = join(sandbox.dir, "real", "v1.jsonl");
    writeFileSync(real, V1);
    const link = join(sandbox.dir, "v1-link.jsonl");
    symlinkSync(real, link);
    const run = await runAgent(["handoff", link, "-o", join(sandbox.dir, "next.jsonl")], sandbox.env(s.url));
    expect(run.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const lines = readFileSync(real, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", version: 3 });
    expect(lines).toHaveLength(5);
  });

  test("a symlinked version 3 source gets the lines appended to the real file", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const real = sandbox.source(join(REPO, "fixtures", "example.jsonl"), "real.jsonl");
    const before = readFileSync(real);
    const link = join(sandbox.dir, "link.jsonl");
    symlinkSync(real, link);
    const run = await runAgent(["handoff", link, "-o", join(sandbox.dir, "next.jsonl")], sandbox.env(s.url));
    expect(run.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const after = readFileSync(real);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
  });

  test("a hard-linked version 1 source is not rewritten (that would split the links), and the run says so", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const first = join(sandbox.dir, "a.jsonl");
    writeFileSync(first, V1);
    linkSync(first, join(sandbox.dir, "b.jsonl"));
    const run = await runAgent(["handoff", first, "-o", join(sandbox.dir, "next.jsonl")], sandbox.env(s.url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("has 2 hard links");
    expect(readFileSync(first, "utf8")).toBe(V1);
    expect(readFileSync(join(sandbox.dir, "b.jsonl"), "utf8")).toBe(V1);
  });
});
