/** What the `agent integrate` tests share: a fresh HOME per test under one folder of the file's, and `integrate` run in-process as a fixed binary. */
import { afterAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, memoryIo, REPO } from "../../fixtures/run-agent.ts";
import { runCli } from "../main.ts";
import { createProcessHost } from "../process/host.ts";

/** The agent the tests integrate: a binary at a fixed path (no checkout notice). */
export const AGENT = "/opt/agent/bin/agent";
export const HOST = { ...createProcessHost(), program: { executable: AGENT, script: undefined } };

/** Homes for one test file, under a folder named after it, removed when the file ends. */
export function integrateHomes(name: string): { root: string; freshHome(): { home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), `agent-${name}-`));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let homes = 0;
  return {
    root,
    freshHome() {
      const home = join(root, `home-${++homes}`);
      mkdirSync(home, { recursive: true });
      return { home, env: cleanEnv(home, { PATH: "/nonexistent" }) };
    },
  };
}

/** `agent integrate <args…>` in-process, as the binary at `AGENT` (or at `executable`: an agent moved since). */
export async function integrate(args: string[], env: Record<string, string>, executable = AGENT) {
  const host = executable === AGENT ? HOST : { ...HOST, program: { executable, script: undefined } };
  const io = { ...memoryIo(env, REPO), host };
  const code = await runCli(["integrate", ...args], io);
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}
