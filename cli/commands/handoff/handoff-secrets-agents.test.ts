/**
 * Secrets, end to end, from a Claude Code transcript and a Codex rollout: the CLI spawned against
 * a fake endpoint on 127.0.0.1, on a source with a distinct secret of every kind in every place
 * the format holds text (fixtures/secrets-everywhere-claude-code.ts, -codex.ts) and the API key
 * quoted in it, handed into its own agent and into others. No request of any run may carry any
 * of them, nor --dry-run's output or stderr; the new session and the document on stdout get the
 * originals back, except the key, withheld everywhere. The offline engine sends nothing and
 * redacts nothing (nothing leaves), but withholds the key from all it prints and writes.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeServer } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { CLAUDE_CODE_PLACES, claudeCodeSecrets, claudeCodeSecretsEverywhere } from "../../../fixtures/secrets-everywhere-claude-code.ts";
import { CODEX_PLACES, codexSecrets, codexSecretsEverywhere } from "../../../fixtures/secrets-everywhere-codex.ts";
import { neverSent, quotingServer } from "./handoff-secrets.testing.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

const API_KEY = "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";

interface Source {
  agent: "claude-code" | "codex";
  file: string;
  session: string;
  /** Every planted secret, by place. */
  secrets: { place: string; kind: string; value: string }[];
  /** The places whose text the model sees and may quote back. */
  quotable: Set<string>;
  /** Another agent to hand it into, besides its own and pi. */
  other: "claude-code" | "codex";
}

const SOURCES: Source[] = [
  {
    agent: "claude-code",
    file: "5ec7e75e-0000-4000-8000-000000000001.jsonl",
    session: claudeCodeSecretsEverywhere(API_KEY),
    secrets: claudeCodeSecrets(),
    quotable: new Set(CLAUDE_CODE_PLACES.filter((p) => p.quotable).map((p) => p.place)),
    other: "codex",
  },
  {
    agent: "codex",
    file: "rollout-2026-11-30T09-00-00-5ec7e75e-0000-4000-8000-000000000002.jsonl",
    session: codexSecretsEverywhere(API_KEY),
    secrets: codexSecrets(),
    quotable: new Set(CODEX_PLACES.filter((p) => p.quotable).map((p) => p.place)),
    other: "claude-code",
  },
];

interface SecretsRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The new session's text: every string in it, JSON escapes undone. */
  written: string;
}

/** Every string a JSONL file holds, decoded, one per line: the document is one of them whatever the agent. */
function stringsOf(jsonl: string): string {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const line of jsonl.split("\n")) if (line !== "") walk(JSON.parse(line));
  return strings.join("\n");
}

async function runOn(source: Source, server: FakeServer | undefined, extra: string[]): Promise<SecretsRun> {
  const path = join(sandbox.dir, source.file);
  writeFileSync(path, source.session);
  const out = join(sandbox.dir, "new.jsonl");
  const baseUrl = server?.url ?? "http://127.0.0.1:9/v1";
  const args = ["handoff", path, "-v", "--base-url", baseUrl, "-o", out, ...extra];
  const run = await runAgent(args, cleanEnv(sandbox.home, { OPENAI_API_KEY: API_KEY }), sandbox.dir);
  const wrote = run.code === 0 && !extra.includes("--dry-run");
  // A Claude Code or Codex source is never written to.
  expect(readFileSync(path, "utf8")).toBe(source.session);
  expect(readdirSync(sandbox.dir).sort()).toEqual(wrote ? ["new.jsonl", source.file].sort() : [source.file]);
  return { ...run, written: wrote ? stringsOf(readFileSync(out, "utf8")) : "" };
}

function leaksIn(source: Source, text: string): string[] {
  return neverSent([...source.secrets.map((s) => s.value), API_KEY]).filter((secret) => text.includes(secret));
}

/** The originals a document must have back: every secret of a place the model sees, but not the key. */
function missingFrom(source: Source, document: string): string[] {
  return source.secrets.filter((s) => source.quotable.has(s.place) && !document.includes(s.value)).map((s) => `${s.place}: ${s.kind}`);
}

