/**
 * Running the real Codex on a session, headless, against the fake's Responses endpoint:
 * `codex exec resume <id|--last> "<prompt>"` in the sandbox project with CODEX_HOME in the
 * sandbox, and the request it sends tells what reached the model.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import type { Agent } from "../agents.ts";
import { configureCodex, FAKE_KEY } from "../agent-setup.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { must } from "./report.ts";

/** Codex's own folder in the sandbox (CODEX_HOME; the same as its default under the sandbox's HOME). */
export const codexHomeOf = (sandbox: Sandbox) => join(sandbox.home, ".codex");

/** Codex's environment in the sandbox: its folder, the key for the fake. */
export const codexEnv = (sandbox: Sandbox, codexHome = codexHomeOf(sandbox)) =>
  sandbox.env({ CODEX_HOME: codexHome, COMPAT_FAKE_KEY: FAKE_KEY });

/**
 * Codex pointed at the fake, the sandbox project trusted ahead (its TUI asks otherwise); `extra`
 * lines (TOML) at the top level.
 */
export function prepareCodex(sandbox: Sandbox, fake: FakeModelServer, extra: readonly string[] = []): string {
  const codexHome = codexHomeOf(sandbox);
  configureCodex(codexHome, fake.origin, [...extra, `[projects."${sandbox.project}"]`, 'trust_level = "trusted"']);
  return codexHome;
}

/** `codex exec "<prompt>"` in the project: a new thread of Codex's own (it indexes it in its state database); its id. */
export async function execStart(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  codexHome: string,
  prompt: string,
  dns: DnsLog,
): Promise<string | undefined> {
  const run = await runAgent(
    [join(dir, agent.bin), "exec", "--skip-git-repo-check", "--json", prompt],
    { cwd: sandbox.project, env: codexEnv(sandbox, codexHome), timeoutMs: 120_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  return /"thread_id":"([^"]+)"/.exec(run.stdout)?.[1];
}

/** `codex exec resume <id|--last> "<prompt>"`: the thread it continued and the input of its first model request. */
export async function execResume(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  codexHome: string,
  fake: FakeModelServer,
  target: string[],
  prompt: string,
  dns: DnsLog,
): Promise<{ thread: string | undefined; input: unknown[]; model: string }> {
  const env = codexEnv(sandbox, codexHome);
  const before = fake.requests.length;
  const run = await runAgent(
    [join(dir, agent.bin), "exec", "--skip-git-repo-check", "--json", "resume", ...target, prompt],
    { cwd: sandbox.project, env, timeoutMs: 120_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  const request = fake.requests.slice(before).find((r) => r.wire === "responses");
  must(
    request !== undefined && isObject(request.body) && Array.isArray(request.body.input),
    `sent no Responses request; ${describeRun(run)}`,
  );
  const model = typeof request.body.model === "string" ? request.body.model : "";
  return { thread: /"thread_id":"([^"]+)"/.exec(run.stdout)?.[1], input: request.body.input, model };
}

/** Every line of the file after Codex wrote to it: JSON with a timestamp and a type, one session_meta, ours still first. */
export function checkRollout(path: string, ours: string): string {
  const text = readFileSync(path, "utf8");
  must(text.startsWith(ours), "our lines are no longer the start of the file");
  const lines = text.trimEnd().split("\n");
  let metas = 0;
  for (const [i, line] of lines.entries()) {
    const value: unknown = JSON.parse(line);
    must(
      isObject(value) && typeof value.timestamp === "string" && typeof value.type === "string",
      `line ${i + 1} lacks a timestamp or a type`,
    );
    if (value.type === "session_meta") metas++;
  }
  must(metas === 1, `${metas} session_meta lines`);
  return `${lines.length} lines`;
}
