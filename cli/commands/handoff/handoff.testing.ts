/** What the `agent handoff` end-to-end tests share: a folder and a HOME per test, a fake endpoint, and the check that a failed run wrote nothing. */
import { afterEach, beforeEach, expect } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeHandler, type FakeOptions, type FakeServer } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, REPO } from "../../../fixtures/run-agent.ts";

export const API_KEY = "sk-test-e2e-0123456789abcdef";
export const MARKERS = join(REPO, "fixtures", "handoff-markers.jsonl");

export function filesIn(folder: string): string[] {
  return readdirSync(folder).sort();
}

export interface HandoffSandbox {
  /** The test's own folder: sources are copied here and new sessions land here. */
  readonly dir: string;
  /** The test's own HOME. */
  readonly home: string;
  serve(handler: FakeHandler, options?: FakeOptions): FakeServer;
  /** Stops the endpoint now, so a test can point the CLI at a port nobody listens on. */
  stopServer(): Promise<void>;
  /** Copies a fixture into the test's folder so the run may record into it. */
  source(fixture?: string, name?: string): string;
  env(url: string, extra?: Record<string, string>): Record<string, string>;
  /** The one thing every failing run must leave behind: nothing new, the source untouched. */
  expectNothingWritten(sourcePath: string, original: Buffer): void;
}

/** Registers the per-test setup and teardown in the calling test file and returns its handles. */
export function useHandoffSandbox(): HandoffSandbox {
  let dir: string;
  let home: string;
  let server: FakeServer | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-handoff-"));
    home = mkdtempSync(join(tmpdir(), "agent-home-"));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  return {
    get dir() {
      return dir;
    },
    get home() {
      return home;
    },
    serve(handler, options) {
      server = startFakeOpenAI(handler, options);
      return server;
    },
    async stopServer() {
      await server?.stop();
      server = undefined;
    },
    source(fixture = MARKERS, name = "source.jsonl") {
      const path = join(dir, name);
      copyFileSync(fixture, path);
      return path;
    },
    env(url, extra = {}) {
      return cleanEnv(home, { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: url, ...extra });
    },
    expectNothingWritten(sourcePath, original) {
      expect(filesIn(dir)).toEqual(["source.jsonl"]);
      expect(readFileSync(sourcePath).equals(original)).toBe(true);
    },
  };
}

/** A pi session working in `cwd`, with one request and its answer: the smallest source a handoff takes. */
export function piSessionIn(cwd: string): string {
  const lines = [
    { type: "session", version: 3, id: "7c4e2a91-3b5d-4f60-8a17-c2d9e0f1a2b3", timestamp: "2026-11-29T14:00:00.000Z", cwd },
    {
      type: "message",
      id: "b0000001",
      parentId: null,
      timestamp: "2026-11-29T14:01:00.000Z",
      message: { role: "user", content: "Fix the upload test in src/upload.ts.", timestamp: 1795942860000 },
    },
    {
      type: "message",
      id: "b0000002",
      parentId: "b0000001",
      timestamp: "2026-11-29T14:02:00.000Z",
      message: { role: "assistant", content: [{ type: "text", text: "Fixed." }], provider: "openai", model: "gpt-5", stopReason: "stop" },
    },
  ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

/** Every 12 of `text`'s letters and digits in a row (placeholders left out): what no message may share with a secret. */
export function partsOf(text: string): string[] {
  const letters = text.replace(/\[REDACTED:[a-z0-9-]+:\d+\]/g, " ").replace(/[^A-Za-z0-9]/g, "");
  return Array.from({ length: Math.max(1, letters.length - 11) }, (_, i) => letters.slice(i, i + 12));
}