/** `quotedAll`: the model saw every placeholder in one request (not condensed), so the document has every original back. */
function expectNothingLeaked(source: Source, server: FakeServer, run: SecretsRun, quotedAll: boolean): void {
  expect(server.requests.length).toBeGreaterThan(0);
  for (const [i, request] of server.requests.entries())
    expect({ request: i, leaks: leaksIn(source, JSON.stringify(request.body)) }).toEqual({ request: i, leaks: [] });
  // stderr ends up in CI logs: likely secrets are replaced there too.
  expect(leaksIn(source, run.stderr)).toEqual([]);
  for (const text of [run.stdout, run.written]) {
    expect(text).toContain("[withheld]");
    expect(text).not.toContain(API_KEY);
  }
  for (const text of [run.stdout, run.written]) {
    // Only placeholders this run issued are in it, and every one of them is restored.
    expect(text).not.toContain("[REDACTED");
    if (quotedAll) expect(missingFrom(source, text)).toEqual([]);
  }
}

for (const source of SOURCES) {
  describe(`a ${source.agent} source with a secret in every place`, () => {
    test.each([source.agent, "pi", source.other])("--strict --to %s, a first answer missing sections", async (target) => {
      const server = quotingServer({ firstMissesSections: true });
      try {
        const run = await runOn(source, server, ["--strict", "--to", target]);
        expect(run.stderr).toContain("New session started");
        expect(server.requests).toHaveLength(2);
        expectNothingLeaked(source, server, run, true);
      } finally {
        await server.stop();
      }
    });

    test("condensed at a small window: notes requests, notes quoting placeholders, and the handoff request", async () => {
      const server = quotingServer({ contextWindow: 6_000 });
      try {
        const run = await runOn(source, server, ["--context-window", "6000"]);
        expect(run.stderr).toContain("New session started");
        expect(server.requests.length).toBeGreaterThan(2);
        expectNothingLeaked(source, server, run, false);
      } finally {
        await server.stop();
      }
    });

    test("--dry-run, condensed, prints every request without them", async () => {
      const run = await runOn(source, undefined, ["--dry-run", "--engine", "llm", "--context-window", "6000"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("[REDACTED:");
      expect(leaksIn(source, run.stdout)).toEqual([]);
      expect(leaksIn(source, run.stderr)).toEqual([]);
    });

    test("a new Claude Code session where Claude Code looks: the folder named after the cwd names no secret on stderr", async () => {
      const path = join(sandbox.dir, source.file);
      writeFileSync(path, source.session);
      const env = cleanEnv(sandbox.home, { OPENAI_API_KEY: API_KEY });
      const run = await runAgent(["handoff", path, "--engine", "offline", "--to", "claude-code"], env, sandbox.dir);
      expect(run.code).toBe(0);
      expect(readdirSync(join(sandbox.home, ".claude", "projects"))).toHaveLength(1);
      expect(run.stderr).toContain("New session started with handoff context:");
      expect(leaksIn(source, run.stderr)).toEqual([]);
    });

    test("the offline engine sends nothing, redacts nothing, and withholds the key from all it prints and writes", async () => {
      const server = quotingServer({});
      try {
        const run = await runOn(source, server, ["--engine", "offline", "--to", source.other, "--focus", `rotate ${API_KEY} first`]);
        expect(run.code).toBe(0);
        expect(server.requests).toHaveLength(0);
        expect(leaksIn(source, run.stderr)).toEqual([]);
        for (const text of [run.stdout, run.written]) {
          // The document quotes the focus and the session as they are, the key withheld.
          expect(text).toContain('"rotate [withheld] first"');
          expect(text).not.toContain(API_KEY);
          expect(text).not.toContain("[REDACTED");
          expect(source.secrets.filter((s) => text.includes(s.value)).length).toBeGreaterThan(0);
        }
      } finally {
        await server.stop();
      }
    });
  });
}
