/** What the `agent handoff` end-to-end tests share: a folder and a HOME per test, a fake endpoint, and the check that a failed run wrote nothing. */
import { afterEach, beforeEach, expect } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeHandler, type FakeOptions, type FakeServer } from "../fixtures/fake-openai.ts";
import { cleanEnv, REPO } from "../fixtures/run-agent.ts";

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
