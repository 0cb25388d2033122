/**
 * A lone UTF-16 surrogate is not text: a session line may hold one as a JSON escape (`\ud800`),
 * and so may a model's answer, but Anthropic's API refuses a request holding one and Codex's
 * JSON reader drops the line. Whatever leaves (every request, the document, the new session of
 * every target) carries U+FFFD in its place. Spawned as a user runs it, against a fake endpoint.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FULL_DOCUMENT } from "../../fixtures/handoff-pipeline.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** A JSON text holding an escape of a high surrogate with no low one after it, or a low one alone. */
const LONE_ESCAPE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

/** Every string in a parsed JSON value, keys included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  return out;
}

/** Each source with a lone surrogate (both halves, apart) planted in the text of its last request. */
const SOURCES = [
  {
    fixture: "fixtures/handoff-markers.jsonl",
    plant: (t: string) => t.replaceAll("LATEST-MARKER: add error", "LATEST-MARKER: add \\ud800 it \\udfff error"),
  },
  {
    fixture: "fixtures/sessions/claude-code/split.jsonl",
    plant: (t: string) => t.replaceAll("Why does the build fail?", "Why \\ud800 a \\udfff the build fail?"),
  },
  { fixture: "fixtures/sessions/codex/compaction.jsonl", plant: (t: string) => t.replaceAll("Fix it.", "Fix \\ud800 add \\udfff it.") },
];

describe("a lone surrogate never leaves: requests, the document and every target's file carry U+FFFD", () => {
  const cases = SOURCES.flatMap((source) => ["pi", "omp", "claude-code", "codex"].map((to) => [source.fixture, to, source] as const));
  test.each(cases)("%s --to %s", async (fixture, to, source) => {
    const text = readFileSync(join(REPO, fixture), "utf8");
    const planted = source.plant(text);
    expect(planted).not.toBe(text); // the plant found its place
    const src = join(sandbox.dir, fixture.split("/").pop() ?? "source.jsonl");
    writeFileSync(src, planted);
    // The model answers with a lone surrogate of its own.
    const server = sandbox.serve(() => ({ text: `${FULL_DOCUMENT}\n\nNoted: odd \ud800 byte.` }));
    const run = await runAgent(
      ["handoff", src, "--to", to, "--json", "--no-record", "--base-url", server.url, "--model", "fake-model"],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: "sk-test-key-for-fake-endpoint-0001" }),
    );
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) for (const s of strings(request.body)) expect(s.isWellFormed()).toBe(true);
    // The planted request reached the model, with U+FFFD where each half was.
    expect(JSON.stringify(server.requests[0]?.body)).toMatch(/\ufffd (a|add|it) \ufffd/);
    const written = readFileSync(JSON.parse(run.stdout).sessionFile, "utf8");
    expect(written).not.toMatch(LONE_ESCAPE);
    expect(written.isWellFormed()).toBe(true);
    expect(written).toContain("odd \\ufffd byte".replace("\\ufffd", "\ufffd"));
    expect(run.stdout).not.toMatch(LONE_ESCAPE);
  });
});
